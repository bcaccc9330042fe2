package server

import (
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// C through lldb: a call of a libc function, whose return type the
// program's debug information lacks, is refused; the hint is lldb's advice
// made into the expression to try, and that expression answers.
func TestCEvaluationOfAnUntypedCallSaysWhatToWrite(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "stdin.c")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "stdin": "hello\n"}), "breakpoint", 12)
	refused, _ := h.call("evaluate_expression", map[string]any{"sessionId": id, "expression": "strlen(first) - 3"})
	if refused["success"] != false {
		t.Fatalf("lldb evaluates an untyped call (the test needs another refusal): %v", refused)
	}
	want := "(long)strlen(first) - 3"
	if hint := refused.str("hint"); !strings.Contains(hint, want) {
		t.Fatalf("the hint should say what to write (%s): %q", want, hint)
	}
	if got := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": want}); got.str("result") != "2" {
		t.Errorf("the hinted expression answers 2 (\"hello\" is 5 long): %v", got)
	}
}
