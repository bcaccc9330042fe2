package server

import (
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestCreateSessionErrors(t *testing.T) {
	h := newHarness(t)
	h.fail("create_debug_session", map[string]any{}, "language is required")
	out := h.fail("create_debug_session", map[string]any{"language": "cobol"}, `unknown language "cobol"`)
	if !strings.Contains(out.str("error"), "python") || strings.Contains(out.str("error"), "mock") {
		t.Errorf("error should list the supported languages, and not the test-only mock: %q", out.str("error"))
	}
	h.fail("step_over", map[string]any{"sessionId": "nope"}, `no debug session with id "nope"`)
	h.fail("step_over", map[string]any{}, "sessionId is required")
}

func TestListSupportedLanguages(t *testing.T) {
	h := newHarness(t)
	out := h.ok("list_supported_languages", nil)
	var mock result
	for _, l := range out.list("languages") {
		if l.str("id") == "mock" {
			mock = l
		}
	}
	if out.num("count") < 1 || mock["installed"] != true {
		t.Fatalf("mock should be listed as installed: %v", out)
	}
	if _, limited := mock.obj("unavailable")["launch"]; limited {
		t.Errorf("mock launch mode should be available: %v", mock)
	}
}

// TestBreakpointFlow walks the way an agent debugs: breakpoint, start,
// snapshot, step, continue, evaluate, inspect, remove, run to the end.
func TestBreakpointFlow(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")

	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2})
	if bp.num("breakpointId") == 0 || bp["verified"] != false || bp.obj("context").str("lineContent") != "  let scaled = item * factor" {
		t.Fatalf("pending breakpoint: %v", bp)
	}

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	wantStop(t, snap, "breakpoint", 2)
	if l := snap.vars("locals"); l["item"] != "1" || l["factor"] != "3" {
		t.Fatalf("locals at first hit: %v", l)
	}
	if ids, _ := snap["hitBreakpointIds"].([]any); len(ids) != 1 || int(ids[0].(float64)) != bp.num("breakpointId") {
		t.Errorf("hitBreakpointIds = %v, want [%d]", snap["hitBreakpointIds"], bp.num("breakpointId"))
	}
	if f := snap.obj("location").str("file"); f != filepath.Join("testdata", "mock", "basic.mock") {
		t.Errorf("the stop's file should be written relative to the server's working directory: %q", f)
	}
	// set_breakpoint's answer showed lines 1-3 (one either side): the stop
	// says its line and leaves those out.
	if around := lineNumbers(snap); len(around) != 0 || snap.obj("context").str("lineContent") != "  let scaled = item * factor" {
		t.Errorf("the stop should leave out the lines set_breakpoint just showed, with line 2 as lineContent: %v", snap["context"])
	}
	listed := h.ok("list_breakpoints", map[string]any{"sessionId": id})
	if listed.num("count") != 1 || listed.list("breakpoints")[0]["verified"] != true {
		t.Errorf("breakpoint should be verified once running: %v", listed)
	}

	step := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, step, "step", 3)
	if around := lineNumbers(step); !slices.Equal(around, []int{4}) {
		t.Errorf("a step shows only the source lines the last answers did not (line 4): %v", step["context"])
	}
	if l, unchanged := step.vars("locals"), step["unchanged"]; len(l) != 1 || fmt.Sprint(unchanged) != "[factor item]" && fmt.Sprint(unchanged) != "[item factor]" {
		t.Errorf("a step repeats no local the stop before it showed with the same value (item, factor), and shows scaled: locals %v, unchanged %v", l, unchanged)
	}
	if again := h.ok("wait_for_stop", map[string]any{"sessionId": id}); len(again.vars("locals")) != 3 || len(lineNumbers(again)) != 3 {
		t.Errorf("asked again about the same stop, the answer is whole: %v", again)
	}
	if step.vars("locals")["scaled"] != "3" {
		t.Errorf("scaled after the step: %v", step.vars("locals"))
	}

	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, next, "breakpoint", 2)
	if next.vars("locals")["item"] != "2" {
		t.Errorf("second hit should have item=2: %v", next.vars("locals"))
	}
	if !strings.Contains(next.outputText("output"), "weigh 1") {
		t.Errorf("snapshot should carry the output since the previous call: %v", next["output"])
	}

	ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "item * factor"})
	if ev.str("result") != "6" {
		t.Errorf("evaluate item * factor = %v", ev)
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "nosuch + 1"}, "nosuch")
	if again := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "item"}); again.str("result") != "2" {
		t.Errorf("session should be usable after a bad expression: %v", again)
	}

	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id})
	frames := stack.list("stackFrames")
	if len(frames) != 2 || frames[0].str("name") != "weigh" || frames[0].num("line") != 2 || frames[1].num("line") != 12 {
		t.Fatalf("stack: %v", frames)
	}
	callerLocals := h.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": frames[1].num("id")})
	if callerLocals.vars("variables")["i"] != "2" || callerLocals.obj("frame").num("line") != 12 {
		t.Errorf("caller frame locals: %v", callerLocals)
	}

	scopes := h.ok("get_scopes", map[string]any{"sessionId": id, "frameId": frames[1].num("id")})
	ref := scopes.list("scopes")[0].num("variablesReference")
	vars := h.ok("get_variables", map[string]any{"sessionId": id, "scope": ref, "names": []string{"user"}, "depth": 2})
	user := vars.list("variables")
	if len(user) != 1 {
		t.Fatalf("variables filtered by name: %v", vars)
	}
	kids := map[string]result{}
	for _, c := range user[0].list("children") {
		kids[c.str("name")] = c
	}
	if kids["api_key"]["masked"] != true || strings.Contains(kids["api_key"].str("value"), "0123456789") {
		t.Errorf("secret should be masked: %v", kids["api_key"])
	}
	if city := kids["address"].vars("children")["city"]; city != `"Paris"` {
		t.Errorf("nested expansion should reach address.city, got %q (%v)", city, kids["address"])
	}

	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp.num("breakpointId")})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 || end["exitCode"] == nil {
		t.Fatalf("after removing the breakpoint the program should run to the end: %v", end)
	}
	if !strings.Contains(end.outputText("output"), "total 18") {
		t.Errorf("final output missing: %v", end["output"])
	}
	h.fail("step_over", map[string]any{"sessionId": id}, "the program has ended")
}

