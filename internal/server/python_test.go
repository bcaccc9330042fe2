package server

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/python"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests: the MCP tools on real debugpy and real programs
// (testdata/python, whose README lists the lines used here).

func pythonProgram(t *testing.T, name string) string {
	return filepath.Join(repoRoot(t), "testdata", "python", name)
}

func TestPythonBreakpointStepsAndEvaluate(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "loop.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 16})

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	wantStop(t, snap, "breakpoint", 16)
	if l := snap.vars("locals"); l["i"] != "0" || l["total"] != "0" {
		t.Fatalf("locals at the first hit: %v", l)
	}

	in := h.ok("step_into", map[string]any{"sessionId": id})
	if in.obj("location").str("function") != "weigh" {
		t.Fatalf("step_into should enter weigh: %v", in["location"])
	}
	over := h.ok("step_over", map[string]any{"sessionId": id})
	if over.obj("location").str("function") != "weigh" || over.str("stopReason") != "step" {
		t.Errorf("step_over inside weigh: %v", over)
	}
	out := h.ok("step_out", map[string]any{"sessionId": id})
	if out.obj("location").str("function") != "main" {
		t.Errorf("step_out should return to main: %v", out["location"])
	}

	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, next, "breakpoint", 16)
	// Output travels apart from stops in debugpy, so a line may reach a
	// later snapshot than the stop it preceded, but it comes whole.
	seen := snap.outputText("output") + in.outputText("output") + over.outputText("output") + out.outputText("output") + next.outputText("output")
	if !strings.Contains(seen, "weighing 0\n") {
		t.Errorf("snapshots should carry the program's output in whole lines: %q", seen)
	}
	if l := next.localsAfter(snap, out); l["i"] != "1" || l["total"] != "0" || l["label"] != "'item-0'" {
		t.Errorf("locals at the second hit: %v", l)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "i * 10 + total"}); ev.str("result") != "10" || ev.str("type") != "int" {
		t.Errorf("evaluate: %v", ev)
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "no_such_name"}, "no_such_name")
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "1 +"}, "SyntaxError")
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "label"}); ev.str("result") != "'item-0'" {
		t.Errorf("session unusable after bad expressions: %v", ev)
	}
	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id})
	frames := stack.list("stackFrames")
	if len(frames) != 2 || frames[0].str("name") != "main" || frames[1].str("name") != "<module>" {
		t.Errorf("stack (user frames only): %v", frames)
	}
	mod := h.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": frames[1].num("id")})
	if _, ok := mod.vars("variables")["weigh"]; ok {
		t.Errorf("function variables are internals, hidden unless includeSpecial: %v", mod.vars("variables"))
	}
	if threads := h.ok("list_threads", map[string]any{"sessionId": id}); threads.num("count") < 1 {
		t.Errorf("threads: %v", threads)
	}

	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) || !strings.Contains(end.outputText("output"), "total 30") {
		t.Errorf("the program should run to the end: %v", end)
	}
}

func TestPythonConditionalHitAndLogBreakpoints(t *testing.T) {
	h := newHarness(t)
	prog := pythonProgram(t, "loop.py")

	id := h.sessionFor("python")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 6, "condition": "item == 3"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if snap.vars("locals")["item"] != "3" {
		t.Errorf("condition item == 3: %v", snap.vars("locals"))
	}

	id = h.sessionFor("python")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 6, "hitCondition": "2"})
	snap = h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if snap.vars("locals")["item"] != "1" {
		t.Errorf("hitCondition 2 should stop on the second hit (item 1): %v", snap.vars("locals"))
	}

	id = h.sessionFor("python")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 6, "logMessage": "weigh item={item}"})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if end.str("state") != "stopped" {
		t.Fatalf("a logpoint must not stop: %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	for i := range 5 {
		if !strings.Contains(all, "weigh item="+strconv.Itoa(i)) {
			t.Errorf("logpoint output for item %d missing in %q", i, all)
		}
	}
}

