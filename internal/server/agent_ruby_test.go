package server

import (
	"strconv"
	"testing"
)

// rdbg (1.4 and 1.6) has no logpoints, so its tracepoints stop, evaluate and continue
// inside the server: the agent still sees no stop.
func TestRubyTracepointStopsEvaluatesAndContinues(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	tp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 14, "collect": []string{"i", "total"}})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	if end.str("state") != "stopped" || end["exitCode"] != float64(3) {
		t.Fatalf("tracepoints never stop the program: %v", end)
	}
	listed := h.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints")
	if len(listed) != 1 || listed[0].str("traceMode") != "stop-evaluate-continue" || listed[0].num("hits") != 5 {
		t.Errorf("list_breakpoints shows how the tracepoint collects and its hits: %v", listed)
	}
	hits, _ := traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
	if len(hits) != 5 {
		t.Fatalf("want 5 hits, got %v", hits)
	}
	table := hits[0].table
	if table.num("breakpointId") != tp.num("breakpointId") || table.num("line") != 14 || table["costMs"] == nil {
		t.Errorf("the table names the tracepoint and what its hits cost, the server having to stop for them: %v", table)
	}
	total := 0
	for n, hit := range hits {
		i := n + 1
		if len(hit.cells) != 2 || hit.str("i") != strconv.Itoa(i) || hit.str("total") != strconv.Itoa(total) {
			t.Fatalf("hit %d: %v", i, hit.cells)
		}
		total += i
	}
}
