package server

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/node"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests: the MCP tools on real Node (through the built-in
// adapter) and the programs in testdata/node, whose README lists the lines
// used here.

func nodeProgram(t *testing.T, name string) string {
	return filepath.Join(repoRoot(t), "testdata", "node", name)
}

func TestNodeBreakpointStepsAndEvaluate(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	src, helper := nodeProgram(t, "loop.js"), nodeProgram(t, "weigh.js")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 10})
	if bp.num("line") != 10 {
		t.Fatalf("set_breakpoint: %v", bp)
	}

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 10)
	if rt := snap.obj("data").str("runtime"); !strings.HasPrefix(rt, "node: /") || !strings.Contains(rt, "(PATH") {
		t.Errorf("the start should name the node that runs the program and why: runtime %q", rt)
	}
	if l := snap.vars("locals"); l["i"] != "1" || l["total"] != "0" {
		t.Fatalf("locals at the first hit: %v", l)
	}
	if loc := snap.obj("location"); snap.stopFile(t) != src || loc.str("function") != "main" {
		t.Fatalf("location: %v", loc)
	}
	into := h.ok("step_into", map[string]any{"sessionId": id})
	wantStop(t, into, "step", 5)
	if f := into.stopFile(t); f != helper {
		t.Fatalf("step into should enter weigh.js, got %s", f)
	}
	over := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 6)
	if l := over.localsAfter(into); l["scaled"] != "10" || l["item"] != "1" || l["factor"] != "10" {
		t.Fatalf("locals in weigh: %v", l)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "scaled + factor"}); ev.str("result") != "20" {
		t.Fatalf("evaluate: %v", ev)
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "nope + 1"}, "nope is not defined")

	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id})
	frames := stack.list("stackFrames")
	if len(frames) < 2 || frames[0].str("name") != "weigh" || frames[1].str("name") != "main" || frames[1].num("line") != 10 {
		t.Fatalf("stack: %v", frames)
	}
	// Evaluate on the caller's frame.
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "i * 100", "frameId": frames[1].num("id")}); ev.str("result") != "100" {
		t.Fatalf("evaluate on main's frame: %v", ev)
	}

	// V8 finishes the caller's statement: step out stops on the next one.
	out := h.ok("step_out", map[string]any{"sessionId": id})
	if out.str("state") != "paused" || out.obj("location").num("line") != 11 || out.stopFile(t) != src || out.vars("locals")["w"] != `"w10"` {
		t.Fatalf("step out: %v", out)
	}
	if rv := out.vars("locals")["(return) weigh"]; rv != `"w10"` {
		t.Errorf("the value weigh returned, after the step out: %q (locals %v)", rv, out.vars("locals"))
	}
	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, next, "breakpoint", 10)
	if l := next.vars("locals"); l["i"] != "2" {
		t.Fatalf("locals at the second hit: %v", l)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 3 {
		t.Fatalf("the program should run to its end (exit 3): %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	if !strings.Contains(all, "item 5 total 15\n") || !strings.Contains(all, "done with 5 items\n") ||
		strings.Count(all, "item 1 total 1\n") != 1 || strings.Contains(all, "Debugger") {
		t.Fatalf("program output: %q", all)
	}
}

func TestNodeConditionHitCountAndLogpoint(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("js")
	src, helper := nodeProgram(t, "loop.js"), nodeProgram(t, "weigh.js")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": helper, "line": 5, "condition": "item === 3"})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12, "logMessage": "logged i={i} total={total}"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 5)
	if l := snap.vars("locals"); l["item"] != "3" {
		t.Fatalf("conditional breakpoint stopped with %v", l)
	}
	// Removing a breakpoint while paused on it must stop it hitting; a
	// hit count counts from when it is set.
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "file": helper, "line": 5})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13, "hitCondition": "2"})
	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, next, "breakpoint", 13)
	if l := next.vars("locals"); l["i"] != "4" {
		t.Fatalf("hit count 2 should stop on the second hit (i=4): %v", l)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" {
		t.Fatalf("the hit-count breakpoint should not stop again: %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	if !strings.Contains(all, "logged i=1 total=0\n") || !strings.Contains(all, "logged i=5 total=10\n") || strings.Count(all, "logged") != 5 {
		t.Fatalf("logpoint output: %q", all)
	}
}

