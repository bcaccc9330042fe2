package server

import (
	"testing"
)

// functionBreakpointNamed finds a function breakpoint in list_breakpoints.
func functionBreakpointNamed(h *harness, id, name string) result {
	h.t.Helper()
	for _, fb := range h.ok("list_breakpoints", map[string]any{"sessionId": id}).list("functionBreakpoints") {
		if fb.str("functionName") == name {
			return fb
		}
	}
	h.t.Fatalf("no function breakpoint %s", name)
	return nil
}

// TestNodeFunctionBreakpointsBindAndStopAsFunctionBreakpoints: a
// main-module function binds at launch, a lazily imported module's
// function stays pending until its module loads, every stop says
// "function breakpoint", and a restart binds and stops the same way.
func TestNodeFunctionBreakpointsBindAndStopAsFunctionBreakpoints(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	main, shapes := nodeProgram(t, "fnbp/main.mjs"), nodeProgram(t, "fnbp/shapes.mjs")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "square"})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "shapes.area"})

	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": main}), "function breakpoint", 5)
	if sq := functionBreakpointNamed(h, id, "square"); sq["verified"] != true || sq.str("boundFile") != main || sq.num("boundLine") != 4 {
		t.Errorf("square binds to its declaration in main.mjs, line 4: %v", sq)
	}
	if area := functionBreakpointNamed(h, id, "shapes.area"); area["verified"] != false {
		t.Errorf("shapes.area is pending before shapes.mjs loads: %v", area)
	}

	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "function breakpoint", 5)
	if area := functionBreakpointNamed(h, id, "shapes.area"); area["verified"] != true || area.str("boundFile") != shapes || area.num("boundLine") != 3 {
		t.Errorf("shapes.area binds once shapes.mjs has loaded: %v", area)
	}
	inArea := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, inArea, "function breakpoint", 4)
	if loc := inArea.obj("location"); inArea.stopFile(t) != shapes || loc.str("function") != "area" {
		t.Errorf("the stop is in area: %v", loc)
	}

	wantStop(t, h.ok("restart_debugging", map[string]any{"sessionId": id}), "function breakpoint", 5)
	for _, s := range h.ok("list_debug_sessions", nil).list("sessions") {
		if s.str("id") == id && s.obj("lastStop").str("reason") != "function breakpoint" {
			t.Errorf("the restarted run's stop: %v", s)
		}
	}
}
