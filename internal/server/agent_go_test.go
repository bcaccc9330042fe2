package server

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// debug_test on go test: a failed t.Errorf is no panic; the run stops where
// the test failed, in the test's own frame, with t.Errorf's message.
func TestGoDebugTestStopsInTheFailingTest(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "go")
	file := goProgram(t, "failing", "cart_test.go")
	res := h.ok("debug_test", map[string]any{"language": "go", "path": file})
	test := res.obj("test")
	if test.str("runner") != "go test" || test["failed"] != true || !strings.HasSuffix(test.str("name"), "TestTotalWithDiscount") {
		t.Fatalf("debug_test names the failing test: %v", res)
	}
	if !strings.Contains(test.str("message"), "cart_test.go:15: discounted total = 30, want 40") {
		t.Errorf("the failure's message: %q", test.str("message"))
	}
	if loc := res.obj("location"); loc.num("line") != 15 || !strings.HasSuffix(loc.str("file"), "cart_test.go") {
		t.Errorf("the snapshot shows the test's frame: %v", loc)
	}
	if l := res.vars("locals"); l["got"] != "30" {
		t.Errorf("the test's locals: %v", l)
	}

	passing := h.ok("debug_test", map[string]any{"language": "go", "path": file, "name": "TestTotalWithoutDiscount"})
	if pt := passing.obj("test"); pt["passed"] != true || passing.str("state") != "stopped" {
		t.Errorf("a passing test: %v", passing)
	}
}

// debug_test selects a subtest by its name as `go test -v` prints it,
// and a name that matches no test is said to have run nothing, never to
// have passed, with the tests there are.
func TestGoDebugTestSubtestsAndNamesThatMatchNothing(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "go")
	file := goProgram(t, "subtests", "tree_test.go")
	for _, name := range []string{"TestSum/array_with_size_11_(whole)", "TestSum/array with size 11 (whole)"} {
		res := h.ok("debug_test", map[string]any{"language": "go", "path": file, "name": name})
		test := res.obj("test")
		if test["failed"] != true || !strings.Contains(test.str("message"), "Sum(0, 10) = 55, want 66") {
			t.Errorf("debug_test %q stops at that subtest's failure: %v", name, res)
		}
	}
	none := h.ok("debug_test", map[string]any{"language": "go", "path": file, "name": "TestSum/no_such_case"})
	test := none.obj("test")
	if test["passed"] == true || test["noneMatched"] != true || !strings.Contains(none.str("message"), "No test ran") {
		t.Fatalf("a name that matches nothing ran nothing, and says so: %v", none)
	}
	if got := fmt.Sprint(test["available"]); !strings.Contains(got, "TestSum") || !strings.Contains(got, "TestEmpty") {
		t.Errorf("the answer lists the tests there are: %v", test)
	}
}

func TestGoWatchesChangesAndRunTo(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	dir := goProgram(t, "loop")
	src := goProgram(t, "loop", "main.go")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 27})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": dir}), "breakpoint", 27)
	if w := h.ok("add_watch", map[string]any{"sessionId": id, "expression": "total*2"}).obj("watch"); w.str("value") != "0" {
		t.Errorf("add_watch: %v", w)
	}
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 27)
	third := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, third, "breakpoint", 27)
	if from, to, ok := changeOf(third, "total"); !ok || from != "0" || to != "3" {
		t.Errorf("total should change 0 -> 3: %v", third["changed"])
	}
	if from, to, ok := changeOf(third, "total*2"); !ok || from != "0" || to != "6" {
		t.Errorf("the watch should change 0 -> 6: %v", third["changed"])
	}
	if blocked := h.ok("run_to", map[string]any{"sessionId": id, "file": src, "line": 29}); blocked["reached"] != false {
		t.Errorf("the breakpoint on line 27 comes first: %v", blocked)
	}
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp.num("breakpointId")})
	reached := h.ok("run_to", map[string]any{"sessionId": id, "file": src, "statement": `fmt.Println("total"`})
	if reached["reached"] != true || reached.obj("location").num("line") != 29 || reached.vars("locals")["total"] != "30" {
		t.Errorf("run_to by statement: %v", reached)
	}
}

func TestGoTracepointsAndFunctionTrace(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	dir := goProgram(t, "loop")
	src := goProgram(t, "loop", "main.go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 25, "collect": []string{"i", "total"}})
	h.ok("trace_function", map[string]any{"sessionId": id, "function": "weigh"})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": dir})
	if end.str("state") != "stopped" || end["exitCode"] != float64(3) {
		t.Fatalf("neither tracepoints nor traces stop the program: %v", end)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); strings.Contains(out, "[Go ") || strings.Contains(out, "mcp-trace") || !strings.Contains(out, "weighing 4") {
		t.Errorf("tracepoint reports, with Delve's logpoint prefix, stay out of the program's output: %q", out)
	}
	hits, calls := traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
	if len(hits) != 5 || len(calls) != 5 {
		t.Fatalf("want 5 hits and 5 calls: %d %d", len(hits), len(calls))
	}
	total := 0
	for i := range 5 {
		if hits[i].str("i") != itoa(i) || hits[i].str("total") != itoa(total) {
			t.Errorf("hit %d: %v", i, hits[i].cells)
		}
		if calls[i].str("item") != itoa(i) || calls[i].str("factor") != "3" {
			t.Errorf("call %d: %v", i, calls[i].cells)
		}
		// Delve's DAP server shows no return value after a step out (its
		// ~r0 local lives only inside the function): the row says so.
		if !strings.Contains(calls[i].failure("return"), "no return value") {
			t.Errorf("return %d: %v", i, calls[i].cells)
		}
		total += i * 3
	}
}

func TestGoBreakOnChange(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	src := goProgram(t, "loop", "main.go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 24})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "loop")}), "breakpoint", 24)
	found := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "total"})
	if found["changed"] != true || found.str("from") != "0" || found.str("to") != "3" || found.obj("changedBy").num("line") != 27 {
		t.Fatalf("break_on_change should find total += weigh(i, 3) on its second pass: %v", found)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
