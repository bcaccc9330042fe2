package lldb

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// launchTimeout bounds the handshake after the build: liblldb loads the
// binary's and libc's symbols (~0.4 s here), more for a big binary.
const launchTimeout = 2 * time.Minute

// Launch builds the program when given source, then starts lldb-dap for it.
func (a *Adapter) Launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, error) {
	found, err := a.finder.find(ctx, cfg.ExecutablePath)
	if err != nil {
		return nil, a.unavailable(err)
	}
	t, err := classify(cfg.Program)
	if err != nil {
		return nil, err
	}
	program, runtime, err := a.program(ctx, t, cfg.DryRun)
	if err != nil {
		return nil, err
	}
	var initCommands []string
	isRust := a.lang.ID == langRust || t.kind == kindCargo
	if isRust {
		initCommands = rustFormatters(ctx, filepath.Dir(program), t)
	}
	panics := isRust && cfg.BreakOnExceptions != "none"
	args := launchArguments(cfg, program, initCommands, panics)
	command := []string{found.path}
	if cfg.DryRun {
		return &adapter.Connection{Request: "launch", Arguments: args, AdapterID: adapterID, Command: command, Runtime: runtime}, nil
	}
	conn, err := start(command, "launch", args, cfg.Logger, launchTimeout, panics)
	if err != nil {
		return nil, err
	}
	conn.Runtime = runtime
	return conn, nil
}

// program returns the binary to debug, building it first when t is
// source, and the runtime line that says so. A dry run only names the
// binary a build would produce.
func (a *Adapter) program(ctx context.Context, t target, dryRun bool) (bin, runtime string, err error) {
	switch t.kind {
	case kindBinary:
		return t.path, fmt.Sprintf("%s: the binary %s as given", a.lang.ID, t.path), nil
	case kindC, kindCPP:
		m := a.finder.machine
		root, err := cacheRoot()
		if err != nil {
			return "", "", err
		}
		compiler := compilerFor(m, t.kind)
		runtime := fmt.Sprintf("%s: %s %s %s (a lone file, built by mcp-debugger)", a.lang.ID, compiler, strings.Join(compileFlags, " "), t.path)
		if dryRun {
			bin, err := compiledPath(m.OS, root, compiler, t.path)
			return bin, runtime, err
		}
		bin, _, err := compile(ctx, m.OS, root, compiler, t.path)
		return bin, runtime, withProjectHint(err, t.path)
	case kindCargo:
		if dryRun {
			bin, err := guessCargoBinary(t.path)
			return bin, "rust: cargo project " + t.path + " (dry run: not built)", err
		}
		return cargoBinary(ctx, t)
	}
	return "", "", fmt.Errorf("unknown program kind %q", t.kind)
}

// start runs lldb-dap on stdio.
func start(command []string, request string, args map[string]any, log *slog.Logger, timeout time.Duration, panics bool) (*adapter.Connection, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// .lldbinit files could print, stop or reconfigure behind our back.
	cmd := exec.Command(command[0], append(command[1:], "--no-lldbinit")...)
	transport, p, err := adapter.StartStdio(cmd, log)
	if err != nil {
		return nil, err
	}
	return &adapter.Connection{
		Transport:     transport,
		Request:       request,
		Arguments:     args,
		AdapterID:     adapterID,
		LaunchTimeout: timeout,
		Quirks:        quirks(panics, stopOnEntry(args)),
		Command:       cmd.Args,
		// Killing lldb-dap's process group also ends a launched program,
		// which lldb-dap starts as its own child.
		Cleanup: p.Kill,
	}, nil
}

// stopOnEntry reports whether launch or attach arguments (the agent's
// dapLaunchArgs included) ask to stop on entry.
func stopOnEntry(args map[string]any) bool {
	entry, _ := args["stopOnEntry"].(bool)
	return entry
}