func TestStepIntoAndOut(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "calls.mock")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 5})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 5)
	in := h.ok("step_into", map[string]any{"sessionId": id})
	wantStop(t, in, "step", 2)
	if in.obj("location").str("function") != "inner" {
		t.Errorf("step_into should enter inner: %v", in["location"])
	}
	out := h.ok("step_out", map[string]any{"sessionId": id})
	if out.str("state") != "paused" || out.obj("location").str("function") != "outer" {
		t.Errorf("step_out should return to outer: %v", out)
	}
}

func TestConditionalHitAndLogBreakpoints(t *testing.T) {
	h := newHarness(t)
	prog := mockProgram(t, "basic.mock")

	id := h.session()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2, "condition": "item == 2"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if snap.vars("locals")["item"] != "2" {
		t.Errorf("condition item == 2: stopped with %v", snap.vars("locals"))
	}

	id = h.session()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2, "hitCondition": "3"})
	snap = h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if snap.vars("locals")["item"] != "3" {
		t.Errorf("hitCondition 3: stopped with %v", snap.vars("locals"))
	}

	id = h.session()
	lp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2, "logMessage": "item is {item}"})
	// The reference's answer carries the logpoint's message: its own e2e
	// test of logpoints reads it there.
	if lp.str("logMessage") != "item is {item}" {
		t.Errorf("set_breakpoint's answer names the logpoint's message: %v", lp)
	}
	if listed := h.ok("list_breakpoints", map[string]any{"sessionId": id}); listed.list("breakpoints")[0].str("logMessage") != "item is {item}" {
		t.Errorf("the logpoint's message: %v (set: %v)", listed, lp)
	}
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if end.str("state") != "stopped" {
		t.Fatalf("a logpoint must not stop the program: %v", end)
	}
	out := h.ok("get_output", map[string]any{"sessionId": id})
	for _, want := range []string{"item is 1", "item is 2", "item is 3"} {
		if !strings.Contains(out.outputText("entries"), want) {
			t.Errorf("log output missing %q: %q", want, out.outputText("entries"))
		}
	}
}