func TestNodeExceptions(t *testing.T) {
	t.Run("all", func(t *testing.T) {
		h := newHarness(t)
		id := h.sessionFor("javascript")
		snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nodeProgram(t, "raise.js"), "breakOnExceptions": "all"})
		wantStop(t, snap, "exception", 12)
		if exc := snap.obj("exception"); exc.str("typeName") != "SyntaxError" {
			t.Fatalf("caught exception: %v", exc)
		}
		snap = h.ok("continue_execution", map[string]any{"sessionId": id})
		wantStop(t, snap, "exception", 6)
		exc := snap.obj("exception")
		if exc.str("typeName") != "RangeError" || exc.str("message") != "bad order 3" || !strings.Contains(exc.str("stackTrace"), "raise.js:17") {
			t.Fatalf("exception details: %v", exc)
		}
		if l := snap.vars("locals"); l["order"] != "3" {
			t.Fatalf("locals at the exception: %v", l)
		}
		end := h.ok("continue_execution", map[string]any{"sessionId": id})
		if end.str("state") != "stopped" || end.num("exitCode") != 1 {
			t.Fatalf("the program should end with code 1: %v", end)
		}
		if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(all, "RangeError: bad order 3") || !strings.Contains(all, "caught SyntaxError") {
			t.Fatalf("output: %q", all)
		}
	})
	t.Run("uncaught rejection", func(t *testing.T) {
		h := newHarness(t)
		id := h.sessionFor("javascript")
		snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nodeProgram(t, "reject.js")})
		wantStop(t, snap, "exception", 6)
		if exc := snap.obj("exception"); exc.str("typeName") != "TypeError" || exc.str("message") != "cannot load config" {
			t.Fatalf("rejection details: %v", exc)
		}
		end := h.ok("continue_execution", map[string]any{"sessionId": id})
		if end.str("state") != "stopped" || end.num("exitCode") != 1 {
			t.Fatalf("the program should end with code 1: %v", end)
		}
	})
}

func TestNodePauseBusyLoopAndClose(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	before := proc.Descendants(os.Getpid())
	run := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nodeProgram(t, "busy.js"), "waitForStop": false})
	if run.str("state") != "running" {
		t.Fatalf("start: %v", run)
	}
	h.waitForOutput(id, "spinning")
	snap := h.ok("pause_execution", map[string]any{"sessionId": id})
	if snap.str("state") != "paused" || snap.str("stopReason") != "pause" {
		t.Fatalf("pause: %v", snap)
	}
	if l := snap.obj("location").num("line"); l != 7 && l != 8 {
		t.Fatalf("the pause should land in the loop (lines 7-8): %v", snap["location"])
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "spins >= 0 && Date.now() >= start"}); ev.str("result") != "true" {
		t.Fatalf("evaluate: %v", ev)
	}
	h.wantCloseKillsAll(id, before, 1)
}

// TestNodePauseHotTopLevelLoop: a pause reaches a loop in a script's
// top-level code after V8 has optimized it in place (it prints "spinning
// hot" by then). Node 22 never answered that pause until the adapter
// started it with --no-use-osr (launchFlags); make test-matrix runs this
// under Node 20 and 22.
func TestNodePauseHotTopLevelLoop(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	run := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nodeProgram(t, "hot.js"), "waitForStop": false})
	if run.str("state") != "running" {
		t.Fatalf("start: %v", run)
	}
	h.waitForOutput(id, "spinning hot")
	snap := h.ok("pause_execution", map[string]any{"sessionId": id})
	if snap.str("state") != "paused" || snap.str("stopReason") != "pause" {
		t.Fatalf("pause: %v", snap)
	}
	if l := snap.obj("location").num("line"); l < 9 || l > 11 {
		t.Fatalf("the pause should land in the loop (lines 9-11): %v", snap["location"])
	}
}

