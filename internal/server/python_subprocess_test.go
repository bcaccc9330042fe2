package server

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// TestPythonProgramsStartingProcesses: a program that starts processes
// (subprocess.run, os.fork, multiprocessing.Pool) reaches its breakpoint
// after its children ran, ends with code 0, and close leaves no process.
// subprocs.py's line 33 prints what the children gave back. So too when
// the agent asks debugpy to follow children (subProcess true).
func TestPythonProgramsStartingProcesses(t *testing.T) {
	for _, subProcess := range []bool{false, true} {
		for _, tc := range []struct{ way, want string }{
			{"run", "42"},
			{"fork", "7"},
			{"pool", "[1, 4, 9]"},
		} {
			t.Run(fmt.Sprintf("%s/subProcess=%v", tc.way, subProcess), func(t *testing.T) {
				startsChildren(t, tc.way, tc.want, subProcess)
			})
		}
	}
}

// startsChildren runs subprocs.py's way of starting children to its
// breakpoint after them, then to its end.
func startsChildren(t *testing.T, way, want string, subProcess bool) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "subprocs.py")
	before := proc.Descendants(os.Getpid())
	runToAfterChildren(h, id, prog, way, subProcess)
	if got := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "str(got)"}); got.str("result") != "'"+want+"'" {
		t.Errorf("what the children gave back: %v", got)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) || !strings.Contains(end.outputText("output"), "children done") {
		t.Fatalf("the program should run to the end: %v", end)
	}
	// The program has ended, and its adapter may have gone with it:
	// nothing of either (the children included) may be left for close.
	h.wantCloseKillsAll(id, before, 0)
}

// TestPythonCloseEndsLiveChildren: closing a session while the program's
// child still runs (subprocs.py's live way: a sleeping child) ends the
// child too, whether or not debugpy followed it.
func TestPythonCloseEndsLiveChildren(t *testing.T) {
	for _, subProcess := range []bool{false, true} {
		t.Run(fmt.Sprintf("subProcess=%v", subProcess), func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor("python")
			prog := pythonProgram(t, "subprocs.py")
			before := proc.Descendants(os.Getpid())
			runToAfterChildren(h, id, prog, "live", subProcess)
			pid, err := strconv.Atoi(h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "got"}).str("result"))
			if err != nil || !proc.Alive(pid) {
				t.Fatalf("the child should be running: pid %d, %v", pid, err)
			}
			h.wantCloseKillsAll(id, before, 3)
		})
	}
}

// runToAfterChildren starts subprocs.py's way of starting children and
// runs it to its breakpoint after them (line 33).
func runToAfterChildren(h *harness, id, prog, way string, subProcess bool) {
	h.t.Helper()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 33})
	snap := h.ok("start_debugging", map[string]any{
		"sessionId": id, "scriptPath": prog, "args": []string{way},
		"dapLaunchArgs": map[string]any{"subProcess": subProcess},
	})
	wantStop(h.t, snap, "breakpoint", 33)
}
