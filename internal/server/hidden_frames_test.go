package server

import (
	"strings"
	"testing"
)

// A stack page that leaves out frames without source says so: Go's
// runtime.main and goexit below main.main are left out by default, and the
// answer counts them and names includeInternals; with it, they are listed
// and nothing is said.
func TestStackPageSaysWhatItLeftOut(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	prog := goProgram(t, "loop", "main.go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 15})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 15)
	page := h.ok("get_stack_trace", map[string]any{"sessionId": id, "levels": 5})
	if n := len(page.list("stackFrames")); n != 2 {
		t.Fatalf("want weigh and main (2 frames with source): %v", page)
	}
	if hidden := page.str("hidden"); !strings.HasPrefix(hidden, "2 ") || !strings.Contains(hidden, "includeInternals") {
		t.Errorf("the page left out runtime.main and goexit without saying so: hidden %q", hidden)
	}
	all := h.ok("get_stack_trace", map[string]any{"sessionId": id, "levels": 5, "includeInternals": true})
	if n := len(all.list("stackFrames")); n != 4 || all.str("hidden") != "" {
		t.Errorf("with includeInternals all 4 frames and nothing hidden: %v", all)
	}
}
