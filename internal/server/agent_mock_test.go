package server

import (
	"testing"
)

// The agent tools on the in-process mock adapter: fast checks of the
// engine's own logic (watches and changes, run_to, tracepoints by logpoint,
// function traces) with no real debugger in the way.
func TestAgentToolsOnMock(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 13})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 13)
	h.ok("add_watch", map[string]any{"sessionId": id, "expression": "total + w"})
	second := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, second, "breakpoint", 13)
	if from, to, ok := changeOf(second, "total"); !ok || from != "0" || to != "3" {
		t.Errorf("total should change 0 -> 3: %v", second["changed"])
	}
	if from, to, ok := changeOf(second, "total + w"); !ok || from != "3" || to != "9" {
		t.Errorf("the watch should change 3 -> 9: %v", second["changed"])
	}
	reached := h.ok("run_to", map[string]any{"sessionId": id, "file": prog, "line": 15})
	if reached["reached"] != false || reached.obj("location").num("line") != 13 {
		t.Errorf("the breakpoint on 13 comes first: %v", reached)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	if reached := h.ok("run_to", map[string]any{"sessionId": id, "file": prog, "line": 15}); reached["reached"] != true {
		t.Errorf("run_to 15: %v", reached)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": id})

	id = h.session()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 13, "collect": []string{"i", "w"}})
	h.ok("trace_function", map[string]any{"sessionId": id, "function": "weigh"})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) {
		t.Fatalf("tracepoints and traces never stop the program: %v", end)
	}
	hits, calls := traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
	for n, hit := range hits {
		if hit.str("i") != itoa(n+1) || hit.str("w") != itoa(3*(n+1)) {
			t.Errorf("hit %d: %v", n, hit.cells)
		}
	}
	if len(hits) != 3 || len(calls) != 3 {
		t.Errorf("want 3 hits and 3 calls, got %d and %d", len(hits), len(calls))
	}
}