func TestNodeVariablesNested(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	src := nodeProgram(t, "values.js")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 22})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 22)
	l := snap.vars("locals")
	want := map[string]string{
		"text": `"hello"`, "arr": "[10, Array(2)]", "obj": `{a: 1, nested: {…}}`,
		"map": `Map(1) {"k" => {v: 1}}`, "set": "Set(2) {1, 2}", "box": `Box {size: 3, items: Array(2)}`,
	}
	for name, v := range want {
		if l[name] != v {
			t.Errorf("%s = %q, want %q (locals %v)", name, l[name], v, l)
		}
	}
	vars := h.ok("get_local_variables", map[string]any{"sessionId": id}).list("variables")
	refs := map[string]int{}
	for _, v := range vars {
		refs[v.str("name")] = v.num("variablesReference")
	}
	nested := h.ok("get_variables", map[string]any{"sessionId": id, "scope": refs["obj"], "depth": 2}).list("variables")
	if len(nested) != 2 || nested[1].str("name") != "nested" || len(nested[1].list("children")) != 1 || nested[1].list("children")[0].str("value") != `"two"` {
		t.Fatalf("obj expanded: %v", nested)
	}
	boxVars := h.ok("get_variables", map[string]any{"sessionId": id, "scope": refs["box"]}).vars("variables")
	if boxVars["size"] != "3" || boxVars["items"] != `["a", "b"]` {
		t.Fatalf("box: %v", boxVars)
	}
	// The getter lives on the class, not the instance: listing never runs it.
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); strings.Contains(all, "getter was invoked") {
		t.Fatalf("a getter was invoked: %q", all)
	}
	mapVars := h.ok("get_variables", map[string]any{"sessionId": id, "scope": refs["map"], "depth": 2}).list("variables")
	if len(mapVars) == 0 || mapVars[0].str("name") != "[[Entries]]" {
		t.Fatalf("map children: %v", mapVars)
	}
	scopes := h.ok("get_scopes", map[string]any{"sessionId": id, "frameId": h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")[0].num("id")}).list("scopes")
	names := []string{}
	for _, s := range scopes {
		names = append(names, s.str("name"))
		if s.str("name") == "Global" && !s["expensive"].(bool) {
			t.Errorf("Global should be marked expensive")
		}
	}
	if len(names) < 2 || names[0] != "Local" || names[len(names)-1] != "Global" {
		t.Fatalf("scopes: %v", names)
	}
}

func TestNodeTypeScriptSourceMaps(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("typescript")
	tsSrc := nodeProgram(t, "ts/src/weigh.ts")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": tsSrc, "line": 8})
	if bp.num("line") != 8 {
		t.Fatalf("set_breakpoint: %v", bp)
	}
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nodeProgram(t, "ts/dist/loop.js")})
	wantStop(t, snap, "breakpoint", 8)
	if f := snap.stopFile(t); f != tsSrc {
		t.Fatalf("the stop should be reported in the .ts source, got %s", f)
	}
	if l := snap.vars("locals"); l["item"] != "1" || l["factor"] != "10" {
		t.Fatalf("locals: %v", l)
	}
	frames := h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(frames) < 2 || frames[1].str("file") != nodeProgram(t, "ts/src/loop.ts") || frames[1].num("line") != 14 {
		t.Fatalf("caller frame should be loop.ts:14: %v", frames)
	}
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 9)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("end: %v", end)
	}
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(all, "ts total 60") {
		t.Fatalf("output: %q", all)
	}
}

