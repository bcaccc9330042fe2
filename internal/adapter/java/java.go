// Package java debugs programs on the JVM (Java, Kotlin, Scala: the VM does
// not care which compiler made the class files) with a DAP server built
// into this binary that drives the JVM's own debug agent over JDWP
// (package jdwp). Nothing needs installing but the JDK that runs the
// program.
//
// Launch starts `java -agentlib:jdwp=…,server=y,suspend=y,address=127.0.0.1:0`
// in its own process group, learns the port from the line the agent prints
// on stdout, and connects; the program's stdout and stderr become output
// events. Attach connects to a JVM already listening on JDWP.
package java

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"net"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

func init() { adapter.Register(New()) }

const (
	languageID = "java"
	adapterID  = "java"
)

// Adapter is the built-in JVM adapter.
type Adapter struct {
	// machine is where the java launcher is looked for; tests replace it.
	machine platform.Machine
	// versions caches each java launcher's version, for the runtime line.
	versions sync.Map
}

// New returns the JVM adapter.
func New() *Adapter { return &Adapter{machine: platform.Host()} }

// Language describes Java and the JVM languages served alike.
func (*Adapter) Language() adapter.Language {
	return adapter.Language{
		ID:                 languageID,
		Aliases:            []string{"kotlin", "scala", "jvm"},
		DisplayName:        "Java",
		Description:        "the JVM's JDWP agent, driven by a DAP server built into mcp-debugger (also for Kotlin and Scala class files)",
		RequiresExecutable: true,
		DefaultExecutable:  "java",
		PlainTypes:         []string{"int", "boolean", "java.lang.String"},
		VSCodeType:         "java",
		TestRunner:         "JUnit",
	}
}

// Check looks for the java launcher.
func (a *Adapter) Check(ctx context.Context) adapter.Availability {
	attach := adapter.ModeStatus{Supported: true, Available: true}
	java, err := findJava(ctx, a.machine, "")
	if err != nil {
		return adapter.Availability{
			Reason:      err.Error(),
			InstallHint: installHint(a.machine.OS),
			Launch:      adapter.ModeStatus{Supported: true, Reason: err.Error()},
			Attach:      attach,
		}
	}
	return adapter.Availability{
		Installed: true,
		Version:   a.version(ctx, java.path),
		Path:      java.path,
		Launch:    adapter.ModeStatus{Supported: true, Available: true},
		Attach:    attach,
	}
}

// javaVersion asks java for its version line ("openjdk version "17.0.15"").
func javaVersion(ctx context.Context, java string) string {
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	if _, rest, ok := strings.Cut(line, "\""); ok {
		v, _, _ := strings.Cut(rest, "\"")
		return v
	}
	return strings.TrimSpace(line)
}

// Launch serves DAP in process; the launch request it receives starts the
// JVM.
func (a *Adapter) Launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	java, err := findJava(ctx, a.machine, cfg.ExecutablePath)
	if err != nil {
		return nil, err
	}
	progArgs := cfg.Args
	if progArgs == nil {
		progArgs = []string{}
	}
	args := map[string]any{
		"program":     cfg.Program,
		"args":        progArgs,
		"javaPath":    java.path,
		"stopOnEntry": cfg.StopOnEntry,
	}
	if len(cfg.Env) > 0 {
		args["env"] = cfg.Env
	}
	if cfg.StdinFile != "" {
		args[stdinFileKey] = cfg.StdinFile
	}
	maps.Copy(args, cfg.Extra)
	p, cleanup, err := projectLaunch(ctx, java.path, cfg.Program, cfg.Cwd, args, cfg.DryRun)
	if err != nil {
		return nil, err
	}
	if p == nil && cleanup == nil {
		if cleanup, err = mainElsewhereLaunch(ctx, java.path, cfg.Program, args, cfg.DryRun); err != nil {
			return nil, err
		}
	}
	if _, given := args["cwd"]; !given {
		args["cwd"] = launchCwd(cfg, p)
	}
	lc, err := parseLaunch(args)
	if err != nil {
		if cleanup != nil {
			cleanup()
		}
		return nil, err
	}
	// A class file that cannot be run fails the launch request itself
	// (server.launch), which says so to the agent as the adapter's answer.
	resolveErr := lc.resolveMain()
	command := lc.command()
	origin, _ := args[classPathOriginArg].(string)
	runtime := runtimeLine(java.path, java.origin, a.version(ctx, java.path), lc, p, origin)
	if cfg.DryRun {
		if resolveErr != nil {
			return nil, resolveErr
		}
		return &adapter.Connection{Request: "launch", Arguments: args, AdapterID: adapterID, Command: command, Runtime: runtime}, nil
	}
	conn := a.start("launch", args, command, cfg.Logger)
	conn.Runtime = runtime
	if cleanup != nil {
		stop := conn.Cleanup
		conn.Cleanup = func() {
			stop()
			cleanup()
		}
	}
	return conn, nil
}