// launchArguments are lldb-dap's launch arguments; the agent's
// dapLaunchArgs (cfg.Extra) override any of them, except that with panics
// the Rust panic breakpoint stays first among the preRunCommands (its id
// must be 1, see panicCommand).
func launchArguments(cfg adapter.LaunchConfig, program string, initCommands []string, panics bool) map[string]any {
	progArgs := cfg.Args
	if progArgs == nil {
		progArgs = []string{}
	}
	cwd := cfg.Cwd
	if cwd == "" {
		cwd = filepath.Dir(program)
	}
	// A list of "K=V" is what every lldb-dap (and lldb-vscode) accepts; the
	// object form came later.
	env := make([]string, 0, len(cfg.Env))
	for k, v := range cfg.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	args := map[string]any{
		"type":        "lldb-dap",
		"request":     "launch",
		"name":        filepath.Base(program),
		"program":     program,
		"args":        progArgs,
		"cwd":         cwd,
		"env":         env,
		"stopOnEntry": cfg.StopOnEntry,
	}
	// The program's standard input: lldb's own setting, which every
	// lldb-dap launch honours (the "stdio" launch argument came later).
	// Without one the program reads end of file, as in every other
	// language, rather than wait forever on a terminal nobody types in.
	// docs/adapter-quirks.md: lldb-28.
	stdin := cfg.StdinFile
	if stdin == "" {
		stdin = os.DevNull
	}
	initCommands = append(initCommands, inputPathCommand+lldbQuote(stdin))
	if len(initCommands) > 0 {
		args["initCommands"] = initCommands
	}
	maps.Copy(args, cfg.Extra)
	if panics {
		withPanicBreakpoint(args)
	}
	return args
}

// withPanicBreakpoint puts panicCommand first among the preRunCommands,
// before any the agent passed, so that its breakpoint gets id 1.
func withPanicBreakpoint(args map[string]any) {
	pre := []any{panicCommand}
	switch theirs := args["preRunCommands"].(type) {
	case []any:
		pre = append(pre, theirs...)
	case []string:
		for _, c := range theirs {
			pre = append(pre, c)
		}
	}
	args["preRunCommands"] = pre
}

// sysroots caches `rustc --print sysroot` per directory: rustup picks the
// toolchain by directory (rust-toolchain.toml, overrides).
var sysroots sync.Map

// rustFormatters are the initCommands that load the toolchain's own lldb
// formatters, without which String and Vec show as raw structs. `-s 1`
// keeps lldb from echoing each of their ~70 commands as console output.
// None when rustc or the files are missing: debugging still works.
// docs/adapter-quirks.md: lldb-8.
func rustFormatters(ctx context.Context, binDir string, t target) []string {
	dir := binDir
	if t.kind == kindCargo {
		dir = t.path
	}
	sysroot, ok := sysroots.Load(dir)
	if !ok {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		out, err := runTool(ctx, dir, "rustc", "--print", "sysroot")
		if err != nil {
			return nil
		}
		sysroot = strings.TrimSpace(out)
		sysroots.Store(dir, sysroot)
	}
	etc := filepath.Join(sysroot.(string), "lib", "rustlib", "etc")
	lookup, commands := filepath.Join(etc, "lldb_lookup.py"), filepath.Join(etc, "lldb_commands")
	if !isFile(lookup) || !isFile(commands) {
		return nil
	}
	return []string{
		"command script import " + quoteArg(lookup),
		"command source -s 1 " + quoteArg(commands),
	}
}

// quoteArg quotes a path for an lldb command line.
func quoteArg(s string) string {
	if !strings.ContainsAny(s, " \t\"'\\") {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// lldbQuote quotes s as one argument of an lldb command: in double
// quotes, where backslash escapes the backslash, the double quote and
// the backquote.
func lldbQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`").Replace(s) + `"`
}

// inputPathCommand sets the file the launched program reads as its
// standard input; its echo is kept from the program's output (isNoise).
const inputPathCommand = "settings set target.input-path "
