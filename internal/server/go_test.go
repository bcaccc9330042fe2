package server

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/golang"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests: the MCP tools on real Delve and real Go programs
// (testdata/go, whose README lists the lines used here).

func goProgram(t *testing.T, parts ...string) string {
	return filepath.Join(append([]string{repoRoot(t), "testdata", "go"}, parts...)...)
}

// buildGo builds a testdata program without optimizations into a temp dir.
func buildGo(t *testing.T, name string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command("go", "build", "-gcflags=all=-N -l", "-o", out, ".")
	cmd.Dir = goProgram(t, name)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, b)
	}
	return out
}

func TestGoBreakpointStepsAndEvaluate(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	dir := goProgram(t, "loop")
	src := goProgram(t, "loop", "main.go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 27})

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": dir})
	wantStop(t, snap, "breakpoint", 27)
	if l := snap.vars("locals"); l["i"] != "0" || l["total"] != "0" || !strings.Contains(l["it"], "widget") {
		t.Fatalf("locals at the first hit: %v", l)
	}
	if snap.num("threadId") == 0 {
		t.Errorf("the snapshot should name the goroutine that stopped: %v", snap)
	}
	// A struct, a slice and a map expand through their references.
	want := map[string]map[string]string{
		"it":     {"Name": `"widget"`, "Count": "3"},
		"values": {"[0]": "10", "[2]": "30"},
		"tags":   {`"a"`: "1", `"b"`: "2"},
	}
	for _, v := range h.ok("get_local_variables", map[string]any{"sessionId": id}).list("variables") {
		w, ok := want[v.str("name")]
		if !ok {
			continue
		}
		delete(want, v.str("name"))
		got := h.ok("get_variables", map[string]any{"sessionId": id, "scope": v.num("variablesReference")}).vars("variables")
		for k, val := range w {
			if got[k] != val {
				t.Errorf("%s expanded: %v, want %s = %s", v.str("name"), got, k, val)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("locals missing: %v", want)
	}

	in := h.ok("step_into", map[string]any{"sessionId": id})
	if in.obj("location").str("function") != "main.weigh" {
		t.Fatalf("step_into should enter weigh: %v", in["location"])
	}
	over := h.ok("step_over", map[string]any{"sessionId": id})
	if over.obj("location").str("function") != "main.weigh" || over.obj("location").num("line") <= in.obj("location").num("line") || over.str("stopReason") != "step" {
		t.Errorf("step_over inside weigh: %v", over)
	}
	out := h.ok("step_out", map[string]any{"sessionId": id})
	if out.obj("location").str("function") != "main.main" {
		t.Errorf("step_out should return to main: %v", out["location"])
	}

	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, next, "breakpoint", 27)
	if l := next.localsAfter(snap, out); l["i"] != "1" || l["total"] != "0" {
		t.Errorf("locals at the second hit: %v", l)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "i * 10 + len(values)"}); ev.str("result") != "13" {
		t.Errorf("evaluate: %v", ev)
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "no_such_name"}, "no_such_name")
	threads := h.ok("list_threads", map[string]any{"sessionId": id})
	if threads.num("count") < 1 || !strings.Contains(threads.list("threads")[0].str("name"), "main.main") {
		t.Errorf("goroutines: %v", threads)
	}

	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 3 {
		t.Errorf("the program should run to the end with exit code 3: %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	for _, want := range []string{"weighing 4\n", "stderr 4\n", "total 30 widget 3 2"} {
		if !strings.Contains(all, want) {
			t.Errorf("output %q missing from %q", want, all)
		}
	}
	if strings.Contains(all, "dlv help") {
		t.Errorf("Delve's own console line is not program output: %q", all)
	}
}

func TestGoConditionalAndFunctionBreakpoints(t *testing.T) {
	h := newHarness(t)
	dir := goProgram(t, "loop")
	src := goProgram(t, "loop", "main.go")

	id := h.sessionFor("go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 15, "condition": "item == 2"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": dir})
	wantStop(t, snap, "breakpoint", 15)
	if snap.vars("locals")["item"] != "2" {
		t.Errorf("condition item == 2: %v", snap.vars("locals"))
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "item * factor"}); ev.str("result") != "6" {
		t.Errorf("evaluate item * factor: %v", ev)
	}

	id = h.sessionFor("go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "weigh"})
	snap = h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	if snap.str("state") != "paused" || snap.obj("location").str("function") != "main.weigh" {
		t.Fatalf("function breakpoint by plain name: %v", snap)
	}
	bps := h.ok("list_breakpoints", map[string]any{"sessionId": id})
	t.Logf("breakpoints: %v", bps)
}