func TestPythonUncaughtException(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": pythonProgram(t, "exception.py")})
	wantStop(t, snap, "exception", 6)
	ex := snap.obj("exception")
	if ex.str("exceptionId") != "ValueError" || !strings.Contains(ex.str("description"), "negative value: -1") || !strings.Contains(ex.str("stackTrace"), "exception.py:11 in <module>: check(-1)") {
		t.Errorf("exception details: %v", ex)
	}
	if snap.vars("locals")["value"] != "-1" {
		t.Errorf("locals at the raise: %v", snap.vars("locals"))
	}
	// The reference's clients read the exception from list_debug_sessions.
	last := h.ok("list_debug_sessions", map[string]any{}).list("sessions")[0].obj("lastStop")
	if last.str("reason") != "exception" || last.obj("exceptionInfo").str("exceptionId") != "ValueError" ||
		!strings.Contains(last.obj("exceptionInfo").obj("details").str("message"), "negative value") {
		t.Errorf("list_debug_sessions lastStop: %v", last)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 1 {
		t.Errorf("after an uncaught exception the program ends with code 1: %v", end)
	}
}

func TestPythonOutputCursors(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": pythonProgram(t, "loop.py")})
	var got strings.Builder
	since, pages := 0, 0
	for {
		page := h.ok("get_output", map[string]any{"sessionId": id, "since": since, "limit": 1})
		got.WriteString(page.outputText("entries"))
		since = page.num("nextSince")
		pages++
		if page["hasMore"] != true {
			break
		}
	}
	text := got.String()
	if pages < 2 || !strings.Contains(text, "weighing 4") || !strings.Contains(text, "stderr 4") || !strings.Contains(text, "total 30") {
		t.Errorf("paged output (%d pages): %q", pages, text)
	}
	if strings.Count(text, "weighing 2") != 1 {
		t.Errorf("cursor reads must not repeat entries: %q", text)
	}
}

func TestPythonRestartReappliesBreakpoints(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "loop.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 18})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 18)
	again := h.ok("restart_debugging", map[string]any{"sessionId": id})
	wantStop(t, again, "breakpoint", 18)
	if again.obj("data").num("breakpointsReapplied") != 1 || again.vars("locals")["total"] != "30" {
		t.Errorf("restart: %v", again)
	}
}

func TestPythonPauseBusyLoop(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	run := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": pythonProgram(t, "busy.py"), "waitForStop": false})
	if run.str("state") != "running" {
		t.Fatalf("start: %v", run)
	}
	// Pause once the loop runs (busy.py prints "busy" just before it); a
	// pause before the first line stops at line 0 of the module.
	h.waitForOutput(id, "busy")
	paused := h.ok("pause_execution", map[string]any{"sessionId": id})
	if paused.str("state") != "paused" || paused.str("stopReason") != "pause" {
		t.Fatalf("pause: %v", paused)
	}
	if line := paused.obj("location").num("line"); line != 4 && line != 5 {
		t.Errorf("paused outside the loop: %v", paused["location"])
	}
	first := paused.vars("locals")["counter"]
	h.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": false})
	again := h.ok("pause_execution", map[string]any{"sessionId": id})
	if again.vars("locals")["counter"] == first {
		t.Errorf("the loop should have run between the pauses: counter %s then %s", first, again.vars("locals")["counter"])
	}
}

// debugpyListening starts a program under `python -m debugpy --listen
// --wait-for-client`, as a user would for attaching, and returns the port.
func debugpyListening(t *testing.T, script string) (int, *proc.Process) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	av := testenv.RequireAdapter(t, "python")
	// Pick a free port: debugpy --listen does not report the one it gets for 0.
	port := freePort(t)
	cmd := exec.CommandContext(ctx, av.Path, "-u", "-m", "debugpy", "--listen", "127.0.0.1:"+strconv.Itoa(port), "--wait-for-client", pythonProgram(t, script))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
		}
	}()
	return port, p
}

// Attaching pauses the program unless told otherwise (the reference's
// behaviour, which its clients expect), and a restart of a program the
// session did not start is refused, saying so.
func TestPythonAttachPausesAndRestartIsRefused(t *testing.T) {
	h := newHarness(t)
	port, p := debugpyListening(t, "forever.py")
	id := h.sessionFor("python")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": pythonProgram(t, "forever.py"), "line": 6})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port})
	if att.str("state") != "paused" {
		t.Fatalf("attach should leave the program paused: %v", att)
	}
	h.fail("restart_debugging", map[string]any{"sessionId": id}, "cannot restart an attached program")
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 6)
	// Someone else started it: closing the session detaches and leaves
	// it running.
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	select {
	case <-p.Done():
		t.Fatalf("closing an attached session ended the program (exit code %d)", p.ExitCode())
	case <-time.After(time.Second):
	}
}

// debugpy's attach has no stopOnEntry: without a breakpoint to hit, the
// attach used to wait out its whole timeout and answer "running". The
// server pauses the program itself.
func TestPythonAttachWithoutBreakpointsPauses(t *testing.T) {
	h := newHarness(t)
	port, _ := debugpyListening(t, "forever.py")
	id := h.sessionFor("python")
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "timeout": 20000})
	if att.str("state") != "paused" || att.str("stopReason") != "pause" || att["timedOut"] != nil {
		t.Fatalf("attach should pause the running program: %v", att)
	}
	if f := att.obj("location").str("function"); f != "tick" && f != "<module>" {
		t.Errorf("paused in the program's own code: %v", att["location"])
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": pythonProgram(t, "forever.py"), "line": 6})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 6)
}

func TestPythonAttachToDebugpyListen(t *testing.T) {
	h := newHarness(t)
	port, p := debugpyListening(t, "loop.py")
	id := h.sessionFor("python")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": pythonProgram(t, "loop.py"), "line": 6})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": true, "timeout": 30000})
	wantStop(t, att, "breakpoint", 6)
	if att.vars("locals")["item"] != "0" {
		t.Errorf("locals after attach: %v", att.vars("locals"))
	}
	det := h.ok("detach_from_process", map[string]any{"sessionId": id})
	if det.str("state") != "stopped" {
		t.Errorf("detach: %v", det)
	}
	select {
	case <-p.Done():
	case <-time.After(time.Minute):
		t.Fatal("the program did not run to its end after detach")
	}
	if p.ExitCode() != 0 {
		t.Errorf("program exit code after detach: %d", p.ExitCode())
	}
}

func TestPythonDryRunAndMissingScript(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "loop.py")
	dry := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "dryRunSpawn": true})
	req := dry.obj("data").obj("launchRequest")
	if req.str("program") != prog || req.str("console") != "internalConsole" || len(dry.obj("data")["adapterCommand"].([]any)) == 0 {
		t.Errorf("dry run: %v", dry)
	}
	h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(t.TempDir(), "missing.py")}, "script not found")
}
