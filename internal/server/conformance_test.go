package server

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// updateMatrix rewrites docs/support-matrix.md from the conformance run
// instead of failing when the checked-in table differs.
var updateMatrix = flag.Bool("update-matrix", false, "rewrite docs/support-matrix.md from TestConformance")

// TestConformance is the feature × language table: every row drives one
// language's adapter through the same behaviours on a program of the same
// shape (testdata/*/conform.*, rust's loop_rust), each cell its own subtest
// (TestConformance/<language>/<behaviour>). The cells of a row share the
// row's sessions and run in order. The table is printed in the log and
// must match docs/support-matrix.md (-update-matrix rewrites it).
func TestConformance(t *testing.T) {
	began := time.Now()
	rows := conformRows()
	matrix := newSupportMatrix(rows)
	for _, row := range rows {
		t.Run(row.language, func(t *testing.T) { row.run(t, matrix) })
	}
	t.Logf("conformance table run in %v", time.Since(began).Round(time.Second))
	table := matrix.markdown()
	t.Log("\n" + table)
	matrix.compareWithDocs(t, table)
}

// run drives the row's cells in order: one launched session for the
// breakpoint, step, variable, output and exit cells, one launched with the
// exception path for the exception and close cells, one attached.
func (row conformRow) run(t *testing.T, matrix *supportMatrix) {
	testenv.RequireAdapter(t, row.language)
	for _, require := range row.requires {
		require(t)
	}
	h := newHarness(t)
	// Compiling (C, C++, Rust, Java) and three sessions on a loaded machine
	// take longer than the harness's two minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	t.Cleanup(cancel)
	h.ctx = ctx
	cell := row.cellRunner(t, h, matrix)
	var id string
	var first, ended result

	cell(behaviourBreakpoint, func(t *testing.T) {
		id = h.sessionFor(row.language)
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": row.source(t), "line": row.loopLine})
		args := map[string]any{"sessionId": id, "scriptPath": row.script(t), "timeout": 120000}
		for k, v := range row.launchStart {
			args[k] = v
		}
		first = h.ok("start_debugging", args)
		wantStop(t, first, "breakpoint", row.loopLine)
	})
	cell(behaviourLocals, func(t *testing.T) {
		if l := first.vars("locals"); l["i"] != "0" || l["total"] != "0" {
			t.Fatalf("locals at the first hit: want i 0 and total 0, got %v", l)
		}
	})
	var intoLine int
	cell(behaviourStepInto, func(t *testing.T) {
		in := h.ok("step_into", map[string]any{"sessionId": id})
		loc := in.obj("location")
		intoLine = loc.num("line")
		// Delve stops on weigh's func line, the others on its first
		// statement.
		if in.str("stopReason") != "step" || !strings.Contains(loc.str("function"), "weigh") || intoLine < row.weighLine-1 || intoLine > row.weighLine {
			t.Fatalf("step_into should enter weigh at line %d or its declaration: %v", row.weighLine, in)
		}
	})
	cell(behaviourStepOver, func(t *testing.T) {
		over := h.ok("step_over", map[string]any{"sessionId": id})
		want := intoLine + 1
		if row.stepOverLine != 0 {
			want = row.stepOverLine
		}
		wantStop(t, over, "step", want)
		if f := over.obj("location").str("function"); !strings.Contains(f, "weigh") {
			t.Fatalf("step_over inside weigh left it: %v", over)
		}
	})
	cell(behaviourStepOut, func(t *testing.T) {
		out := h.ok("step_out", map[string]any{"sessionId": id})
		if row.stepOutReturnLine != 0 {
			wantStop(t, out, "step", row.stepOutReturnLine)
			out = h.ok("step_over", map[string]any{"sessionId": id})
		}
		if f := out.obj("location").str("function"); out.str("state") != "paused" || !strings.Contains(f, "main") {
			t.Fatalf("step_out should return to main: %v", out)
		}
	})
	cell(behaviourCondition, func(t *testing.T) {
		h.ok("clear_breakpoints", map[string]any{"sessionId": id})
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": row.source(t), "line": row.weighLine, "condition": "item == 2"})
		wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", row.weighLine)
		if item := h.ok("get_local_variables", map[string]any{"sessionId": id}).vars("variables")["item"]; item != "2" {
			t.Fatalf("the condition item == 2 stopped with item %q", item)
		}
	})
	cell(behaviourEvaluate, func(t *testing.T) {
		if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "item * factor"}); ev.str("result") != "6" {
			t.Fatalf("item * factor with item 2, factor 3: %v", ev)
		}
	})
	cell(behaviourOutput, func(t *testing.T) {
		h.ok("clear_breakpoints", map[string]any{"sessionId": id})
		ended = h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
		if ended.str("state") != "stopped" {
			t.Fatalf("the program should run to its end: %v", ended)
		}
		// All of it, and only it: nothing the debugger says of itself
		// (a banner, "Detaching", a command echo) is the program's output.
		if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); all != row.output+"\n" {
			t.Fatalf("the output is the program's line %q alone: got %q", row.output, all)
		}
	})
	cell(behaviourExitCode, func(t *testing.T) {
		if ended.str("state") != "stopped" || ended.num("exitCode") != row.exitCode {
			t.Fatalf("want the program stopped with exit code %d: %v", row.exitCode, ended)
		}
		h.ok("close_debug_session", map[string]any{"sessionId": id})
	})

	before := proc.Descendants(os.Getpid())
	var raised string
	cell(behaviourException, func(t *testing.T) {
		raised = h.sessionFor(row.language)
		args := map[string]any{"sessionId": raised, "scriptPath": row.script(t), "args": []string{row.raiseArg}, "timeout": 120000}
		for k, v := range row.raiseStart {
			args[k] = v
		}
		snap := h.ok("start_debugging", args)
		wantStop(t, snap, "exception", row.raiseLine)
		exc := snap.obj("exception")
		if said := snap.str("description") + exc.str("description") + exc.str("message"); !strings.Contains(said, row.raiseText) {
			t.Fatalf("the exception stop should say %q: %v", row.raiseText, snap)
		}
	})
	cell(behaviourClose, func(t *testing.T) {
		h.wantCloseKillsAll(raised, before, row.processes)
	})

	cell(behaviourAttach, func(t *testing.T) {
		attached := h.sessionFor(row.language)
		args := row.attach(t)
		h.ok("set_breakpoint", map[string]any{"sessionId": attached, "file": row.source(t), "line": row.weighLine})
		args["sessionId"], args["waitForStop"], args["timeout"] = attached, true, 60000
		snap := h.ok("attach_to_process", args)
		if snap.str("state") != "paused" {
			t.Fatalf("attach with waitForStop should leave the program paused: %v", snap)
		}
		// Some adapters pause the program on attach (the entry of a
		// start-suspended JVM, rdbg's held first line, an attach's own
		// pause); the breakpoint is then the next stop.
		for range 2 {
			if snap.str("stopReason") == "breakpoint" {
				break
			}
			snap = h.ok("continue_execution", map[string]any{"sessionId": attached, "timeout": 60000})
		}
		wantStop(t, snap, "breakpoint", row.weighLine)
		h.ok("close_debug_session", map[string]any{"sessionId": attached})
	})
}

