package python

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// minMajor and minMinor: debugpy 1.6 asserts Python 3.7 on import; saying
// so up front beats the launcher's traceback and the adapter's timeout.
const minMajor, minMinor = 3, 7

// Launch starts debugpy's adapter for a program to be launched.
func (a *Adapter) Launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, error) {
	conn, _, err := a.launch(ctx, cfg)
	return conn, err
}

// launch is Launch, also returning the adapter process for tests.
func (a *Adapter) launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, *proc.Process, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cwd := cfg.Cwd
	if cwd == "" {
		// A module launch (no program) runs where the server runs, as
		// python -m does in a shell.
		cwd, _ = filepath.Abs(filepath.Dir(cfg.Program))
	}
	s := search{explicit: cfg.ExecutablePath, script: cfg.Program, dir: cwd, env: cfg.Env}

	cands := a.finder.preferred(ctx, s)
	prog, err := a.finder.program(ctx, s, cands)
	if err != nil {
		return nil, nil, err
	}
	if prog == nil {
		return nil, nil, unavailableError(nil)
	}
	if !prog.atLeast(minMajor, minMinor) {
		return nil, nil, fmt.Errorf("%s is Python %s; debugpy needs Python %d.%d or later (choose another interpreter with executablePath or PYTHON_PATH)",
			prog.Path, prog.Version, minMajor, minMinor)
	}
	if cfg.ExecutableReason != "" {
		prog.origin = cfg.ExecutableReason
	}
	host := prog.interpreter
	if !prog.hasDebugpy() {
		var all []tried
		host, all = a.finder.findDebugpyAmong(ctx, s, cands, true)
		if host == nil {
			return nil, nil, unavailableError(all)
		}
	}

	var cleanups []func()
	cleanup := func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	ok := false
	defer func() {
		if !ok {
			cleanup()
		}
	}()

	nodelay := noDelayEnabled()
	_, userPython := cfg.Extra["python"]
	if _, legacy := cfg.Extra["pythonPath"]; legacy {
		userPython = true
	}
	// The program's standard input is set up by the debuggee shim (see
	// stdinEnv), which runs it: it is needed then whatever nodelay says.
	if cfg.StdinFile != "" && userPython {
		return nil, nil, errors.New("the program's standard input (stdin, stdinFile) cannot be given with dapLaunchArgs.python: leave python out, or pass executablePath for the interpreter")
	}
	shimmed := (nodelay || cfg.StdinFile != "") && !userPython
	var scripts string
	if shimmed || !prog.hasDebugpy() || runsPytest(cfg) {
		scripts, err = scriptsDir(&cleanups)
		if err != nil {
			return nil, nil, err
		}
	}

	env := launchEnv(cfg)
	if cfg.StdinFile != "" {
		env[stdinEnv] = cfg.StdinFile
	}
	if runsPytest(cfg) {
		cfg = withPytestPlugin(cfg, env, scripts)
	}
	if !prog.hasDebugpy() {
		modules, err := a.finder.borrowedModules(ctx, prog.interpreter, host, s, scripts)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, err
			}
			return nil, nil, &adapter.UnavailableError{
				Language:    languageID,
				Reason:      err.Error(),
				InstallHint: prog.Path + " -m pip install debugpy",
			}
		}
		dir, err := linkDir(host.DebugpyDir, modules)
		if err != nil {
			return nil, nil, err
		}
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		appendPythonPath(env, dir)
	}

	args := launchArguments(cfg, cwd, env)
	if !userPython {
		shim := ""
		if shimmed {
			shim = filepath.Join(scripts, debuggeeShimName)
		}
		pythonArgs, _ := stringList(cfg.Extra["pythonArgs"])
		if shim != "" && len(pythonArgs) > 0 {
			// debugpy appends pythonArgs to "python", after the shim.
			delete(args, "pythonArgs")
		} else {
			pythonArgs = nil
		}
		args["python"] = debuggeePython(prog.interpreter, shim, pythonArgs)
		if _, set := cfg.Extra["debugLauncherPython"]; !set && prog.Executable != prog.Path && isScript(prog.Path) {
			// The launcher is debugpy's, not the user's: run it without a
			// pyenv shim's ~75 ms. The program still runs through the shim.
			args["debugLauncherPython"] = prog.Executable
		}
	}

	runtime := runtimeLine(prog, cwd)
	if userPython {
		runtime = fmt.Sprintf("python: %v (dapLaunchArgs python)", args["python"])
	}
	cmd := exec.Command(host.Executable, adapterArgs(nodelay)...)
	cmd.Dir = cwd
	cmd.Env = s.environ()
	if cfg.DryRun {
		return &adapter.Connection{Request: "launch", Arguments: args, AdapterID: adapterID, Command: cmd.Args, Runtime: runtime}, nil, nil
	}
	transport, p, err := adapter.StartStdio(cmd, log)
	if err != nil {
		return nil, nil, fmt.Errorf("start debugpy adapter with %s: %w", host.Path, err)
	}
	cleanups = append(cleanups, p.Kill)
	log.Debug("debugpy adapter started", "python", host.Executable, "debugpy", host.Debugpy,
		"program_python", prog.Path, "nodelay", nodelay, "pid", p.Pid())
	ok = true
	return &adapter.Connection{
		Transport: transport,
		Request:   "launch",
		Arguments: args,
		AdapterID: adapterID,
		Quirks:    quirks(),
		Event:     childReleaser(log),
		Events:    []string{debugpyAttachEvent},
		Command:   cmd.Args,
		Runtime:   runtime,
		Cleanup:   cleanup,
	}, p, nil
}