func TestNodeESMAndAsync(t *testing.T) {
	t.Run("esm", func(t *testing.T) {
		h := newHarness(t)
		id := h.sessionFor("javascript")
		helper := nodeProgram(t, "esm/weigh.mjs")
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": helper, "line": 3})
		snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nodeProgram(t, "esm/main.mjs")})
		wantStop(t, snap, "breakpoint", 3)
		if l := snap.vars("locals"); l["item"] != "1" {
			t.Fatalf("locals: %v", l)
		}
		out := h.ok("step_out", map[string]any{"sessionId": id})
		if out.str("state") != "paused" || out.stopFile(t) != nodeProgram(t, "esm/main.mjs") {
			t.Fatalf("step out into main.mjs: %v", out)
		}
		h.ok("clear_breakpoints", map[string]any{"sessionId": id})
		end := h.ok("continue_execution", map[string]any{"sessionId": id})
		if end.str("state") != "stopped" || end.num("exitCode") != 0 {
			t.Fatalf("end: %v", end)
		}
		h.waitForOutput(id, "esm w10,w20,w30")
	})
	t.Run("async", func(t *testing.T) {
		h := newHarness(t)
		id := h.sessionFor("javascript")
		src := nodeProgram(t, "async.js")
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 8})
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 15})
		snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
		wantStop(t, snap, "breakpoint", 8)
		// After the await, the caller is only on the async stack.
		frames := h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
		names := []string{}
		for _, f := range frames {
			names = append(names, f.str("name"))
		}
		if len(frames) < 2 || names[0] != "fetchValue" || !strings.Contains(strings.Join(names, ","), "run") {
			t.Fatalf("async stack: %v", names)
		}
		snap = h.ok("continue_execution", map[string]any{"sessionId": id})
		wantStop(t, snap, "breakpoint", 15)
		vars := h.ok("get_local_variables", map[string]any{"sessionId": id}).list("variables")
		ref := 0
		for _, v := range vars {
			if v.str("name") == "pending" {
				ref = v.num("variablesReference")
			}
		}
		promise := h.ok("get_variables", map[string]any{"sessionId": id, "scope": ref}).vars("variables")
		if promise["[[PromiseState]]"] != `"fulfilled"` || promise["[[PromiseResult]]"] != "42" {
			t.Fatalf("promise: %v", promise)
		}
	})
}

func TestNodeOutputNoLineLost(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nodeProgram(t, "output.js")})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("end: %v", end)
	}
	// Read once, right after the end: all output comes before it (a
	// maxBytes above the default 8000 lets all 400 lines into one answer).
	page := h.ok("get_output", map[string]any{"sessionId": id, "limit": 1000, "maxBytes": 100000})
	var stdout, stderr strings.Builder
	for _, e := range page.list("entries") {
		switch e.str("category") {
		case "stdout":
			stdout.WriteString(e.str("output"))
		case "stderr":
			stderr.WriteString(e.str("output"))
		}
	}
	var wantOut, wantErr strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&wantOut, "out %d\n", i)
		fmt.Fprintf(&wantErr, "err %d\n", i)
	}
	wantOut.WriteString("no newline at the end")
	if stdout.String() != wantOut.String() || stderr.String() != wantErr.String() {
		t.Fatalf("stdout %q\nstderr %q", stdout.String(), stderr.String())
	}
}

// inspectedNode starts src under node --inspect on a free port and returns
// the port, the process, its stdout and a scanner past the inspector's
// banner on its stderr.
func inspectedNode(t *testing.T, node, src string) (string, *proc.Process, io.Reader, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(node, "--inspect=127.0.0.1:0", src)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	sc := bufio.NewScanner(stderr)
	port := ""
	for port == "" && sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "ws://127.0.0.1:"); ok {
			port, _, _ = strings.Cut(rest, "/")
		}
	}
	return port, p, stdout, sc
}

