package server

import (
	"context"
	"strings"
	"testing"
)

// TestToolPanicFailsOnlyThatCall registers a tool whose handler panics and
// checks that the call fails with a clear error while the server and an
// open debug session go on.
func TestToolPanicFailsOnlyThatCall(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	type empty struct{}
	addTool(h.srv, "panicking_tool", "panics, for this test", func(context.Context, *empty) (*struct {
		Success bool `json:"success"`
	}, error) {
		panic("boom")
	})

	out := h.fail("panicking_tool", map[string]any{}, "internal error in panicking_tool: boom")
	if !strings.Contains(out.str("hint"), "still running") {
		t.Errorf("hint %q does not say the server goes on", out.str("hint"))
	}
	// The server still serves, and the session is still there and usable.
	list := h.ok("list_debug_sessions", map[string]any{})
	if sessions, _ := list["sessions"].([]any); len(sessions) != 1 {
		t.Fatalf("list_debug_sessions after the panic: %v", list)
	}
	prog := mockProgram(t, "basic.mock")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12})
	if snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); snap.str("state") != "paused" {
		t.Fatalf("start_debugging after the panic: %v", snap)
	}
}