func TestFunctionBreakpoint(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	fb := h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "weigh"})
	if fb.str("functionName") != "weigh" || fb.num("breakpointId") == 0 {
		t.Fatalf("function breakpoint: %v", fb)
	}
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if snap.str("state") != "paused" || snap.obj("location").str("function") != "weigh" {
		t.Fatalf("should stop in weigh: %v", snap)
	}
	listed := h.ok("list_breakpoints", map[string]any{"sessionId": id})
	if listed.num("functionCount") != 1 {
		t.Errorf("list_breakpoints: %v", listed)
	}
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "function": "weigh"})
	if end := h.ok("continue_execution", map[string]any{"sessionId": id}); end.str("state") != "stopped" {
		t.Errorf("removed function breakpoint still stops: %v", end)
	}
}

func TestExceptionStop(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "exception.mock")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if snap.str("state") != "paused" || snap.str("stopReason") != "exception" || snap.obj("location").num("line") != 2 {
		t.Fatalf("uncaught exception should stop at line 2: %v", snap)
	}
	ex := snap.obj("exception")
	if !strings.Contains(ex.str("description")+ex.str("message"), "ivision") {
		t.Errorf("exception details: %v", ex)
	}
	if !strings.Contains(snap.str("message"), "exception") {
		t.Errorf("message should say it is an exception: %q", snap.str("message"))
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 1 {
		t.Errorf("continuing an uncaught exception ends with code 1: %v", end)
	}

	id = h.session()
	end = h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "breakOnExceptions": "none"})
	if end.str("state") != "stopped" || end.num("exitCode") != 1 {
		t.Errorf("breakOnExceptions none should not stop: %v", end)
	}
	h.fail("start_debugging", map[string]any{"sessionId": h.session(), "scriptPath": prog, "breakOnExceptions": "sometimes"}, "sometimes")
}

func TestBreakpointErrors(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	h.fail("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 99}, "past the end")
	h.fail("set_breakpoint", map[string]any{"sessionId": id, "file": "/no/such/file.mock", "line": 1}, "file not found")
	h.fail("set_breakpoint", map[string]any{"sessionId": id, "file": prog}, "needs a line or a statement")
	h.fail("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": "abc"}, "invalid arguments")
	stale := h.fail("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 3, "expectedContent": "return scaled"}, "does not contain")
	if !strings.Contains(stale.str("error"), "print") {
		t.Errorf("the error should show what the line holds: %q", stale.str("error"))
	}
	h.fail("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "statement": "no such text"}, "no line of")

	anchored := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "statement": "return scaled"})
	if anchored.num("line") != 4 || anchored.str("anchor") != "return scaled" {
		t.Errorf("statement anchor should resolve to line 4: %v", anchored)
	}
	asString := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": "2"})
	if asString.num("line") != 2 {
		t.Errorf("a numeric string line should be accepted: %v", asString)
	}
	h.fail("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": 999}, "no breakpoint matched")
	cleared := h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	if cleared.num("cleared") != 2 {
		t.Errorf("clear_breakpoints: %v", cleared)
	}
}

func TestMovedBreakpointWarns(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": true})
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 6})
	if bp.num("line") != 8 || bp.num("requestedLine") != 6 || bp.str("warning") == "" {
		t.Errorf("a breakpoint on a blank line should move to line 8 with a warning: %v", bp)
	}
}

func TestStartErrors(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	h.fail("start_debugging", map[string]any{"sessionId": id}, "scriptPath is required")
	h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": "/no/such/program.mock"}, "script not found")
	out := h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "syntax.mock")}, "syntax error")
	if out.str("state") != "error" {
		t.Errorf("a failed launch leaves the session in error: %v", out)
	}
	// The same session can start again after a failure.
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "exit.mock")})
	if end.str("state") != "stopped" || end.num("exitCode") != 3 || !strings.Contains(end.outputText("output"), "exiting") {
		t.Errorf("a program that exits at once: %v", end)
	}
	h.fail("get_local_variables", map[string]any{"sessionId": id}, "the program has ended")
}