// An attach pauses an idle program (a timer loop) in its own code, with a
// stack: the inspector's pause lands in Node's timer code, and a stop
// there had no frame to show under justMyCode; a pause asked for while
// node starts was now and then never taken (the attach waited out its
// timeout).
func TestNodeAttachPausesAnIdleProgramInItsOwnCode(t *testing.T) {
	h := newHarness(t)
	node := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	src := nodeProgram(t, "serve.js")
	for range 3 {
		cmd := exec.Command(node, "--inspect=127.0.0.1:0", src)
		port, _ := startForAttach(t, cmd, cmd.StderrPipe, regexp.MustCompile(`ws://127\.0\.0\.1:(\d+)/`))
		id := h.sessionFor("javascript")
		att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "timeout": 10000})
		if att.str("state") != "paused" || att.str("stopReason") != "pause" || att.stopFile(t) != src {
			t.Fatalf("attach should pause the idle program in serve.js: %v", att)
		}
		if st := h.ok("get_stack_trace", map[string]any{"sessionId": id}); len(st.list("stackFrames")) == 0 {
			t.Fatalf("a paused attach has a stack: %v", st)
		}
		h.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": false})
		if again := h.ok("pause_execution", map[string]any{"sessionId": id}); again.stopFile(t) != src {
			t.Errorf("pause_execution on the idle program stops in its code: %v", again)
		}
		h.ok("close_debug_session", map[string]any{"sessionId": id})
	}
}

func TestNodeAttachByPortAndDetach(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	node := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	src := nodeProgram(t, "serve.js")
	port, p, stdout, sc := inspectedNode(t, node, src)
	lastErr := make(chan string, 1)
	go func() {
		last := ""
		for sc.Scan() {
			last = sc.Text()
		}
		lastErr <- last
	}()
	ticks := make(chan string, 1000)
	go func() {
		out := bufio.NewScanner(stdout)
		for out.Scan() {
			select {
			case ticks <- out.Text():
			default:
			}
		}
		close(ticks)
	}()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	// Attaching pauses the program (the default), for the agent to look
	// around before it goes on.
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port})
	if att.str("state") != "paused" {
		t.Fatalf("attach should pause the program: %v", att)
	}
	snap := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 10000})
	wantStop(t, snap, "breakpoint", 6)
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "typeof ticks"}); ev.str("result") != `"number"` {
		t.Fatalf("evaluate: %v", ev)
	}
	h.ok("detach_from_process", map[string]any{"sessionId": id})
	// Detached, the program runs on: its ticks keep coming.
	for len(ticks) > 0 {
		<-ticks
	}
	if _, ok := <-ticks; !ok || p.Exited() {
		select {
		case last := <-lastErr:
			t.Fatalf("the program stopped after detach; its last stderr line: %q", last)
		case <-time.After(5 * time.Second):
			t.Fatal("the program stopped printing after detach")
		}
	}
}

func TestNodeTraceFunctionOfAModule(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	// weigh is weigh.js's own function: not reachable from the global
	// scope, and weigh.js is not loaded yet when the trace is set.
	h.ok("trace_function", map[string]any{"sessionId": id, "function": "weigh"})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nodeProgram(t, "loop.js")})
	if end.str("state") != "stopped" || end.num("exitCode") != 3 {
		t.Fatalf("a trace never stops the program: %v", end)
	}
	_, calls := traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
	if len(calls) != 5 {
		t.Fatalf("want 5 calls: %v", calls)
	}
	if table := calls[0].table; table.str("function") != "weigh" || table.num("line") != 5 {
		t.Errorf("the table names the function and its line: %v", table)
	}
	for i, call := range calls {
		if call.str("item") != itoa(i+1) || call.str("factor") != "10" {
			t.Errorf("call %d: %v", i, call.cells)
		}
		if v := call.str("return"); v != fmt.Sprintf(`"w%d"`, (i+1)*10) {
			t.Errorf("return %d: %v", i, call.cells)
		}
	}
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); strings.Count(all, "item ") != 5 {
		t.Errorf("the program's output: %q", all)
	}
}