func TestGoBuildErrorVerbatim(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	out := h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "bad")}, "main.go:4:2: declared and not used: x")
	t.Logf("build error: %v", out["error"])
	// The build's temp binary never lands in the user's tree.
	if m, _ := filepath.Glob(goProgram(t, "bad", "__debug_bin*")); len(m) > 0 {
		t.Errorf("debug binary left in the package: %v", m)
	}
}

func TestGoStopOnEntry(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "loop"), "stopOnEntry": true})
	if snap.str("state") != "paused" || snap.str("stopReason") != "entry" {
		t.Fatalf("stopOnEntry: %v", snap)
	}
	if note := snap.str("localsNote"); strings.Contains(note, "unknown goroutine") || strings.Contains(note, "unavailable") {
		t.Errorf("entry stop shows an error: %q", note)
	}
	if st := h.ok("get_stack_trace", map[string]any{"sessionId": id}); len(st.list("stackFrames")) != 0 {
		t.Errorf("stack on entry: %v", st)
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": goProgram(t, "loop", "main.go"), "line": 15})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 15)
}

func TestGoPanicStops(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "panics")})
	if snap.str("state") != "paused" || snap.str("stopReason") != "exception" {
		t.Fatalf("panic stop: %v", snap)
	}
	if ex := snap.obj("exception"); !strings.Contains(ex.str("description")+ex.str("message"), "negative value: -1") {
		t.Errorf("panic value: %v", snap["exception"])
	}
	if loc := snap.obj("location"); loc.str("function") != "main.check" || loc.num("line") != 8 {
		t.Errorf("panic location should be where it was raised: %v", loc)
	}
}

func TestGoTestMode(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	src := goProgram(t, "calc", "calc.go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "calc", "calc_test.go"), "args": []string{"-test.run", "^TestSub$", "-test.v"}})
	wantStop(t, snap, "breakpoint", 12)
	if l := snap.vars("locals"); l["a"] != "5" || l["b"] != "3" {
		t.Errorf("locals in Sub: %v", l)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Errorf("the test run should pass and end: %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	if !strings.Contains(all, "--- PASS: TestSub") || strings.Contains(all, "TestAdd") {
		t.Errorf("only TestSub should run: %q", all)
	}

	// A plain function name in a package other than main.
	id = h.sessionFor("go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "Add"})
	snap = h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "calc", "calc_test.go")})
	if loc := snap.obj("location"); snap.str("state") != "paused" || !strings.HasSuffix(loc.str("function"), "calc.Add") {
		t.Errorf("function breakpoint Add in test mode: %v", snap)
	}
}

// startWaiter starts the built waiter program and waits for its "ready".
func startWaiter(t *testing.T, cmd *exec.Cmd, ready string) (*proc.Process, *bufio.Scanner) {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if strings.Contains(sc.Text(), ready) {
			return p, sc
		}
	}
	t.Fatalf("%s never printed %q", cmd.Path, ready)
	return nil, nil
}

func TestGoAttachByProcessID(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	bin := buildGo(t, "waiter")
	p, sc := startWaiter(t, exec.Command(bin), "ready")
	go func() {
		for sc.Scan() {
		}
	}()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": goProgram(t, "waiter", "main.go"), "line": 10})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "processId": p.Pid(), "waitForStop": true, "timeout": 60000})
	wantStop(t, att, "breakpoint", 10)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	det := h.ok("detach_from_process", map[string]any{"sessionId": id})
	if det.str("state") != "stopped" {
		t.Errorf("detach: %v", det)
	}
	if !proc.Alive(p.Pid()) {
		t.Errorf("the program should keep running after detach")
	}
}

