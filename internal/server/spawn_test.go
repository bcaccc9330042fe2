package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// TestGoExecCommandChildRuns: a Go program's exec.Command child runs while
// its parent is debugged under Delve, so the parent reaches its breakpoint
// after the child's answer (spawner's line 19), ends with code 0, and close
// leaves no process.
func TestGoExecCommandChildRuns(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	before := proc.Descendants(os.Getpid())
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": goProgram(t, "spawner", "main.go"), "line": 19})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "spawner")})
	wantStop(t, snap, "breakpoint", 19)
	if got := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "got"}); got.str("result") != `"child says 42"` {
		t.Errorf("what the child answered: %v", got)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) || !strings.Contains(end.outputText("output"), "child answered child says 42") {
		t.Fatalf("the program should run to the end: %v", end)
	}
	h.wantCloseKillsAll(id, before, 0)
}

// TestJavaProcessBuilderChildRuns: a JVM program's ProcessBuilder child
// runs while the JVM is debugged, so the program reaches its breakpoint
// after the child's answer (Spawner.java's line 11), ends with code 0,
// and close leaves no process.
func TestJavaProcessBuilderChildRuns(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	before := proc.Descendants(os.Getpid())
	prog := filepath.Join(repoRoot(t), "testdata", "java", "Spawner.java")
	h.stopAt(id, prog, 11, prog)
	if got := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "got"}); got.str("result") != `"child says 42"` {
		t.Errorf("what the child answered: %v", got)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) || !strings.Contains(end.outputText("output"), "child answered child says 42 with 0") {
		t.Fatalf("the program should run to the end: %v", end)
	}
	h.wantCloseKillsAll(id, before, 0)
}