func TestWrongStateErrorsAndPause(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	h.fail("step_over", map[string]any{"sessionId": id}, "has not started")
	prog := mockProgram(t, "loop.mock")
	running := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitForStop": false})
	if running.str("state") != "running" {
		t.Fatalf("start without waiting: %v", running)
	}
	wrong := h.fail("step_over", map[string]any{"sessionId": id}, "the program is running")
	if !strings.Contains(wrong.str("hint"), "pause_execution") {
		t.Errorf("hint should say to pause: %q", wrong.str("hint"))
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "n"}, "running")
	timedOut := h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 50})
	if timedOut["timedOut"] != true || timedOut.str("state") != "running" {
		t.Errorf("wait_for_stop on a busy loop should time out and leave it running: %v", timedOut)
	}
	paused := h.ok("pause_execution", map[string]any{"sessionId": id})
	if paused.str("state") != "paused" || paused.str("stopReason") != "pause" || paused.obj("data").str("stopReason") != "pause" {
		t.Fatalf("pause: %v", paused)
	}
	if threads := h.ok("list_threads", map[string]any{"sessionId": id}); threads.num("count") != 1 {
		t.Errorf("threads: %v", threads)
	}
}

// TestPauseWhileContinueWaits: a waiting continue must not block pause.
func TestPauseWhileContinueWaits(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "loop.mock")
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": true})
	var wg sync.WaitGroup
	var cont result
	wg.Add(1)
	go func() {
		defer wg.Done()
		cont, _ = h.call("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	}()
	// Wait until the continue has really resumed the program.
	for {
		out := h.ok("list_debug_sessions", nil)
		if out.list("sessions")[0].str("state") == "running" {
			break
		}
	}
	paused := h.ok("pause_execution", map[string]any{"sessionId": id})
	wg.Wait()
	if paused.str("stopReason") != "pause" || cont.str("stopReason") != "pause" {
		t.Errorf("continue should return the pause's stop: continue=%v pause=%v", cont, paused)
	}
}

func TestAdapterCrashIsContained(t *testing.T) {
	h := newHarness(t)
	healthy := h.session()
	h.ok("set_breakpoint", map[string]any{"sessionId": healthy, "file": mockProgram(t, "basic.mock"), "line": 2})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": healthy, "scriptPath": mockProgram(t, "basic.mock")}), "breakpoint", 2)

	crashing := h.session()
	snap := h.ok("start_debugging", map[string]any{"sessionId": crashing, "scriptPath": mockProgram(t, "crash.mock")})
	if snap.str("state") != "error" || !strings.Contains(snap.str("stateReason"), "ended unexpectedly") {
		t.Fatalf("an adapter crash should put the session in error with a reason: %v", snap)
	}
	h.fail("step_over", map[string]any{"sessionId": crashing}, "the session failed")
	listed := h.ok("list_debug_sessions", nil)
	states := map[string]string{}
	for _, s := range listed.list("sessions") {
		states[s.str("id")] = s.str("state")
	}
	if states[crashing] != "error" || states[healthy] != "paused" {
		t.Errorf("sessions after a crash: %v", states)
	}
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": healthy}), "step", 3)
}

func TestOutputCursorsAndResource(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "output.mock")})
	first := h.ok("get_output", map[string]any{"sessionId": id, "limit": 2})
	entries := first.list("entries")
	if len(entries) != 2 || first["hasMore"] != true || entries[0].str("output") != "hello\n" || entries[1].str("category") != "stderr" {
		t.Fatalf("first page: %v", first)
	}
	rest := h.ok("get_output", map[string]any{"sessionId": id, "since": first.num("nextSince")})
	if rest["hasMore"] != false || !strings.Contains(rest.outputText("entries"), "done") || strings.Contains(rest.outputText("entries"), "hello") {
		t.Fatalf("second page: %v", rest)
	}
	empty := h.ok("get_output", map[string]any{"sessionId": id, "since": rest.num("nextSince")})
	if len(empty.list("entries")) != 0 || empty.num("nextSince") != rest.num("nextSince") {
		t.Errorf("reading past the end: %v", empty)
	}
	res, err := h.cs.ReadResource(h.ctx, &mcp.ReadResourceParams{URI: "debug://sessions/" + id + "/output"})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Contents[0].Text; text != "hello\nwarning\nline 2\ndone\n" {
		t.Errorf("output resource = %q", text)
	}
}

