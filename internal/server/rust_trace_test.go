package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Rust tracepoints through lldb-dap: a println! line compiles to several
// code ranges (a breakpoint with several locations), yet each pass over it
// is one row; a Vec reads as in a stop, its size and first elements.
func TestRustTraceRowsOncePerPassWithElements(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	src := nativeProgram(t, "rust", "src", "main.rs")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 18, "collect": []string{"total"}})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 26, "collect": []string{"tags"}})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust"), "timeout": 120000})
	if end.str("state") != "stopped" {
		t.Fatalf("tracepoints never stop the program: %v", end)
	}
	hits, _ := traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
	var loop, last []string
	for _, hit := range hits {
		switch hit.table.num("line") {
		case 18:
			loop = append(loop, hit.str("total"))
		case 26:
			last = append(last, hit.str("tags"))
		}
	}
	if strings.Join(loop, ",") != "0,0,3,9" {
		t.Errorf("line 18 runs 4 times with total 0, 0, 3, 9: rows %v", loop)
	}
	if len(last) != 1 {
		t.Fatalf("line 26 (println!) runs once: rows %q", last)
	}
	// The locations are rustc's to decide (3 from rustc 1.x here): a
	// println! of one location traces by logpoint, its Vec by its size
	// until the next run (TestRustTracepointOfAContainerShowsItsElementsFromTheNextRun).
	locations := 0
	for _, bp := range h.ok("list_breakpoints", map[string]any{"sessionId": id}).list("breakpoints") {
		if bp.num("line") == 26 {
			locations = bp.num("locations")
		}
	}
	if locations < 2 {
		t.Logf("this rustc compiles line 26 to one place: the row is %q", last[0])
	} else if !strings.HasPrefix(last[0], "size=3 [") {
		t.Errorf("line 26 has %d locations, so it traces by stopping: tags a Vec of 3 shown with its elements, got %q", locations, last[0])
	}
}

// A breakpoint on a line of several locations stops once a pass: continuing
// from the println! line's stop runs to the end, not to the same line's
// next location.
func TestRustBreakpointOfSeveralLocationsStopsOncePerPass(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	src := nativeProgram(t, "rust", "src", "main.rs")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 26})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust"), "timeout": 120000}), "breakpoint", 26)
	if end := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000}); end.str("state") != "stopped" {
		t.Errorf("the line's other locations belong to the same pass: the program should end, got %v", end)
	}
}

// A tracepoint whose logpoint shows a Vec by its size alone says so in the
// trace, and from the next run on reads it as a stop does, its elements
// too.
func TestRustTracepointOfAContainerShowsItsElementsFromTheNextRun(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	src := nativeProgram(t, "rust", "src", "main.rs")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 18, "collect": []string{"tags"}})
	since := 0
	rows := func(ans result) (got []string, page result) {
		if ans.str("state") != "stopped" {
			t.Fatalf("tracepoints never stop the program: %v", ans)
		}
		page = h.ok("get_trace", map[string]any{"sessionId": id, "since": since})
		since = page.num("nextSince")
		hits, _ := traceRows(t, page)
		for _, hit := range hits {
			got = append(got, hit.str("tags"))
		}
		return got, page
	}
	first, page := rows(h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust"), "timeout": 120000}))
	if len(first) != 4 {
		t.Fatalf("line 18 runs 4 times: %q", first)
	}
	if !strings.Contains(fmt.Sprint(page), "from the next run on") {
		t.Errorf("the trace should say the next run shows the elements: %v", page)
	}
	again, _ := rows(h.ok("restart_debugging", map[string]any{"sessionId": id, "timeout": 120000}))
	if len(again) != 4 || !strings.HasPrefix(again[0], `size=3 ["item-0"`) {
		t.Errorf("the next run shows the Vec's elements in every row: %q", again)
	}
}