// cellRunner returns the function that runs one cell as a subtest named
// after its behaviour, with the harness failing that subtest, and marks
// the cell in the matrix: n/a cells run nothing and log their reason.
func (row conformRow) cellRunner(rowT *testing.T, h *harness, matrix *supportMatrix) func(string, func(*testing.T)) {
	return func(behaviour string, body func(*testing.T)) {
		if reason, ok := row.notApplicable[behaviour]; ok {
			rowT.Run(behaviour, func(t *testing.T) { t.Log("n/a: " + reason) })
			matrix.mark(row.language, behaviour, cellNotApplicable, reason)
			return
		}
		var skipped bool
		passed := rowT.Run(behaviour, func(t *testing.T) {
			h.t = t
			defer func() { h.t, skipped = rowT, t.Skipped() }()
			body(t)
		})
		switch {
		case skipped:
			matrix.mark(row.language, behaviour, cellSkipped, "")
		case passed:
			matrix.mark(row.language, behaviour, cellPass, "")
		default:
			matrix.mark(row.language, behaviour, cellFail, "")
		}
	}
}

// compareWithDocs fails when docs/support-matrix.md differs from table,
// or rewrites it under -update-matrix. A partial run (a -run filter, a
// skipped row) proves nothing about the whole table: it is only logged.
func (m *supportMatrix) compareWithDocs(t *testing.T, table string) {
	path := filepath.Join(repoRoot(t), "docs", "support-matrix.md")
	if missing := m.cellsNotRun(); missing > 0 {
		t.Logf("%s not compared: %d cells did not run here", path, missing)
		return
	}
	if *updateMatrix {
		if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
			t.Fatalf("writing the matrix: %v", err)
		}
		return
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the checked-in matrix (run with -update-matrix to write it): %v", err)
	}
	if string(old) != table {
		t.Errorf("%s differs from this run's table (run with -update-matrix to rewrite it); this run:\n%s", path, table)
	}
}

// requireTool returns a row requirement for a tool beyond the adapter.
func requireTool(install string, names ...string) func(*testing.T) {
	return func(t *testing.T) {
		t.Helper()
		testenv.RequireTool(t, install, names...)
	}
}