func TestRestartReappliesBreakpoints(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 13})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 13)
	h.ok("continue_execution", map[string]any{"sessionId": id})
	again := h.ok("restart_debugging", map[string]any{"sessionId": id})
	wantStop(t, again, "breakpoint", 13)
	if again.obj("data").num("breakpointsReapplied") != 1 || again.vars("locals")["w"] != "3" {
		t.Errorf("restart: %v", again)
	}
}

func TestHandshakeOrders(t *testing.T) {
	for name, extra := range map[string]map[string]any{
		"initialized after launch (Delve)":  {"initializedAfterLaunch": true},
		"launch answered at once (lldb 19)": {"launchResponse": "immediate"},
		"launch answered last (debugpy)":    {},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			id := h.session()
			prog := mockProgram(t, "basic.mock")
			h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2})
			wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "dapLaunchArgs": extra}), "breakpoint", 2)
		})
	}
}

func TestCloseSession(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "loop.mock"), "waitForStop": false})
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	h.fail("pause_execution", map[string]any{"sessionId": id}, "no debug session")
	if n := h.ok("list_debug_sessions", nil).num("count"); n != 0 {
		t.Errorf("closed session still listed: %d", n)
	}
}

func TestGetSourceContext(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	out := h.ok("get_source_context", map[string]any{"sessionId": id, "file": "testdata/mock/basic.mock", "line": 4, "linesContext": 1})
	if out.str("lineContent") != "  return scaled" || len(out.list("surrounding")) != 3 || !strings.HasSuffix(out.str("file"), "/testdata/mock/basic.mock") {
		t.Errorf("source context (relative path): %v", out)
	}
	h.fail("get_source_context", map[string]any{"sessionId": id, "file": "testdata/mock/basic.mock", "line": 400}, "outside")
}

func TestDryRunSpawnStartsNothing(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	out := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "args": []string{"a"}, "dryRunSpawn": true})
	req := out.obj("data").obj("launchRequest")
	// Stopped, as the reference answers a dry run: nothing runs.
	if req.str("program") != prog || out.str("state") != "stopped" || out.obj("data")["dryRun"] != true {
		t.Fatalf("dry run: %v", out)
	}
	// Nothing started: a real start still works.
	if end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); end.str("state") != "stopped" {
		t.Errorf("start after a dry run: %v", end)
	}
}

func TestGetOutputWaitsForOutput(t *testing.T) {
	h := newHarness(t)
	silent := h.session()
	h.ok("start_debugging", map[string]any{"sessionId": silent, "scriptPath": mockProgram(t, "loop.mock"), "waitForStop": false})
	if out := h.ok("get_output", map[string]any{"sessionId": silent, "wait": 50}); len(out.list("entries")) != 0 {
		t.Errorf("a silent program has no output after the wait: %v", out)
	}
	h.ok("pause_execution", map[string]any{"sessionId": silent})

	id := h.session()
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "output.mock"), "waitForStop": false})
	h.waitForOutput(id, "done")
}

