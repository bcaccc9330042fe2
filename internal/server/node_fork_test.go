package server

import (
	"os"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// TestNodeForkedChildRuns: a Node program's child_process.fork child
// runs while its parent is debugged, so the parent reaches its breakpoint
// after the child answered (fork.js line 10), ends with code 0, and close
// leaves no process.
func TestNodeForkedChildRuns(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	prog := nodeProgram(t, "fork.js")
	before := proc.Descendants(os.Getpid())
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 10})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	wantStop(t, snap, "breakpoint", 10)
	if got := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "got"}); got.str("result") != "49" {
		t.Errorf("what the child answered: %v", got)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) || !strings.Contains(end.outputText("output"), "child answered 49") {
		t.Fatalf("the program should run to the end: %v", end)
	}
	// The program has ended: nothing of it (the child included) may
	// be left for close to find.
	h.wantCloseKillsAll(id, before, 0)
}
