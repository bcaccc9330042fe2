package server

import (
	"os"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// TestPythonProgramsStartingProcesses: a program that starts processes
// (subprocess.run, os.fork, multiprocessing.Pool) reaches its breakpoint
// after its children ran, ends with code 0, and close leaves no process.
// subprocs.py's line 33 prints what the children gave back.
func TestPythonProgramsStartingProcesses(t *testing.T) {
	for _, tc := range []struct{ way, want string }{
		{"run", "42"},
		{"fork", "7"},
		{"pool", "[1, 4, 9]"},
	} {
		t.Run(tc.way, func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor("python")
			prog := pythonProgram(t, "subprocs.py")
			before := proc.Descendants(os.Getpid())
			h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 33})
			snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "args": []string{tc.way}})
			wantStop(t, snap, "breakpoint", 33)
			if got := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "str(got)"}); got.str("result") != "'"+tc.want+"'" {
				t.Errorf("what the children gave back: %v", got)
			}
			end := h.ok("continue_execution", map[string]any{"sessionId": id})
			if end.str("state") != "stopped" || end["exitCode"] != float64(0) || !strings.Contains(end.outputText("output"), "children done") {
				t.Fatalf("the program should run to the end: %v", end)
			}
			h.wantCloseKillsAll(id, before, 1)
		})
	}
}