func TestGoAttachToHeadlessDelve(t *testing.T) {
	h := newHarness(t)
	av := testenv.RequireAdapter(t, "go")
	id := h.sessionFor("go")
	bin := buildGo(t, "waiter")
	// The user's own headless dlv: one older than the Go toolchain (Delve
	// 1.25.2 under Go 1.26.8, make test-matrix) refuses the binary and
	// exits just after listening unless told not to check.
	cmd := exec.Command(av.Path, "exec", "--headless", "--accept-multiclient", "--check-go-version=false", "--listen", "127.0.0.1:0", bin)
	_, sc := startWaiter(t, cmd, "API server listening at:")
	line := sc.Text()
	go func() {
		for sc.Scan() {
		}
	}()
	addr := strings.TrimSpace(line[strings.Index(line, "at:")+3:])
	host, port, _ := strings.Cut(addr, ":")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": goProgram(t, "waiter", "main.go"), "line": 10})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": host, "port": port, "waitForStop": true, "timeout": 60000})
	wantStop(t, att, "breakpoint", 10)
	if att.vars("locals")["n"] == "" {
		t.Errorf("locals after attach: %v", att.vars("locals"))
	}
}

func TestGoDryRun(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	dry := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "loop"), "dryRunSpawn": true})
	req := dry.obj("data").obj("launchRequest")
	if req.str("mode") != "debug" || req.str("outputMode") != "remote" || !strings.HasPrefix(req.str("output"), os.TempDir()) {
		t.Errorf("dry run: %v", dry)
	}
	// The reference's contract: a dry run leaves the session stopped and
	// says it was one.
	if !strings.Contains(dry.obj("data").str("message"), "Dry run spawn command logged by proxy.") {
		t.Errorf("a dry run's data.message has the reference's words its clients match: %v", dry["data"])
	}
	if dry.str("state") != "stopped" || dry.obj("data")["dryRun"] != true {
		t.Errorf("a dry run answers state stopped and data.dryRun: %v", dry)
	}
}

func TestGoPauseAndGoroutines(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	run := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "waiter"), "waitForStop": false})
	if run.str("state") != "running" {
		t.Fatalf("start: %v", run)
	}
	// Pause once the loop runs: waiter prints "ready" just before it.
	h.waitForOutput(id, "ready")
	paused := h.ok("pause_execution", map[string]any{"sessionId": id})
	if paused.str("state") != "paused" || paused.str("stopReason") != "pause" {
		t.Fatalf("pause: %v", paused)
	}
	// Delve may report the pause on a thread that runs no goroutine; the
	// snapshot then shows the first goroutine listed, never no thread.
	if paused.num("threadId") == 0 || paused["location"] == nil {
		t.Errorf("a pause should show a thread and where it is: %v", paused)
	}
	threads := h.ok("list_threads", map[string]any{"sessionId": id})
	var mainID int
	for _, th := range threads.list("threads") {
		if strings.Contains(th.str("name"), "[Go 1]") {
			mainID = th.num("id")
		}
	}
	if mainID == 0 || threads.num("count") < 2 {
		t.Fatalf("goroutines should include goroutine 1 (main) and the runtime's: %v", threads)
	}
	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id, "threadId": mainID, "includeInternals": true})
	found := false
	for _, f := range stack.list("stackFrames") {
		found = found || f.str("name") == "main.main"
	}
	if !found {
		t.Errorf("stack of goroutine %d: %v", mainID, stack)
	}
}