// An adapter that fails setBreakpoints (rdbg 1.6 without a path mapping
// answers "<path> is not available") must not leave the agent believing the
// breakpoint is set: the breakpoint says verified false with the adapter's
// reason, before the start, after it, and when set while the program runs.
func TestRefusedBreakpointsAreReported(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	refusal := map[string]any{"refuseBreakpoints": prog + " is not available"}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 13})
	start := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "loop.mock"), "dapLaunchArgs": refusal, "waitForStop": false})
	if w := start.str("warning"); !strings.Contains(w, "basic.mock:13") || !strings.Contains(w, "refused by the debugger") || !strings.Contains(w, "is not available") {
		t.Errorf("start_debugging should warn that the breakpoint was refused, and why: %v", start)
	}
	listed := h.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")
	if len(listed) != 1 {
		t.Fatalf("list_breakpoints: %v", listed)
	}
	if bp := listed[0]; bp["verified"] != false || !strings.Contains(bp.str("message"), "is not available") {
		t.Errorf("listed breakpoint should be unverified with the adapter's message: %v", bp)
	}
	// Set while the program runs: the call succeeds, and its answer says
	// the debugger refused it.
	live := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2})
	if live["verified"] != false || !strings.Contains(live.str("message"), "Refused by the debugger") {
		t.Errorf("set_breakpoint while running should report the refusal: %v", live)
	}
	h.ok("pause_execution", map[string]any{"sessionId": id})
}

// Over stdio there is one client: sharing cannot change anything, and the
// answer says so instead of claiming a change.
func TestShareOnAOneClientServerSaysItChangesNothing(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	out := h.ok("share_debug_session", map[string]any{"sessionId": id})
	if msg := out.str("message"); !strings.Contains(msg, "Nothing changed") || !strings.Contains(msg, "mcp-debugger http") {
		t.Errorf("share over one client: %q", msg)
	}
}

// Over stdio nothing is owned: no reconnect key is handed out, and adopt
// says why it has nothing to do.
func TestAdoptOverStdioSaysSessionsAreAlreadyYours(t *testing.T) {
	h := newHarness(t)
	created := h.ok("create_debug_session", map[string]any{"language": "mock"})
	if key, has := created["reconnectKey"]; has || strings.Contains(created.str("message"), "reconnectKey") {
		t.Errorf("create_debug_session over stdio offers a reconnect key (%v): %v", key, created)
	}
	refused := h.fail("list_debug_sessions", map[string]any{"adopt": "anything"}, "nothing to adopt over stdio")
	if !strings.Contains(refused.str("hint"), "already yours") {
		t.Errorf("adopt over stdio: %v", refused)
	}
}

// attach_to_process's timeout bounds reaching the program: with nothing
// listening, the answer comes when the agent said, not at the adapter's
// own 10 s retry bound. Node's and Java's attach, which have no retry,
// must not take longer either.
func TestAttachTimeoutBoundsTheConnect(t *testing.T) {
	for _, lang := range []string{"python", "go", "ruby", "javascript", "java"} {
		h := newHarness(t)
		id := h.sessionFor(lang)
		start := time.Now()
		h.fail("attach_to_process", map[string]any{"sessionId": id, "port": freePort(t), "timeout": 1000}, "connect")
		if took := time.Since(start); took > 6*time.Second {
			t.Errorf("%s: attach with timeout 1000 answered after %v", lang, took)
		}
	}
}

// freePort is a loopback port nothing listens on.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// A restart is a new run: get_output reads it from its start (from 0, or
// from a cursor held over the restart), and the answer says output was reset.
func TestRestartStartsTheOutputAfresh(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "output.mock")
	first := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if first.str("state") != "stopped" {
		t.Fatalf("output.mock runs to its end: %v", first)
	}
	held := h.ok("get_output", map[string]any{"sessionId": id}).num("nextSince")
	again := h.ok("restart_debugging", map[string]any{"sessionId": id})
	if again.obj("data")["outputReset"] != true {
		t.Errorf("restart should say outputReset: %v", again.obj("data"))
	}
	for _, since := range []int{0, held} {
		page := h.ok("get_output", map[string]any{"sessionId": id, "since": since})
		if text := page.outputText("entries"); strings.Count(text, "hello") != 1 {
			t.Errorf("from %v: this run's output once, got %q", since, text)
		}
		if page.num("dropped") != 0 {
			t.Errorf("from %v: the earlier run's output is not dropped output: %v", since, page)
		}
	}
}

// lineNumbers are the numbers of a snapshot's surrounding source lines.
func lineNumbers(snap result) []int {
	var lines []int
	for _, l := range snap.obj("context").list("surrounding") {
		lines = append(lines, l.num("line"))
	}
	return lines
}
