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
			var prog string
			if tc.lang == "python" {
				prog = pythonProgram(t, tc.source)
			} else {
				prog = nodeProgram(t, tc.source)
			}
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
