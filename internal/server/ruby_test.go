package server

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/ruby"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests: the MCP tools on real rdbg and real Ruby programs
// (testdata/ruby, whose README lists the lines used here).

func rubyProgram(t *testing.T, name string) string {
	return filepath.Join(repoRoot(t), "testdata", "ruby", name)
}

// rdbgName is how "not supported" answers name the rdbg found here: with
// the version it reports ("rdbg 1.6.3"), never a hard-coded one.
func rdbgName(t *testing.T) string {
	v := testenv.RequireAdapter(t, "ruby").Version
	if v == "" {
		t.Fatal("rdbg reports no version")
	}
	return "rdbg " + v
}

func TestRubyBreakpointStepsAndEvaluate(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12})

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 12)
	if l := snap.vars("locals"); l["i"] != "1" || l["%self"] != "" {
		t.Fatalf("locals at the first hit (i, and not rdbg's %%self): %v", l)
	}
	if strings.Contains(snap.str("output"), "Ruby REPL") {
		t.Errorf("rdbg's REPL banner is not the program's output: %q", snap.str("output"))
	}
	wantStop(t, h.ok("step_into", map[string]any{"sessionId": id}), "step", 4)
	over := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 5)
	if l := over.vars("locals"); l["scaled"] != "10" || l["item"] != "1" {
		t.Fatalf("locals in weigh: %v", l)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "scaled + factor"}); ev.str("result") != "20" {
		t.Fatalf("evaluate: %v", ev)
	}
	out := h.ok("step_out", map[string]any{"sessionId": id})
	// rdbg's step out (its `fin`) stops on the method's return, at its end.
	if l := out.obj("location").num("line"); out.str("state") != "paused" || l != 7 && l != 12 && l != 13 {
		t.Fatalf("step out: %v", out)
	}
	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, next, "breakpoint", 12)
	if l := next.vars("locals"); l["i"] != "2" {
		t.Fatalf("locals at the second hit: %v", l)
	}
	// Removing the breakpoint must really stop it from hitting (rdbg 1.4
	// ignores an empty set; 1.6 clears the file's breakpoints itself).
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 3 {
		t.Fatalf("the program should run to its end (exit 3): %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	if !strings.Contains(all, "item 5 total 15\n") || !strings.Contains(all, "done with 5 items\n") || strings.Contains(all, "DEBUGGER:") {
		t.Fatalf("program output: %q", all)
	}
}

func TestRubyConditionalBreakpointAndUnsupported(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 4, "condition": "item == 3"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 4)
	if l := snap.vars("locals"); l["item"] != "3" {
		t.Fatalf("conditional breakpoint stopped with %v", l)
	}
	// Function breakpoints: rdbg (1.4 and 1.6) accepts them and sets
	// nothing.
	h.fail("set_breakpoint", map[string]any{"sessionId": id, "function": "weigh"}, "function breakpoints are not supported by "+rdbgName(t))
	// The session survives the refusal.
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "item * factor"}); ev.str("result") != "30" {
		t.Fatalf("evaluate after the refusal: %v", ev)
	}
	// Removing a breakpoint while paused on it, then moving on, must not
	// stop there again.
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 4})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 13)
	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, next, "breakpoint", 13)
	if l := next.vars("locals"); l["i"] != "4" {
		t.Fatalf("the removed breakpoint hit again? locals %v", l)
	}
}

func TestRubyUncaughtException(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": rubyProgram(t, "raise.rb"), "breakOnExceptions": "all"})
	wantStop(t, snap, "exception", 3)
	if l := snap.vars("locals"); l["order"] != "3" {
		t.Fatalf("locals at the exception: %v", l)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 1 {
		t.Fatalf("the program should end with code 1: %v", end)
	}
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(all, "bad order 3 (ArgumentError)") {
		t.Fatalf("output: %q", all)
	}
}

// rdbgOpen starts src under `rdbg --open` on a port the kernel picks (the
// way README tells a container to) and returns it and the port once the program can be attached to: held at its first
// line ("wait for debugger connection" on stderr), or, with --nonstop,
// running (src prints "spinning").
// rdbgCommand runs the rdbg the tests found: a Ruby script (the gem's
// exe/rdbg) through ruby, a wrapper of its own (into a chroot or a
// container, as the version matrix's rows run) as it is.
func rdbgCommand(t *testing.T, ruby, rdbg string) []string {
	t.Helper()
	f, err := os.Open(rdbg)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	first, _ := bufio.NewReader(io.LimitReader(f, 256)).ReadString('\n')
	if strings.HasPrefix(first, "#!") && !strings.Contains(first, "ruby") {
		return []string{rdbg}
	}
	return []string{ruby, rdbg}
}

func rdbgOpen(t *testing.T, src string, nonstop bool) (*proc.Process, string) {
	t.Helper()
	ruby := testenv.RequireTool(t, "apt-get install -y ruby", "ruby")
	av := testenv.RequireAdapter(t, "ruby")
	args := append(rdbgCommand(t, ruby, av.Path), "--open", "--host", "127.0.0.1", "--port", "0")
	if nonstop {
		args = append(args, "--nonstop")
	}
	cmd := exec.Command(args[0], append(args[1:], "--", src)...)
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
	// rdbg 1.6 prints its address and "wait for debugger connection" in
	// either order.
	sc := bufio.NewScanner(stderr)
	port, waiting := "", nonstop
	for (port == "" || !waiting) && sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "TCP/IP (127.0.0.1:"); ok {
			port, _, _ = strings.Cut(rest, ")")
		}
		waiting = waiting || strings.Contains(sc.Text(), "wait for debugger connection")
	}
	if port == "" || !waiting {
		t.Fatalf("rdbg printed no address or never waited (port %q)", port)
	}
	out := bufio.NewScanner(stdout)
	if nonstop {
		for out.Scan() && out.Text() != "spinning" {
		}
	}
	// Drain both until the program is killed at the end of the test.
	go func() {
		for sc.Scan() {
		}
	}()
	go func() {
		for out.Scan() {
		}
	}()
	return p, port
}

