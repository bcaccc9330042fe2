package server

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runawayEvalTimeout is the evaluate_expression timeout the runaway tests
// give; the answer must come within it and runawayEvalSlack.
const (
	runawayEvalTimeout = 2000
	runawayEvalSlack   = 3 * time.Second
)

// A runaway evaluation answers within its timeout with an error that says
// what happened and that the program is still paused where it was; the
// session then evaluates and continues as before.
func TestRunawayEvaluationLeavesSessionUsable(t *testing.T) {
	for _, tc := range []struct {
		lang, source  string
		line          int
		expr, context string
	}{
		{lang: "python", source: "loop.py", line: 6, expr: "while True: pass", context: "repl"},
		{lang: "python", source: "loop.py", line: 6, expr: "any(False for _ in iter(int, 1))"},
		{lang: "javascript", source: "loop.js", line: 10, expr: "(()=>{while(true){}})()"},
	} {
		t.Run(tc.lang+"/"+tc.expr, func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor(tc.lang)
			prog := filepath.Join(repoRoot(t), "testdata", map[string]string{"python": "python", "javascript": "node", "java": "java"}[tc.lang], tc.source)
			h.stopAt(id, prog, tc.line, prog)

			args := map[string]any{"sessionId": id, "expression": tc.expr, "timeout": runawayEvalTimeout}
			if tc.context != "" {
				args["context"] = tc.context
			}
			began := time.Now()
			bad := h.fail("evaluate_expression", args, "was stopped")
			took := time.Since(began)
			t.Logf("after %v: %s (hint: %s)", took, bad.str("error"), bad.str("hint"))
			if limit := runawayEvalTimeout*time.Millisecond + runawayEvalSlack; took > limit {
				t.Errorf("the runaway evaluation answered after %v, want at most %v", took, limit)
			}
			if hint := bad.str("hint"); !strings.Contains(hint, "still paused at "+filepath.Base(prog)) || strings.Contains(hint, "unchanged") {
				t.Errorf("the hint should say the program is still paused, not that nothing happened: %q", hint)
			}

			if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "1+1"}); ev.str("result") != "2" {
				t.Errorf("evaluate 1+1 after the runaway one = %v", ev)
			}
			next := h.ok("continue_execution", map[string]any{"sessionId": id})
			wantStop(t, next, "breakpoint", tc.line)
		})
	}
}

// JDWP cannot stop a method that an evaluation invoked: ThreadReference.Stop
// waits until the thread leaves the event it is stopped at, and no other
// command ends an invocation. The answer says so within the timeout, and
// the session can still be closed.
func TestRunawayJavaEvaluationSaysItCannotBeStopped(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	prog := filepath.Join(repoRoot(t), "testdata", "java", "Spin.java")
	h.stopAt(id, prog, 9, prog)

	began := time.Now()
	bad := h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "spin()", "timeout": runawayEvalTimeout}, "could not stop it")
	took := time.Since(began)
	t.Logf("after %v: %s (hint: %s)", took, bad.str("error"), bad.str("hint"))
	if limit := runawayEvalTimeout*time.Millisecond + runawayEvalSlack; took > limit {
		t.Errorf("the runaway evaluation answered after %v, want at most %v", took, limit)
	}
	if hint := bad.str("hint"); !strings.Contains(hint, "close_debug_session") || strings.Contains(hint, "unchanged") {
		t.Errorf("the hint should say how to go on: %q", hint)
	}
	began = time.Now()
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	if took := time.Since(began); took > 10*time.Second {
		t.Errorf("close_debug_session after the runaway evaluation took %v", took)
	}
}

// A watch whose expression never finishes costs each stop its bounded
// time, not the session: the watch shows an error, and steps, evaluations
// and continues go on.
func TestRunawayWatchLeavesSessionUsable(t *testing.T) {
	for _, tc := range []struct {
		lang, source string
		line         int
		expr         string
	}{
		{lang: "python", source: "loop.py", line: 6, expr: "any(False for _ in iter(int, 1))"},
		{lang: "javascript", source: "loop.js", line: 10, expr: "(()=>{while(true){}})()"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor(tc.lang)
			prog := filepath.Join(repoRoot(t), "testdata", map[string]string{"python": "python", "javascript": "node"}[tc.lang], tc.source)
			h.stopAt(id, prog, tc.line, prog)
			began := time.Now()
			w := h.ok("add_watch", map[string]any{"sessionId": id, "expression": tc.expr}).obj("watch")
			t.Logf("add_watch after %v: %v", time.Since(began), w)
			if w.str("error") == "" {
				t.Errorf("a watch that never finishes should show an error: %v", w)
			}
			next := h.ok("continue_execution", map[string]any{"sessionId": id})
			wantStop(t, next, "breakpoint", tc.line)
			if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "1+1"}); ev.str("result") != "2" {
				t.Errorf("evaluate 1+1 after the runaway watch = %v", ev)
			}
			h.ok("remove_watch", map[string]any{"sessionId": id, "expression": tc.expr})
			wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", tc.line)
		})
	}
}
