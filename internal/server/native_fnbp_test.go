package server

import (
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// TestNativeRustFunctionBreakpointStopSaysFunctionBreakpoint: a stop on a
// crate-qualified function breakpoint is reported as one.
func TestNativeRustFunctionBreakpointStopSaysFunctionBreakpoint(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "loop_rust::weigh"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": nativeProgram(t, "rust")})
	wantStop(t, snap, "function breakpoint", 7)
	if st := h.ok("get_stack_trace", map[string]any{"sessionId": id}); st.str("stopReason") != "function breakpoint" {
		t.Errorf("get_stack_trace says why the program stopped: %v", st)
	}
	for _, s := range h.ok("list_debug_sessions", nil).list("sessions") {
		if s.str("id") == id && s.obj("lastStop").str("rawReason") != "breakpoint" {
			t.Errorf("lastStop keeps lldb-dap's own reason: %v", s)
		}
	}
	fbs := h.ok("list_breakpoints", map[string]any{"sessionId": id}).list("functionBreakpoints")
	if len(fbs) != 1 || fbs[0]["verified"] != true || fbs[0].num("adapterId") == 0 {
		t.Errorf("the bound function breakpoint with lldb-dap's id: %v", fbs)
	}
}

// TestNativeRustBareMainWarnsOfTheCRuntime: a bare main is the C
// runtime's entry in a Rust program, not the crate's main; set_breakpoint
// says so and names the crate-qualified form, and still sets it.
func TestNativeRustBareMainWarnsOfTheCRuntime(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("rust")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "main"})
	if w := bp.str("warning"); !strings.Contains(w, "C runtime") || !strings.Contains(w, "my_crate::main") {
		t.Errorf("a bare main in Rust warns of the C runtime's main: %v", bp)
	}
	if bp.num("breakpointId") == 0 {
		t.Errorf("the breakpoint is set all the same: %v", bp)
	}
	if w := h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "loop_rust::main"}).str("warning"); w != "" {
		t.Errorf("a crate-qualified main needs no warning: %q", w)
	}
}