// TestGoLongSlicePaged: a long slice is paged, not dumped; get_variables
// reads any page of it.
func TestGoLongSlicePaged(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": goProgram(t, "big", "main.go"), "line": 12})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "big")})
	wantStop(t, snap, "breakpoint", 12)
	var ref int
	for _, v := range snap.list("locals") {
		if v.str("name") == "big" {
			ref = v.num("variablesReference")
		}
	}
	if ref == 0 {
		t.Fatalf("big should be expandable: %v", snap["locals"])
	}
	first := h.ok("get_variables", map[string]any{"sessionId": id, "scope": ref})
	if n := first.num("count"); n == 0 || n >= 1000 {
		t.Errorf("a 1000-element slice should come paged, got %d children", n)
	}
	page := h.ok("get_variables", map[string]any{"sessionId": id, "scope": ref, "start": 500, "count": 3})
	got := page.list("variables")
	if len(got) != 3 || got[0].str("name") != "[500]" || got[0].str("value") != "1000" || got[2].str("value") != "1004" {
		t.Errorf("page 500..502: %v", got)
	}
}

// TestGoRuntimeErrorsStop: a runtime-error panic and a fatal runtime error
// (a deadlock, which is no panic) both stop with a clear reason.
func TestGoRuntimeErrorsStop(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "big")})
	if snap.str("state") != "paused" || snap.str("stopReason") != "exception" || snap.obj("location").num("line") != 13 {
		t.Fatalf("nil-map write should stop at line 13: %v", snap)
	}
	if ex := snap.obj("exception"); !strings.Contains(ex.str("description")+ex.str("message"), "nil map") {
		t.Errorf("exception details: %v", ex)
	}

	id = h.sessionFor("go")
	snap = h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "deadlock")})
	if snap.str("state") != "paused" || snap.str("stopReason") != "exception" {
		t.Fatalf("a deadlock should stop as a fatal error: %v", snap)
	}
	if !strings.Contains(snap.obj("exception").str("message"), "deadlock") || !strings.Contains(snap.str("message"), "all goroutines are asleep") {
		t.Errorf("the stop should say deadlock: %v", snap)
	}
}

// TestGoPointersExpand: a pointer expands to what it points at, and on.
func TestGoPointersExpand(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": goProgram(t, "ptr", "main.go"), "line": 14})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "ptr")})
	wantStop(t, snap, "breakpoint", 14)
	locals := h.ok("get_local_variables", map[string]any{"sessionId": id})
	var head result
	for _, v := range locals.list("variables") {
		if v.str("name") == "head" {
			head = v
		}
	}
	if head == nil || head.num("variablesReference") == 0 {
		t.Fatalf("head should be an expandable pointer: %v", locals)
	}
	deep := h.ok("get_variables", map[string]any{"sessionId": id, "scope": head.num("variablesReference"), "depth": 3})
	text := fmt.Sprint(deep["variables"])
	if !strings.Contains(text, `"head"`) || !strings.Contains(text, `"tail"`) {
		t.Errorf("expanding head three levels should reach tail: %s", text)
	}
}

// delveOffersDataBreakpoints reports whether the dlv under test has DAP data
// breakpoints: its initialize answer has supportsDataBreakpoints from 1.26.2
// on (1.25.2 measured without, 1.27.2 with: make test-matrix runs both).
func delveOffersDataBreakpoints(t *testing.T) bool {
	t.Helper()
	v := testenv.RequireAdapter(t, "go").Version
	r, ok := adapter.ParseRelease(v)
	if !ok {
		t.Fatalf("dlv version %q is not a release", v)
	}
	return r.AtLeast(1, 26, 2)
}

// wantNoDelveDataBreakpoints checks what an agent gets from a Delve without
// data breakpoints: a clear "not supported", and break_on_change by steps
// saying why.
func wantNoDelveDataBreakpoints(t *testing.T, h *harness, id string) {
	t.Helper()
	h.fail("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total"}, "not supported by the go debug adapter")
	found := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "total"})
	if found["changed"] != true || found.str("to") != "3" || found.obj("changedBy").num("line") != 27 || found.str("method") != "single steps" || !strings.Contains(found.str("methodReason"), "has no data breakpoints") {
		t.Errorf("break_on_change should step, saying the adapter has no data breakpoints: %v", found)
	}
}

