package server

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// changedProgram is a recursion fixture of one language: where its
// recursive function returns and where its loop prints.
type changedProgram struct {
	language   string
	script     string
	source     string
	returnLine int
	loopLine   int
}

func recursionPrograms(t *testing.T) []changedProgram {
	return []changedProgram{
		{language: "python", script: pythonProgram(t, "recursion.py"), source: pythonProgram(t, "recursion.py"), returnLine: 14, loopLine: 22},
		{language: "go", script: goProgram(t, "recursion"), source: goProgram(t, "recursion", "main.go"), returnLine: 27, loopLine: 36},
	}
}

// A step out of a recursive call lands in another activation of the same
// function: nothing there changed against the inner one, and within one
// activation changes are still reported, also on a stack deeper than the
// frames fetched at each stop (Delve then only guesses the stack's depth).
func TestChangedComparesAFrameWithItselfUnderRecursion(t *testing.T) {
	for _, p := range recursionPrograms(t) {
		for _, depth := range []string{"2", "30"} {
			t.Run(p.language+"/depth "+depth, func(t *testing.T) {
				changedAcrossRecursion(t, p, depth)
			})
		}
	}
}

func changedAcrossRecursion(t *testing.T, p changedProgram, depth string) {
	h := newHarness(t)
	id := h.sessionFor(p.language)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": p.source, "line": p.returnLine})
	inner := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": p.script, "args": []string{depth}})
	wantStop(t, inner, "breakpoint", p.returnLine)
	if n := inner.vars("locals")["n"]; n != "0" {
		t.Fatalf("the first stop is in the innermost call: n = %q", n)
	}
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "file": p.source, "line": p.returnLine})

	outer := h.ok("step_out", map[string]any{"sessionId": id})
	if n := outer.vars("locals")["n"]; n != "1" {
		t.Fatalf("step_out lands in the caller, n = 1: %v", outer)
	}
	if changed := outer.list("changed"); len(changed) != 0 {
		t.Errorf("the caller's frame compared with the callee's: changed %v", changed)
	}

	at := outer
	for step := 0; at.obj("location").num("line") != p.returnLine; step++ {
		if step == 5 {
			t.Fatalf("step_over does not reach line %d: %v", p.returnLine, at)
		}
		at = h.ok("step_over", map[string]any{"sessionId": id})
	}
	if from, to, ok := changeOf(at, "acc"); !ok || from != "11" || to != "12" {
		t.Errorf("acc changes 11 -> 12 in the caller's own frame: %v", at["changed"])
	}
	if _, _, ok := changeOf(at, "n"); ok {
		t.Errorf("n did not change in the caller's frame: %v", at["changed"])
	}
}

// A new object at a new address, with nothing else different, is no change.
func TestChangedIgnoresObjectAddresses(t *testing.T) {
	for _, p := range recursionPrograms(t) {
		t.Run(p.language, func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor(p.language)
			h.stopAt(id, p.source, p.loopLine, p.script)
			next := h.ok("continue_execution", map[string]any{"sessionId": id, "changesOnly": true})
			wantStop(t, next, "breakpoint", p.loopLine)
			if from, to, ok := changeOf(next, "i"); !ok || from != "0" || to != "1" {
				t.Errorf("i changes 0 -> 1: %v", next["changed"])
			}
			if from, to, ok := changeOf(next, "current"); ok {
				t.Errorf("current is a new object of the same value, reported changed %s -> %s", from, to)
			}
			if _, listed := next.vars("locals")["current"]; listed {
				t.Errorf("changesOnly lists current, whose value is the same: %v", next["locals"])
			}
			// Every local is shown or named as unchanged, and the note
			// counts the names.
			var unchanged []string
			raw, _ := next["unchanged"].([]any)
			for _, n := range raw {
				unchanged = append(unchanged, fmt.Sprint(n))
			}
			for _, name := range []string{"i", "kept", "current"} {
				if _, shown := next.vars("locals")[name]; !shown && !slices.Contains(unchanged, name) {
					t.Errorf("changesOnly left %s out without naming it in unchanged %v", name, unchanged)
				}
			}
			if note := next.str("localsNote"); !strings.Contains(note, fmt.Sprintf("%d unchanged", len(unchanged))) {
				t.Errorf("the note counts %d unchanged locals: %q", len(unchanged), note)
			}
		})
	}
}

// A restart is a new run: its first stop compares with nothing of the
// previous run, so changesOnly keeps every local.
func TestRestartChangesOnlyComparesNothingWithThePreviousRun(t *testing.T) {
	for _, p := range recursionPrograms(t) {
		t.Run(p.language, func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor(p.language)
			h.stopAt(id, p.source, p.loopLine, p.script)
			again := h.ok("restart_debugging", map[string]any{"sessionId": id, "changesOnly": true})
			wantStop(t, again, "breakpoint", p.loopLine)
			if changed := again.list("changed"); len(changed) != 0 {
				t.Errorf("the new run's first stop reports changes against the old run: %v", changed)
			}
			locals := again.vars("locals")
			for _, name := range []string{"i", "kept", "current"} {
				if _, ok := locals[name]; !ok {
					t.Errorf("changesOnly on the new run's first stop leaves out %s: %v (%s)", name, locals, again.str("localsNote"))
				}
			}
			if note := again.str("localsNote"); strings.Contains(note, "unchanged") {
				t.Errorf("localsNote: %q", note)
			}
		})
	}
}
