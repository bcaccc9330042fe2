package server

import (
	"slices"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// hitIDs is a snapshot's hitBreakpointIds.
func hitIDs(snap result) []int {
	var ids []int
	for _, v := range snap["hitBreakpointIds"].([]any) {
		ids = append(ids, int(v.(float64)))
	}
	return ids
}

// hitIDsOrNone is hitIDs of a snapshot that may have none.
func hitIDsOrNone(snap result) []int {
	if _, ok := snap["hitBreakpointIds"]; !ok {
		return nil
	}
	return hitIDs(snap)
}

// The breakpoints the server places itself (debug_test's catcher of failed
// Go tests on testing.(*common).Fail, run_to's target) are invisible: no
// hit id, no listed breakpoint, no count, and the agent's breakpoint ids
// are those of a session without them.
func TestGoInternalBreakpointsAreInvisible(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "go")
	file := goProgram(t, "failing", "cart_test.go")
	cart := goProgram(t, "failing", "cart.go")
	fresh := h.sessionFor("go")
	firstID := h.ok("set_breakpoint", map[string]any{"sessionId": fresh, "file": file, "line": 13}).num("breakpointId")

	id := h.sessionFor("go")
	failed := h.ok("debug_test", map[string]any{"sessionId": id, "path": file, "name": "TestTotalWithDiscount"})
	if failed.obj("test")["failed"] != true {
		t.Fatalf("debug_test stops at the failure: %v", failed)
	}
	if ids := hitIDsOrNone(failed); len(ids) != 0 {
		t.Errorf("the failure's stop names the server's own breakpoint: hitBreakpointIds %v", ids)
	}
	if r := failed.str("stopReason"); r != "test failure" {
		t.Errorf("the failure's stop says %q, want \"test failure\" (not a function breakpoint the agent never set)", r)
	}
	listed := h.ok("list_breakpoints", map[string]any{"sessionId": id})
	if listed.num("count") != 0 || listed.num("functionCount") != 0 {
		t.Errorf("list_breakpoints shows the server's own breakpoints: %v", listed)
	}

	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": 13}).num("breakpointId")
	if bp != firstID {
		t.Errorf("the agent's first breakpoint is %d after debug_test, %d in a fresh session", bp, firstID)
	}
	again := h.ok("restart_debugging", map[string]any{"sessionId": id})
	wantStop(t, again, "breakpoint", 13)
	if n := again.obj("data").num("breakpointsReapplied"); n != 1 {
		t.Errorf("breakpointsReapplied = %d, want 1 (the agent's one)", n)
	}
	if ids := hitIDs(again); !slices.Equal(ids, []int{bp}) {
		t.Errorf("hitBreakpointIds = %v, want [%d]", ids, bp)
	}

	if reached := h.ok("run_to", map[string]any{"sessionId": id, "file": cart, "line": 8}); reached["reached"] != true {
		t.Fatalf("run_to cart.go:8: %v", reached)
	} else if ids := hitIDsOrNone(reached); len(ids) != 0 {
		t.Errorf("run_to's stop names its own breakpoint: hitBreakpointIds %v", ids)
	}
	second := h.ok("set_breakpoint", map[string]any{"sessionId": fresh, "file": file, "line": 15}).num("breakpointId")
	next := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": 15}).num("breakpointId")
	if next != second {
		t.Errorf("the agent's second breakpoint is %d after run_to, %d in a fresh session", next, second)
	}
	atFailure := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, atFailure, "breakpoint", 15)
	if ids := hitIDs(atFailure); !slices.Equal(ids, []int{next}) {
		t.Errorf("hitBreakpointIds = %v, want [%d]", ids, next)
	}

	caught := h.ok("continue_execution", map[string]any{"sessionId": id})
	if caught.str("state") != "paused" {
		t.Fatalf("the restarted test stops at its failure: %v", caught)
	}
	if ids := hitIDsOrNone(caught); len(ids) != 0 {
		t.Errorf("the restarted failure's stop names the server's own breakpoint: hitBreakpointIds %v", ids)
	}
}