// TestGoDataBreakpointsOffWithoutWatchpoints: where data breakpoints are
// off (forced here, as on a host whose watchpoints do not fire),
// set_data_breakpoint says why and what to use, and break_on_change finds
// the change by stepping, out of fmt's code rather than through it.
func TestGoDataBreakpointsOffWithoutWatchpoints(t *testing.T) {
	t.Setenv(adapter.WatchpointsEnv, "off")
	h := newHarness(t)
	id := h.pausedBeforeTotalChanges("go", goProgram(t, "loop", "main.go"), goProgram(t, "loop"), 24)
	if !delveOffersDataBreakpoints(t) {
		wantNoDelveDataBreakpoints(t, h, id)
		return
	}

	refused := h.fail("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total"}, adapter.WatchpointsEnv+"=off")
	if !strings.Contains(refused.str("error"), "break_on_change") {
		t.Errorf("the refusal should say what to use instead: %v", refused)
	}
	// total += weigh(i, 3) (line 27) writes 0 on the first pass, 3 on the
	// second; each pass calls fmt.Printf and fmt.Fprintf first.
	found := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "total"})
	stepsWithoutWatchpoints(t, found, "0", "3", 27)
	// changedBy leaves out the function it shares with the stop's location.
	if cmp.Or(found.obj("changedBy").str("function"), found.obj("location").str("function")) != "main.main" || found.str("state") != "paused" || found.vars("locals")["total"] != "3" {
		t.Errorf("the program stays paused just after the change, in main.main: %v", found)
	}
	if found.num("steps") > 100 {
		t.Errorf("%d steps: fmt's code should be stepped out of, not through", found.num("steps"))
	}
}

// TestGoDataBreakpointStopsOnWrite: where hardware watchpoints fire, a
// data breakpoint on a local stops the program at the write, and
// break_on_change uses one (elsewhere the agent is told why not).
func TestGoDataBreakpointStopsOnWrite(t *testing.T) {
	h := newHarness(t)
	id := h.pausedBeforeTotalChanges("go", goProgram(t, "loop", "main.go"), goProgram(t, "loop"), 24)
	if !delveOffersDataBreakpoints(t) {
		wantNoDelveDataBreakpoints(t, h, id)
		return
	}
	if st := hostWatchpoints(t); !st.Usable {
		wantWatchpointsRefused(t, h, id, st, 27)
		t.Skip("hardware watchpoints do not fire on this host (the probe's reason above): the refusal and the stepping fallback were checked, the data breakpoint's changedBy cannot be; TestGoDataBreakpointsOffWithoutWatchpoints and session's TestWritingLocationIsTheStoresLine check the line here")
	}

	found := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "total"})
	// changedBy leaves out the function it shares with the stop's location.
	fn := cmp.Or(found.obj("changedBy").str("function"), found.obj("location").str("function"))
	// total += weigh(i, 3) is line 27, whatever line the watchpoint's
	// stop (just after the store) is on.
	if found["changed"] != true || found.str("from") != "0" || found.str("to") != "3" || fn != "main.main" || found.obj("changedBy").num("line") != 27 {
		t.Errorf("break_on_change should find total 0 -> 3 at line 27, in main.main: %v", found)
	}
	if found.str("method") != "data breakpoint" || found.str("methodReason") != "" {
		t.Errorf("where watchpoints fire, break_on_change uses one: %v", found)
	}

	set := h.ok("set_data_breakpoint", map[string]any{"sessionId": id, "expression": "total"})
	if set.num("breakpointId") == 0 || len(set.list("dataBreakpoints")) != 1 {
		t.Fatalf("set_data_breakpoint: %v", set)
	}
	hit := h.ok("continue_execution", map[string]any{"sessionId": id})
	if hit.str("state") != "paused" || hit.str("stopReason") != "data breakpoint" || hit.obj("location").str("function") != "main.main" {
		t.Errorf("the next write of total (3 -> 9) should stop the program in main.main: %v", hit)
	}
}