// rdbg 1.6 leaves a running program running on attach (1.4 paused it):
// stopOnEntry must still pause it.
func TestRubyAttachStopOnEntryPausesARunningProgram(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "spin.rb")
	_, port := rdbgOpen(t, src, true)
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "stopOnEntry": true, "timeout": 10000})
	loc := att.obj("location")
	if att.str("state") != "paused" || att.str("stopReason") != "pause" || att.stopFile(t) != src || loc.num("line") < 5 || loc.num("line") > 8 {
		t.Fatalf("attach with stopOnEntry: %v", att)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": id})
}

// debug_test on minitest: the failed assertion stops in the test method.
func TestRubyDebugTestStopsAtTheFailingAssertion(t *testing.T) {
	h := newHarness(t)
	h.sessionFor("ruby")
	src := rubyProgram(t, "test_cart.rb")
	res := h.ok("debug_test", map[string]any{"language": "ruby", "path": src})
	test := res.obj("test")
	if test.str("runner") != "minitest" || test["failed"] != true || test.str("name") != "CartTest#test_total_with_discount" {
		t.Fatalf("debug_test names the failing test: %v", res)
	}
	if m := test.str("message"); m != "discounted total. Expected: 40 Actual: 30.0" {
		t.Errorf("the assertion's message: %q", m)
	}
	if loc := res.obj("location"); loc.num("line") != 16 || res.stopFile(t) != src {
		t.Errorf("the snapshot shows the test's frame: %v", loc)
	}
	if l := res.vars("locals"); l["got"] != "30.0" {
		t.Errorf("the test's locals: %v", l)
	}
	passing := h.ok("debug_test", map[string]any{"language": "ruby", "path": src, "name": "test_total_without_discount"})
	if pt := passing.obj("test"); pt["passed"] != true || passing.str("state") != "stopped" {
		t.Errorf("a passing test: %v", passing)
	}
}

// rdbg -c runs the program when it is spawned, so dapLaunchArgs env and cwd
// reach it only through the spawn, never through the launch request.
func TestRubyDapLaunchArgsEnvAndCwdReachTheProgram(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	dir := filepath.Join(repoRoot(t), "testdata", "ruby", "bundled")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src,
		"dapLaunchArgs": map[string]any{"env": map[string]any{"MCP_RUBY_ENV_PROBE": "probe-16"}, "cwd": dir}})
	wantStop(t, snap, "breakpoint", 12)
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "ENV['MCP_RUBY_ENV_PROBE']"}); ev.str("result") != `"probe-16"` {
		t.Errorf("dapLaunchArgs env in the program: %v", ev)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "Dir.pwd"}); ev.str("result") != `"`+dir+`"` {
		t.Errorf("dapLaunchArgs cwd in the program (want %s): %v", dir, ev)
	}
}

// What the program printed before a stop can be read while it is paused
// there, not only once it ends.
func TestRubyOutputReadableWhilePaused(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12, "condition": "i == 3"})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}), "breakpoint", 12)
	h.waitForOutput(id, "item 2 total 3\n")
}

// An uncaught exception with no exception breakpoint ends the run stopped,
// with ruby's exit code 1 and the error in the output.
func TestRubyUncaughtExceptionEndsStoppedWithItsExitCode(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": rubyProgram(t, "raise.rb")})
	if end.str("state") != "stopped" || end.num("exitCode") != 1 {
		t.Fatalf("the raising program should end stopped with code 1: %v", end)
	}
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(all, "bad order 3 (ArgumentError)") {
		t.Fatalf("output: %q", all)
	}
}

// rdbg has no logpoints (it ignores logMessage and stops): the session
// stops, writes the interpolated message to the output and continues, and
// the answer says so.
func TestRubyLogpointPrintsWithoutPausing(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13, "logMessage": "LP i={i} w={w}"})
	if !strings.Contains(strings.ToLower(bp.str("warning")), "unknown") {
		t.Errorf("the logpoint's answer: %v", bp)
	}
	if listed := h.ok("list_breakpoints", map[string]any{"sessionId": id}); listed.list("breakpoints")[0].str("logMessage") != "LP i={i} w={w}" {
		t.Errorf("the logpoint's message: %v", listed)
	}
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	if end.str("state") != "stopped" || end.num("exitCode") != 3 {
		t.Fatalf("the logpoint must not pause the program: %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	if !strings.Contains(all, "LP i=1 w=\"w10\"\n") || !strings.Contains(all, "LP i=5 w=\"w50\"\n") || !strings.Contains(all, "item 5 total 15\n") {
		t.Fatalf("the logpoint's lines in the output: %q", all)
	}
}

// Breakpoints removed while the program runs (not paused) no longer stop
// it: remove_breakpoint one, then clear_breakpoints the rest.
func TestRubyBreakpointsRemovedWhileRunningDoNotStop(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "gate.rb")
	gate := filepath.Join(t.TempDir(), "gate")
	open := func(round string) {
		if err := os.WriteFile(gate+"."+round, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 5})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 8})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "args": []string{gate}}), "breakpoint", 5)
	h.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": false})
	h.waitForOutput(id, "round 0\n")

	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 5})
	open("0")
	// Line 5 prints the round: a breakpoint still there would stop the
	// program before it does.
	h.waitForOutput(id, "round 1\n")

	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	open("1")
	open("2")
	end := h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 30000})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("the cleared breakpoint on line 8 stopped the program, or it did not end: %v", end)
	}
}
