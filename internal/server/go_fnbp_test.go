package server

import (
	"strings"
	"testing"
)

// TestGoFunctionBreakpointThatNeverBinds: a bare name Delve cannot bind is
// warned of when set (with the package-qualified form), is not verified
// once the program runs (with Delve's reason), and when the program has
// ended list_breakpoints and the output say it never bound.
func TestGoFunctionBreakpointThatNeverBinds(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	set := h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "nosuch"})
	if w := set.str("warning"); !strings.Contains(w, "package-qualified") || !strings.Contains(w, "'main.nosuch'") {
		t.Errorf("set time: the warning names the package-qualified form: %v", set)
	}
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "loop")})
	if end.str("state") != "stopped" {
		t.Fatalf("the program runs to its end: %v", end)
	}
	if w := end.str("warning"); !strings.Contains(w, "not bound at launch") || !strings.Contains(w, "nosuch()") {
		t.Errorf("launch: the warning names it: %v", end)
	}
	fbs := h.ok("list_breakpoints", map[string]any{"sessionId": id}).list("functionBreakpoints")
	if len(fbs) != 1 || fbs[0]["verified"] != false || !strings.Contains(fbs[0].str("message"), "Never bound during this run") || !strings.Contains(fbs[0].str("message"), "nosuch") {
		t.Errorf("after the run: never bound, with Delve's reason: %v", fbs)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(out, "function breakpoint nosuch never bound during this run") {
		t.Errorf("the output says it never bound: %q", out)
	}
}
