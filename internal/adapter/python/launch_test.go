package python

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

func TestRegistered(t *testing.T) {
	for _, id := range []string{"python", "py", "python3", "Python"} {
		a, ok := adapter.Lookup(id)
		if !ok {
			t.Fatalf("Lookup(%q) found nothing", id)
		}
		lang := a.Language()
		if lang.ID != "python" || lang.DisplayName != "Python" || !lang.RequiresExecutable ||
			lang.DefaultExecutable != "python3" || !strings.Contains(lang.Description, "debugpy") {
			t.Fatalf("Language() = %+v", lang)
		}
	}
}

func TestCheck(t *testing.T) {
	host := requireDebugpy(t)
	a := New()
	ctx := context.Background()
	av := a.Check(ctx)
	if !av.Installed || av.Version != host.Debugpy || av.Path == "" || !av.Launch.Available || !av.Attach.Available {
		t.Fatalf("Check() = %+v", av)
	}
	probes := a.finder.probes.Load()
	if again := a.Check(ctx); again.Path != av.Path {
		t.Fatalf("second Check() = %+v", again)
	}
	if n := a.finder.probes.Load(); n != probes {
		t.Fatalf("second Check() ran %d probes; want them cached", n-probes)
	}
}

// TestLaunchBreakpoint: a breakpoint in weigh stops with the right locals,
// evaluate gives plain values, both output streams arrive as events, and
// the program runs to its end with exit code 0.
func TestLaunchBreakpoint(t *testing.T) {
	requireDebugpy(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	loop := fixture(t, "loop.py")
	s, _ := launchSession(t, New(), adapter.LaunchConfig{Program: loop})
	if cwd := s.conn.Arguments["cwd"]; cwd != filepath.Dir(loop) {
		t.Errorf("cwd = %v, want the program's directory", cwd)
	}
	s.start(ctx, map[string][]int{loop: {6}}, nil)

	st := s.waitStopped(ctx)
	if st.Reason != "breakpoint" {
		t.Fatalf("stopped reason %q", st.Reason)
	}
	frames := s.stack(ctx, st.ThreadID)
	top := frames[0]
	if top.Name != "weigh" || top.Line != 6 || top.Source.Path != loop {
		t.Fatalf("top frame %+v", top)
	}
	for _, f := range frames {
		if f.Source.Path != loop {
			t.Errorf("frame outside the program with justMyCode: %+v", f)
		}
	}
	if l := s.locals(ctx, top.ID); l["item"] != "0" || l["factor"] != "3" {
		t.Fatalf("locals %v", l)
	}
	if v := s.evaluate(ctx, top.ID, "item * factor"); v != "0" {
		t.Fatalf("item * factor = %q", v)
	}
	// The context the quirks name gives a plain value even for None.
	if v := s.evaluate(ctx, top.ID, "None"); v != "None" {
		t.Fatalf("None evaluates to %q", v)
	}
	s.waitOutput(ctx, "stdout", "weighing 0\n")
	s.waitOutput(ctx, "stderr", "stderr 0\n")

	s.call(ctx, "continue", map[string]any{"threadId": st.ThreadID}, nil)
	st = s.waitStopped(ctx)
	top = s.stack(ctx, st.ThreadID)[0]
	if v := s.evaluate(ctx, top.ID, "item * factor"); v != "3" {
		t.Fatalf("second hit: item * factor = %q", v)
	}

	s.call(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": loop}, "breakpoints": []any{}}, nil)
	s.call(ctx, "continue", map[string]any{"threadId": st.ThreadID}, nil)
	ev := s.wait(ctx, "exited", nil)
	var exited struct {
		ExitCode int `json:"exitCode"`
	}
	if err := json.Unmarshal(ev.Body, &exited); err != nil || exited.ExitCode != 0 {
		t.Fatalf("exited %s: %v", ev.Body, err)
	}
	s.wait(ctx, "terminated", nil)
	s.waitOutput(ctx, "stdout", "total 30\n")
}

func TestUncaughtException(t *testing.T) {
	requireDebugpy(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	prog := fixture(t, "exception.py")
	s, _ := launchSession(t, New(), adapter.LaunchConfig{Program: prog})
	s.start(ctx, nil, []string{"uncaught"})
	st := s.waitStopped(ctx)
	if st.Reason != "exception" {
		t.Fatalf("stopped reason %q", st.Reason)
	}
	var info struct {
		ExceptionID string `json:"exceptionId"`
		Description string `json:"description"`
	}
	s.call(ctx, "exceptionInfo", map[string]any{"threadId": st.ThreadID}, &info)
	if !strings.Contains(info.ExceptionID, "ValueError") || !strings.Contains(info.Description, "negative value: -1") {
		t.Fatalf("exceptionInfo %+v", info)
	}
	if top := s.stack(ctx, st.ThreadID)[0]; top.Name != "check" || top.Line != 6 {
		t.Fatalf("top frame %+v", top)
	}
}

func TestPause(t *testing.T) {
	requireDebugpy(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	s, _ := launchSession(t, New(), adapter.LaunchConfig{Program: fixture(t, "busy.py")})
	s.start(ctx, nil, nil)
	var threads struct {
		Threads []struct {
			ID int `json:"id"`
		} `json:"threads"`
	}
	s.call(ctx, "threads", nil, &threads)
	if len(threads.Threads) == 0 {
		t.Fatal("no threads")
	}
	s.waitOutput(ctx, "stdout", "busy\n") // running its loop, not about to start
	s.call(ctx, "pause", map[string]any{"threadId": threads.Threads[0].ID}, nil)
	if st := s.waitStopped(ctx); st.Reason != "pause" {
		t.Fatalf("stopped reason %q", st.Reason)
	}
	frames := s.stack(ctx, threads.Threads[0].ID)
	if frames[0].Line < 4 {
		t.Errorf("paused at %+v, want in the loop", frames[0])
	}
	if v := s.evaluate(ctx, frames[0].ID, "counter > 0"); v != "True" {
		t.Fatalf("counter > 0 = %q", v)
	}
}

// TestCleanupLeavesNothing: Cleanup ends the adapter, the launcher and the
// program (which debugpy puts in a process group of its own) while the
// program is stopped at a breakpoint, even a program that ignores SIGTERM.
func TestCleanupLeavesNothing(t *testing.T) {
	requireDebugpy(t)
	for _, tc := range []struct {
		file string
		line int
	}{{"loop.py", 6}, {"stubborn.py", 8}} {
		t.Run(tc.file, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			prog := fixture(t, tc.file)
			s, p := launchSession(t, New(), adapter.LaunchConfig{Program: prog})
			s.start(ctx, map[string][]int{prog: {tc.line}}, nil)
			s.waitStopped(ctx)
			debuggee := s.debuggeePid(ctx)
			pids := append(proc.Descendants(p.Pid()), p.Pid())
			if !slices.Contains(pids, debuggee) || len(pids) < 3 {
				t.Fatalf("adapter %d's tree %v should hold the launcher and the debuggee %d", p.Pid(), pids, debuggee)
			}
			cmdlines := map[int]string{}
			for _, pid := range pids {
				b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
				cmdlines[pid] = strings.ReplaceAll(string(b), "\x00", " ")
			}
			s.close()
			for _, pid := range pids {
				if proc.Alive(pid) {
					t.Errorf("process %d still alive after Cleanup: %.200s", pid, cmdlines[pid])
				}
			}
		})
	}
}

// TestForeignInterpreter: a program whose interpreter (pyenv's python3
// here) cannot import debugpy runs under it, debugged through another
// interpreter's debugpy.
func TestForeignInterpreter(t *testing.T) {
	foreign := interpreterWithoutDebugpy(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	loop := fixture(t, "loop.py")
	s, _ := launchSession(t, New(), adapter.LaunchConfig{Program: loop, ExecutablePath: foreign.Path})
	py, _ := stringList(s.conn.Arguments["python"])
	if len(py) == 0 || py[0] != foreign.Path {
		t.Fatalf("python = %v, want %s first", s.conn.Arguments["python"], foreign.Path)
	}
	env := s.conn.Arguments["env"].(map[string]any)
	links := filepath.SplitList(env["PYTHONPATH"].(string))
	linkDir := links[len(links)-1]
	entries, err := os.ReadDir(linkDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Contains(names, "debugpy") {
		t.Fatalf("import directory holds %v", names)
	}
	t.Logf("borrowed: %v", names)

	s.start(ctx, map[string][]int{loop: {6}}, nil)
	st := s.waitStopped(ctx)
	top := s.stack(ctx, st.ThreadID)[0]
	if v := s.evaluate(ctx, top.ID, "__import__('sys').executable"); v != quote(foreign.Executable) && v != "'"+foreign.Executable+"'" {
		t.Fatalf("sys.executable = %s, want %s", v, foreign.Executable)
	}
	if v := s.evaluate(ctx, top.ID, "'%d.%d' % __import__('sys').version_info[:2]"); v != "'"+strings.Join(strings.Split(foreign.Version, ".")[:2], ".")+"'" {
		t.Fatalf("version = %s, want %s", v, foreign.Version)
	}
	if v := s.evaluate(ctx, top.ID, "item * factor"); v != "0" {
		t.Fatalf("item * factor = %q", v)
	}
	if v := s.evaluate(ctx, top.ID, pydevdNoDelay); v == "0" {
		t.Errorf("debugpy's socket in the foreign interpreter lacks TCP_NODELAY")
	}
	s.close()
	if _, err := os.Stat(linkDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("import directory %s left behind: %v", linkDir, err)
	}
}

// TestUnavailable: with only interpreters that lack debugpy in sight, the
// error names each of them and the install command.
func TestUnavailable(t *testing.T) {
	foreign := interpreterWithoutDebugpy(t)
	bin := t.TempDir()
	if err := os.Symlink(foreign.Executable, filepath.Join(bin, "python3")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv(pythonPathEnv, "")
	a := New()
	a.finder.system = func() []string { return nil }
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()

	_, err := a.Launch(ctx, adapter.LaunchConfig{Program: fixture(t, "loop.py")})
	var ue *adapter.UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("Launch error %v (%T), want *adapter.UnavailableError", err, err)
	}
	msg := err.Error()
	for _, want := range []string{filepath.Join(bin, "python3"), foreign.Version, "debugpy", "apt-get install -y python3-debugpy", "-m pip install debugpy"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if av := a.Check(ctx); av.Installed || av.Launch.Available || !strings.Contains(av.InstallHint, "python3-debugpy") || av.Reason == "" {
		t.Errorf("Check() = %+v", av)
	}

	t.Setenv("PATH", t.TempDir())
	_, err = a.Launch(ctx, adapter.LaunchConfig{Program: fixture(t, "loop.py")})
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "no Python interpreter found") {
		t.Fatalf("Launch without any interpreter: %v", err)
	}

	t.Setenv(pythonPathEnv, filepath.Join(bin, "missing"))
	_, err = a.Launch(ctx, adapter.LaunchConfig{Program: fixture(t, "loop.py")})
	if err == nil || !strings.Contains(err.Error(), "PYTHON_PATH") {
		t.Fatalf("Launch with a missing PYTHON_PATH: %v", err)
	}
}

// TestProbeCacheNoticesInstall: a cached "no debugpy" answer is dropped
// once a directory on the interpreter's import path changes.
func TestProbeCacheNoticesInstall(t *testing.T) {
	foreign := interpreterWithoutDebugpy(t)
	site := t.TempDir()
	s := search{env: map[string]string{"PYTHONPATH": site}}
	f := newFinder()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	info, err := f.probe(ctx, foreign.Executable, s)
	if err != nil || info.hasDebugpy() {
		t.Fatalf("probe: %+v, %v", info, err)
	}
	if info, _ = f.probe(ctx, foreign.Executable, s); f.probes.Load() != 1 || info.hasDebugpy() {
		t.Fatalf("second probe ran again (%d) or changed: %+v", f.probes.Load(), info)
	}
	pkg := filepath.Join(site, "debugpy")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), []byte("__version__ = '9.9.9'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err = f.probe(ctx, foreign.Executable, s)
	if err != nil || info.Debugpy != "9.9.9" || info.DebugpyDir != pkg {
		t.Fatalf("probe after install: %+v, %v", info, err)
	}
}

func TestLaunchArguments(t *testing.T) {
	cfg := adapter.LaunchConfig{
		Program: "/p/prog.py", Args: []string{"a"}, StopOnEntry: true,
		Extra: map[string]any{"justMyCode": false, "subProcess": false},
	}
	args := launchArguments(cfg, "/p", map[string]any{"K": "V"})
	want := map[string]any{
		"type": "python", "request": "launch", "program": "/p/prog.py", "cwd": "/p",
		"stopOnEntry": true, "console": "internalConsole", "redirectOutput": true,
		"justMyCode": false, "showReturnValue": true, "subProcess": false,
	}
	for k, v := range want {
		if args[k] != v {
			t.Errorf("%s = %v, want %v", k, args[k], v)
		}
	}
	if a := launchArguments(adapter.LaunchConfig{Program: "/p/x.py"}, "/p", nil)["args"]; a == nil {
		t.Error("args must be a list, not null")
	}
	env := launchEnv(adapter.LaunchConfig{
		Env:   map[string]string{"A": "1", "B": "2"},
		Extra: map[string]any{"env": map[string]any{"B": "3", "C": nil}},
	})
	appendPythonPath(env, "/links")
	if env["A"] != "1" || env["B"] != "3" || env["C"] != nil || len(env) != 4 {
		t.Errorf("merged env %v", env)
	}
	if pp, _ := env["PYTHONPATH"].(string); !strings.HasSuffix(pp, "/links") {
		t.Errorf("PYTHONPATH %q", pp)
	}

	py311 := &interpreter{Path: "/py", Major: 3, Minor: 11}
	py310 := &interpreter{Path: "/py", Major: 3, Minor: 10}
	for _, tc := range []struct {
		prog *interpreter
		shim string
		args []string
		want []string
	}{
		{py311, "", nil, []string{"/py"}},
		{py311, "/s.py", nil, []string{"/py", "-X", "frozen_modules=off", "/s.py"}},
		{py310, "/s.py", nil, []string{"/py", "/s.py"}},
		{py311, "/s.py", []string{"-u"}, []string{"/py", "-u", "-X", "frozen_modules=off", "/s.py"}},
	} {
		if got := debuggeePython(tc.prog, tc.shim, tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("debuggeePython(%d.%d, %q, %q) = %q, want %q", tc.prog.Major, tc.prog.Minor, tc.shim, tc.args, got, tc.want)
		}
	}
}

// TestPythonArgsBeforeShim: the agent's pythonArgs reach the interpreter,
// not the shim.
func TestPythonArgsBeforeShim(t *testing.T) {
	requireDebugpy(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	loop := fixture(t, "loop.py")
	s, _ := launchSession(t, New(), adapter.LaunchConfig{Program: loop, Extra: map[string]any{"pythonArgs": []any{"-O"}}})
	if _, ok := s.conn.Arguments["pythonArgs"]; ok {
		t.Fatalf("pythonArgs left in the request: %v", s.conn.Arguments)
	}
	s.start(ctx, map[string][]int{loop: {6}}, nil)
	st := s.waitStopped(ctx)
	if v := s.evaluate(ctx, s.stack(ctx, st.ThreadID)[0].ID, "__import__('sys').flags.optimize"); v != "1" {
		t.Fatalf("sys.flags.optimize = %s, want 1", v)
	}
}

// TestStopOnEntry: the entry stop is on the program's first line, not in
// the shim that started it.
func TestStopOnEntry(t *testing.T) {
	host := requireDebugpy(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	loop := fixture(t, "loop.py")
	s, _ := launchSession(t, New(), adapter.LaunchConfig{Program: loop, ExecutablePath: host.Path, StopOnEntry: true})
	s.start(ctx, nil, nil)
	st := s.waitStopped(ctx)
	if st.Reason != "entry" {
		t.Fatalf("stopped reason %q", st.Reason)
	}
	frames := s.stack(ctx, st.ThreadID)
	if len(frames) != 1 || frames[0].Source.Path != loop || frames[0].Line > 2 {
		t.Fatalf("frames %+v, want loop.py's first line alone", frames)
	}
}
