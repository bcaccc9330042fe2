package server

import (
	"strings"
	"testing"
)

// A pause lands inside Thread.sleep, a JDK frame without line numbers for
// the program: a step from there must end in the program's own code (the
// line after the call), not let the program run on.
func TestJavaStepFromAFrameWithoutLines(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": javaSource(t, "Sleepy.java"), "waitForStop": false})
	h.waitForOutput(id, "sleepy started")
	// The program sleeps nearly all the time; a pause that lands on one
	// of its own lines is tried again.
	for i := 0; ; i++ {
		p := h.ok("pause_execution", map[string]any{"sessionId": id})
		// JDK 17 sleeps in the native Thread.sleep itself, 19 to 21 in the
		// native Thread.sleep0 it calls, 25 in Thread.sleepNanos0: a
		// native frame (line 0) of Thread's sleeping.
		if l := p.obj("location"); strings.HasPrefix(l.str("function"), "java.lang.Thread.sleep") && l.num("line") == 0 {
			break
		}
		if i == 20 {
			t.Fatalf("no pause landed in Thread.sleep: %v", p["location"])
		}
		h.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": false})
	}
	step := h.ok("step_over", map[string]any{"sessionId": id, "timeout": 5000})
	if step.str("state") != "paused" || step.obj("location").str("function") != "Sleepy.main" || step.obj("location").num("line") != 7 {
		t.Fatalf("a step from inside Thread.sleep should stop in Sleepy.main, after the call: %v", step)
	}
	if d := step.str("description"); !strings.Contains(d, "stepped out of java.lang.Thread.sleep") {
		t.Errorf("the answer should say the step went out of Thread.sleep: %q", d)
	}
	// Steps from the program's own lines are line steps as before.
	if next := h.ok("step_over", map[string]any{"sessionId": id}); next.obj("location").num("line") != 5 && next.obj("location").num("line") != 6 || next.str("description") != "" {
		t.Errorf("the next step is a plain line step: %v", next)
	}
}