func TestNodeDebugTestStopsAtTheFailingAssertion(t *testing.T) {
	h := newHarness(t)
	file := nodeProgram(t, filepath.Join("test", "cart.test.js"))
	res := h.ok("debug_test", map[string]any{"language": "javascript", "path": file})
	test := res.obj("test")
	if test.str("runner") != "node:test" || test["failed"] != true || test.str("name") != "total with discount" {
		t.Fatalf("debug_test names the failing test: %v", res)
	}
	if m := test.str("message"); !strings.HasPrefix(m, "AssertionError: discounted total") || !strings.Contains(m, "30 !== 40") {
		t.Errorf("the assertion's message: %q", m)
	}
	// The assertion throws inside node:assert; the snapshot shows the
	// test's own frame.
	wantStop(t, res, "exception", 15)
	if loc := res.obj("location"); res.stopFile(t) != file {
		t.Errorf("the stop should be shown in the test file: %v", loc)
	}
	if l := res.vars("locals"); l["got"] != "30" || l["prices"] != "[10, 20, 30]" {
		t.Errorf("the snapshot shows the test's locals: %v", l)
	}
	id := res.str("sessionId")
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "total(prices, 0)"}); ev.str("result") != "60" {
		t.Errorf("the session stays open for inspection: %v", ev)
	}

	passing := h.ok("debug_test", map[string]any{"language": "javascript", "path": file, "name": "total without discount"})
	if pt := passing.obj("test"); pt["passed"] != true || pt["failed"] != false || passing.str("state") != "stopped" {
		t.Errorf("a passing test: %v", passing)
	}
}

func TestNodeDebugTestShowsTheFrameThatThrew(t *testing.T) {
	h := newHarness(t)
	file := nodeProgram(t, filepath.Join("test", "price.test.js"))
	res := h.ok("debug_test", map[string]any{"language": "javascript", "path": file})
	test := res.obj("test")
	if test["failed"] != true || test.str("name") != "parses a word" {
		t.Fatalf("debug_test names the failing test: %v", res)
	}
	if m := test.str("message"); !strings.Contains(m, "TypeError") || !strings.Contains(m, "not a price: twelve") {
		t.Errorf("the exception's message: %q", m)
	}
	// parsePrice throws; the snapshot stays where it threw, not in the
	// test that called it.
	wantStop(t, res, "exception", 8)
	if loc := res.obj("location"); res.stopFile(t) != nodeProgram(t, filepath.Join("test", "price.js")) || loc.str("function") != "parsePrice" {
		t.Errorf("the stop should be shown in parsePrice: %v", loc)
	}
	if l := res.vars("locals"); l["trimmed"] != `"twelve"` || l["text"] != `" twelve "` {
		t.Errorf("the snapshot shows the throwing frame's locals: %v", l)
	}
}

func TestNodeJustMyCodeSkipsNodeModules(t *testing.T) {
	src := nodeProgram(t, filepath.Join("jmc", "main.js"))
	lib := nodeProgram(t, filepath.Join("jmc", "node_modules", "lib", "index.js"))
	for _, tc := range []struct {
		name       string
		justMyCode bool
		file       string
		line       int
	}{
		// lib.apply is a package's: stepping into it lands in the user's
		// callback it calls.
		{"skipped", true, src, 7},
		{"shown when asked", false, lib, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor("javascript")
			h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 10})
			snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "dapLaunchArgs": map[string]any{"justMyCode": tc.justMyCode}})
			wantStop(t, snap, "breakpoint", 10)
			into := h.ok("step_into", map[string]any{"sessionId": id})
			wantStop(t, into, "step", tc.line)
			if f := into.stopFile(t); f != tc.file {
				t.Fatalf("step into should land in %s, got %s", tc.file, f)
			}
		})
	}
}

func TestNodeAttachByProcessID(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	node := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	// SIGUSR1 opens the inspector on --inspect-port (default 9229, which
	// a test must not assume free).
	port := freePort(t)
	src := nodeProgram(t, "serve.js")
	cmd := exec.Command(node, fmt.Sprintf("--inspect-port=127.0.0.1:%d", port), src)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	ticks := bufio.NewScanner(stdout)
	if !ticks.Scan() {
		t.Fatal("serve.js printed nothing")
	}
	go func() {
		for ticks.Scan() {
		}
	}()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	h.ok("attach_to_process", map[string]any{"sessionId": id, "processId": p.Pid(), "port": port, "waitForStop": false})
	snap := h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 10000})
	wantStop(t, snap, "breakpoint", 6)
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "process.pid"}); ev.str("result") != fmt.Sprint(p.Pid()) {
		t.Fatalf("evaluate in the attached process: %v", ev)
	}
	h.ok("detach_from_process", map[string]any{"sessionId": id})
	if p.Exited() {
		t.Fatal("detach should leave the program running")
	}
}

