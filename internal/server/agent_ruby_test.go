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
	entries := h.ok("get_trace", map[string]any{"sessionId": id}).list("entries")
	if len(entries) != 5 {
		t.Fatalf("want 5 hits, got %v", entries)
	}
	total := 0
	for n, e := range entries {
		i := n + 1
		vals := e.list("values")
		if e.num("breakpointId") != tp.num("breakpointId") || e.num("line") != 14 || e.num("threadId") == 0 ||
			len(vals) != 2 || vals[0].str("value") != strconv.Itoa(i) || vals[1].str("value") != strconv.Itoa(total) {
			t.Fatalf("hit %d: %v", i, e)
		}
		if e["costMs"] == nil {
			t.Errorf("a hit the server had to stop for reports its cost: %v", e)
		}
		total += i
	}
}