// launchCwd is the program's working directory: the agent's, else the
// project's root (where its build runs it), else the program's directory.
func launchCwd(cfg adapter.LaunchConfig, p *project) string {
	switch {
	case cfg.Cwd != "":
		return cfg.Cwd
	case p != nil:
		return p.root
	}
	return filepath.Dir(cfg.Program)
}

// version is java's version, asked once per launcher.
func (a *Adapter) version(ctx context.Context, java string) string {
	if v, ok := a.versions.Load(java); ok {
		return v.(string)
	}
	v := javaVersion(ctx, java)
	a.versions.Store(java, v)
	return v
}

// NamesProgram reports whether a program path that is no file names a
// main class to run ("com.example.App" given as scriptPath).
func (*Adapter) NamesProgram(program string) bool { return namesClass(program) }

// ProgramInLaunchArgs names the main class a launch runs ("mainClass",
// found on "classPaths" or the project's build output), which needs no
// program file.
func (*Adapter) ProgramInLaunchArgs(args map[string]any) string {
	name, _ := args["mainClass"].(string)
	return name
}

// Attach serves DAP in process; the attach request connects to host:port.
func (a *Adapter) Attach(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	host := cfg.Host
	if host == "" {
		host = "127.0.0.1"
	}
	args := map[string]any{"hostName": host, "port": cfg.Port, "stopOnEntry": cfg.StopOnEntry}
	// The JVM knows classes, not the program's paths: its sources are
	// found by class name under local roots, so each mapping's localRoot
	// is one (Connection.MapsPaths).
	sourcePaths := slices.Clone(cfg.SourcePaths)
	for _, m := range cfg.PathMappings {
		sourcePaths = append(sourcePaths, m.LocalRoot)
	}
	if len(sourcePaths) > 0 {
		args["sourcePaths"] = sourcePaths
	}
	maps.Copy(args, cfg.Extra)
	if p, _ := args["port"].(int); p == 0 {
		if f, _ := args["port"].(float64); f == 0 {
			return nil, &adapter.UnavailableError{Language: languageID, Reason: "attach needs the port the JVM's JDWP agent listens on (start it with -agentlib:jdwp=transport=dt_socket,server=y,address=PORT)"}
		}
	}
	return a.start("attach", args, []string{"(in-process JDWP client)", net.JoinHostPort(host, "PORT")}, cfg.Logger), nil
}

// start serves DAP on one end of a pipe and returns the other; the
// Connection's Cleanup waits for the server, which ends everything it
// started (the JVM, its output readers) before returning.
func (a *Adapter) start(request string, args map[string]any, command []string, log *slog.Logger) *adapter.Connection {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return dapserver.StartOnPipe(adapter.Connection{
		Request:   request,
		Arguments: args,
		AdapterID: adapterID,
		Quirks:    quirks(),
		Command:   command,
		// The adapter runs here and speaks the agent's paths.
		MapsPaths: true,
	}, func(end io.ReadWriteCloser) { newServer(end, log).serve(context.Background()) })
}

// ServeDAP serves one DAP client until it disconnects or ctx ends.
func (a *Adapter) ServeDAP(ctx context.Context, conn io.ReadWriteCloser, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	newServer(conn, log).serve(ctx)
	return ctx.Err()
}

// jdkPrefixes are the packages of the JDK itself: steps into them are
// skipped and their frames are internals.
var jdkPrefixes = []string{"java.", "javax.", "jdk.", "sun.", "com.sun."}

func isJDKClass(name string) bool {
	for _, p := range jdkPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