// nodeStripsTypes reports whether the node on PATH runs .ts files itself
// (type stripping: Node 22.6 and later, behind a flag the adapter adds
// before 22.18), and its version.
func nodeStripsTypes(t *testing.T) (bool, string) {
	node := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	out, err := exec.Command(node, "-p", "process.versions.node").Output()
	if err != nil {
		t.Fatal(err)
	}
	version := strings.TrimSpace(string(out))
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d", &major, &minor); err != nil {
		t.Fatalf("node version %q: %v", version, err)
	}
	return major > 22 || major == 22 && minor >= 6, version
}

func TestNodeTypeScriptWithoutARunner(t *testing.T) {
	if strips, version := nodeStripsTypes(t); strips {
		t.Skipf("node %s runs TypeScript itself (TestNodeTypeScriptStripped covers it)", version)
	}
	// A copy outside the repository: no tsx or ts-node in a node_modules
	// above it.
	dir := t.TempDir()
	data, err := os.ReadFile(nodeProgram(t, filepath.Join("ts", "src", "weigh.ts")))
	if err != nil {
		t.Fatal(err)
	}
	ts := filepath.Join(dir, "weigh.ts")
	if err := os.WriteFile(ts, data, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	id := h.sessionFor("typescript")
	h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": ts}, "no tsx or ts-node was found")
}

// TestNodeTypeScriptStripped runs a .ts program as written, with Node's
// type stripping: no build, no source map; the scripts are the .ts files
// themselves, so breakpoints in them bind by their own lines. Only Node
// 22.6 and later can (make test-matrix runs it under Node 22).
func TestNodeTypeScriptStripped(t *testing.T) {
	if strips, version := nodeStripsTypes(t); !strips {
		t.Skipf("node %s cannot run TypeScript itself (Node 22.6 or later can; TestNodeTypeScriptWithoutARunner covers it)", version)
	}
	h := newHarness(t)
	id := h.sessionFor("typescript")
	main, helper := nodeProgram(t, "strip/loop.ts"), nodeProgram(t, "strip/weigh.ts")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": helper, "line": 8})
	if bp.num("line") != 8 {
		t.Fatalf("set_breakpoint: %v", bp)
	}
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": main})
	wantStop(t, snap, "breakpoint", 8)
	if loc := snap.obj("location"); snap.stopFile(t) != helper || loc.str("function") != "weigh" {
		t.Fatalf("location: %v", loc)
	}
	if l := snap.vars("locals"); l["item"] != "1" || l["factor"] != "10" {
		t.Fatalf("locals: %v", l)
	}
	frames := h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(frames) < 2 || frames[1].str("file") != main || frames[1].num("line") != 16 {
		t.Fatalf("caller frame should be loop.ts:16: %v", frames)
	}
	over := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 9)
	if l := over.vars("locals"); l["scaled"] != "10" {
		t.Fatalf("locals after the step: %v", l)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "scaled + factor"}); ev.str("result") != "20" {
		t.Fatalf("evaluate: %v", ev)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("end: %v", end)
	}
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(all, "strip total 60") {
		t.Fatalf("output: %q", all)
	}
}

func TestNodeStepOutShowsTheReturnValue(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	src := nodeProgram(t, "fact.js")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 5, "condition": "n === 3"})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}), "breakpoint", 5)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	// Out of fact(3) while its recursive calls run, then out of the
	// callers, each time with the value the function returned.
	for _, want := range []struct {
		line     int
		n, value string
	}{{6, "4", "6"}, {6, "5", "24"}, {9, "", "120"}} {
		out := h.ok("step_out", map[string]any{"sessionId": id})
		l := out.vars("locals")
		if out.obj("location").num("line") != want.line || l["n"] != want.n && want.n != "" || l["(return) fact"] != want.value {
			t.Fatalf("step out: want line %d, n %s, (return) fact %s: %v %v", want.line, want.n, want.value, out.obj("location"), l)
		}
	}
}