// runtimeLine says which interpreter runs the program and why: one line,
// as every adapter's ("python: .venv/bin/python (project venv, Python 3.12.1)").
func runtimeLine(prog *chosen, cwd string) string {
	name := shortPath(prog.Path, cwd)
	if prog.Executable != prog.Path && isScript(prog.Path) {
		// A pyenv shim: the interpreter it chose is the one that runs.
		name = prog.Executable
	}
	if strings.HasSuffix(prog.origin, "on PATH") {
		// The interpreter any shell here would run: its version says it;
		// list_supported_languages names its path.
		return fmt.Sprintf("Python %s (%s)", prog.Version, prog.origin)
	}
	return fmt.Sprintf("python: %s (%s, Python %s)", name, prog.origin, prog.Version)
}

// shortPath is path relative to dir when it lies below dir.
func shortPath(path, dir string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return path
}

// launchEnv is the launch request's "env": cfg.Env, with the agent's
// dapLaunchArgs "env" merged over it key by key rather than replacing it,
// so that what the launch adds (PYTHONPATH, see importpath.go) survives. A
// null value unsets an inherited variable, as debugpy defines.
func launchEnv(cfg adapter.LaunchConfig) map[string]any {
	env := make(map[string]any, len(cfg.Env))
	for k, v := range cfg.Env {
		env[k] = v
	}
	switch extra := cfg.Extra["env"].(type) {
	case map[string]any:
		maps.Copy(env, extra)
	case map[string]string:
		for k, v := range extra {
			env[k] = v
		}
	}
	return env
}

// launchArguments are debugpy's launch arguments, the agent's
// dapLaunchArgs (cfg.Extra) overriding ours, except "env", which the
// caller has merged (launchEnv).
func launchArguments(cfg adapter.LaunchConfig, cwd string, env map[string]any) map[string]any {
	progArgs := cfg.Args
	if progArgs == nil {
		progArgs = []string{}
	}
	args := map[string]any{
		"type":        "python",
		"request":     "launch",
		"program":     cfg.Program,
		"args":        progArgs,
		"cwd":         cwd,
		"env":         env,
		"stopOnEntry": cfg.StopOnEntry,
		// Program output comes back as DAP output events only with the
		// internal console and redirection.
		"console":         "internalConsole",
		"redirectOutput":  true,
		"justMyCode":      true,
		"showReturnValue": true,
		// debugpy's subProcess (on by default) holds every child process
		// until a client attaches to it; children run undebugged unless
		// the agent asks for them (see children.go).
		"subProcess": false,
	}
	maps.Copy(args, cfg.Extra)
	if _, module := cfg.Extra["module"]; module {
		// A module launch (python -m pytest) names no program.
		delete(args, "program")
	}
	args["env"] = env
	return args
}

// stringList reads a JSON-decoded list of strings.
func stringList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// scriptsDir installs the script files in the user's cache directory, or,
// when that cannot be written, in a temporary directory removed on cleanup.
func scriptsDir(cleanups *[]func()) (string, error) {
	if root, err := scriptsRoot(); err == nil {
		if dir, err := installScripts(root); err == nil {
			return dir, nil
		}
	}
	tmp, err := proc.MkdirTemp("scripts")
	if err != nil {
		return "", fmt.Errorf("debugpy scripts: %w", err)
	}
	*cleanups = append(*cleanups, func() { os.RemoveAll(tmp) })
	return installScripts(tmp)
}
