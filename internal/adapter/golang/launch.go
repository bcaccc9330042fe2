package golang

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

const (
	// launchTimeout bounds the handshake: Delve answers launch only after
	// `go build`, which takes seconds on a cold build cache (minutes for a
	// big module): docs/adapter-quirks.md, delve-3.
	launchTimeout = 3 * time.Minute
	// Delve's launch modes.
	modeDebug = "debug"
	modeTest  = "test"
	modeExec  = "exec"
)

// Launch starts a dlv for the program, in its module directory.
func (a *Adapter) Launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	found, err := a.finder.find(ctx, cfg.ExecutablePath)
	if err != nil {
		return nil, unavailable(err)
	}
	mode, program, err := modeOf(cfg.Program)
	if err != nil {
		return nil, err
	}
	if cfg.StdinFile != "" && !readsStdinFrom(found.version) {
		return nil, fmt.Errorf("this Delve (%s) cannot give the program its standard input: its launch takes stdinFrom from 1.26.0 on; upgrade it: %s", found.version, installHint)
	}
	dir := moduleDir(program)

	// The binary goes to a directory of ours, not Delve's default
	// __debug_bin* in the user's tree (left behind when dlv is killed).
	var tmp string
	if cfg.DryRun {
		tmp = filepath.Join(os.TempDir(), "mcp-debugger-go-"+randomSuffix())
	} else if tmp, err = proc.MkdirTemp("go"); err != nil {
		return nil, fmt.Errorf("temporary directory for the Go build: %w", err)
	}
	output := filepath.Join(tmp, "debug.bin")
	binary := output
	if mode == modeExec {
		binary = program
	}
	args := launchArguments(cfg, mode, program, output)
	if cfg.StdinFile != "" {
		args["stdinFrom"] = cfg.StdinFile
	}
	command := dapCommand(found.path)
	runtime := runtimeOf(ctx, mode, program, dir)
	if cfg.DryRun {
		return &adapter.Connection{Request: "launch", Arguments: args, AdapterID: adapterID, Command: command, Runtime: runtime}, nil
	}
	srv, err := startDAPServer(ctx, command, dir, log)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	q := quirks(functionNamer(mode, program))
	launchMode, _ := args["mode"].(string)
	launched, _ := args["program"].(string)
	q.IsNoise = withoutBuildLine(q.IsNoise, launchMode, launched)
	return &adapter.Connection{
		Transport:     srv.transport(found.version),
		Request:       "launch",
		Arguments:     args,
		AdapterID:     adapterID,
		LaunchTimeout: launchTimeout,
		Quirks:        q,
		Command:       command,
		Runtime:       runtime,
		Output:        srv.output(),
		// Delve sends no process event: its debuggee is the child running
		// the binary it built (or was given).
		DebuggeePid: func() int { return proc.DescendantRunning(srv.p.Pid(), binary) },
		Cleanup: func() {
			srv.close()
			os.RemoveAll(tmp)
		},
	}, nil
}

// runtimeOf names what runs the program: a binary given as it is, else
// the module (and workspace) Go builds it in.
func runtimeOf(ctx context.Context, mode, program, dir string) string {
	if mode == modeExec {
		return "go: the binary " + program + " as it is (not built by us)"
	}
	return runtimeLine(ctx, dir)
}

// modeOf decides Delve's mode from the path the agent gave: a package
// directory or a .go file is built and debugged, a _test.go file means the
// tests of its package, anything else executable is run as it is. A .go
// file of a package is built with the rest of its package.
func modeOf(path string) (mode, program string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", "", fmt.Errorf("go program %s: %w", path, err)
	}
	switch {
	case st.IsDir():
		return modeDebug, path, nil
	case strings.HasSuffix(path, "_test.go"):
		return modeTest, filepath.Dir(path), nil
	case strings.HasSuffix(path, ".go"):
		return modeDebug, buildTarget(path), nil
	case st.Mode()&0o111 != 0:
		return modeExec, path, nil
	}
	return "", "", fmt.Errorf("%s is neither a Go package directory, a .go file nor an executable", path)
}

// moduleDir is the directory of the go.mod that governs path, where dlv
// must run for `go build` to see the module; the package's own directory
// when there is none (GOPATH mode, a lone file).
func moduleDir(path string) string {
	dir := path
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		dir = filepath.Dir(path)
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// packageDir is the directory of the package a program path names.
func packageDir(program string) string {
	if st, err := os.Stat(program); err == nil && st.IsDir() {
		return program
	}
	return filepath.Dir(program)
}

// launchArguments are Delve's launch arguments; the agent's dapLaunchArgs
// (cfg.Extra) override any of them, mode included. A test-mode "program"
// given as a _test.go file is turned into its package when mode comes
// from dapLaunchArgs.
// docs/adapter-quirks.md: delve-4.
func launchArguments(cfg adapter.LaunchConfig, mode, program, output string) map[string]any {
	progArgs := cfg.Args
	if progArgs == nil {
		progArgs = []string{}
	}
	cwd := cfg.Cwd
	if cwd == "" {
		cwd = packageDir(program)
	}
	env := map[string]any{}
	for k, v := range cfg.Env {
		env[k] = v
	}
	args := map[string]any{
		"type":        "go",
		"request":     "launch",
		"mode":        mode,
		"program":     program,
		"args":        progArgs,
		"cwd":         cwd,
		"env":         env,
		"stopOnEntry": cfg.StopOnEntry,
		// Without it the program's stdout and stderr go to dlv's own and
		// never reach the client as output events.
		"outputMode": "remote",
	}
	if mode != modeExec {
		args["output"] = output
	}
	maps.Copy(args, cfg.Extra)
	if m, _ := args["mode"].(string); m == modeTest {
		if p, _ := args["program"].(string); strings.HasSuffix(p, "_test.go") {
			args["program"] = filepath.Dir(p)
		}
	}
	if m, _ := args["mode"].(string); m != modeExec {
		if _, set := args["output"]; !set {
			args["output"] = output
		}
	}
	return args
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// readsStdinFrom says whether the Delve that reports version v takes the
// launch argument stdinFrom, the program's standard input (added in
// v1.26.0; an older one ignores it and the program reads nothing). An
// unreadable version is given the benefit of the doubt.
// docs/adapter-quirks.md: delve-25.
func readsStdinFrom(v string) bool {
	r, ok := adapter.ParseRelease(v)
	return !ok || r.AtLeast(1, 26)
}
