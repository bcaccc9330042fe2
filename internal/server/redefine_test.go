package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Tests of redefine_classes: hot swapping recompiled classes into a JVM
// under the debugger (testdata/java/Swap.java).

// swappedClasses compiles a copy of Swap.java whose value() returns 99
// instead of 42, on the same lines, into its own classes directory.
func swappedClasses(t *testing.T, src string) string {
	t.Helper()
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(text), "return 42;", "return 99;", 1)
	if changed == string(text) {
		t.Fatalf("%s no longer returns 42", src)
	}
	copyPath := filepath.Join(t.TempDir(), "Swap.java")
	if err := os.WriteFile(copyPath, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	return javacInto(t, []string{"-g"}, copyPath)
}

func TestJavaRedefineClassesSwapsCodeAndReplantsBreakpoints(t *testing.T) {
	src := javaSource(t, "Swap.java")
	original := javacInto(t, []string{"-g"}, src)
	swapped := swappedClasses(t, src)
	h := newHarness(t)
	id := h.sessionFor("java")
	snap := h.stopAt(id, src, 9, filepath.Join(original, "Swap.class"))
	if got := snap.vars("locals")["got"]; got != "42" {
		t.Fatalf("before the swap value() returns 42, got = %q", got)
	}

	res := h.ok("redefine_classes", map[string]any{"sessionId": id, "classesDir": swapped, "sinceTimestamp": 0})
	if !slices.Contains(anyStrings(res["redefined"]), "Swap") || res.num("redefinedCount") != 1 {
		t.Fatalf("Swap must be redefined: %v", res)
	}
	if len(anyStrings(res["notLoaded"])) != 1 || !slices.Contains(anyStrings(res["notLoaded"]), "Swap$Unused") {
		t.Fatalf("Swap$Unused is never loaded, so it is skipped: %v", res)
	}
	if res.num("replantedBreakpoints") != 1 || res.num("scannedFiles") != 2 || res.num("newestTimestamp") <= 0 {
		t.Fatalf("the breakpoint at line 9 is re-planted, both class files are scanned: %v", res)
	}
	if v := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "value()"}).str("result"); v != "99" {
		t.Fatalf("after the swap value() = %q, want 99", v)
	}

	again := h.ok("redefine_classes", map[string]any{"sessionId": id, "classesDir": swapped, "sinceTimestamp": res["newestTimestamp"]})
	if again.num("scannedFiles") != 0 || again.num("redefinedCount") != 0 {
		t.Fatalf("no class file is newer than the last newestTimestamp: %v", again)
	}

	snap = h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, snap, "breakpoint", 9)
	if got := snap.vars("locals")["got"]; got != "99" {
		t.Fatalf("the second round runs the new value(): got = %q", got)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" {
		t.Fatalf("the program ends after two rounds: %v", end)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(out, "round 1 value 42\nround 2 value 99\n") {
		t.Fatalf("output: %q", out)
	}
	h.fail("redefine_classes", map[string]any{"sessionId": id, "classesDir": swapped}, "ended")
}

func TestRedefineClassesRefusesWhatItCannotSwap(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	h.fail("redefine_classes", map[string]any{"sessionId": h.session(), "classesDir": dir}, "only for Java")

	id := h.sessionFor("java")
	h.fail("redefine_classes", map[string]any{"sessionId": id, "classesDir": "classes"}, "absolute")
	h.fail("redefine_classes", map[string]any{"sessionId": id, "classesDir": filepath.Join(dir, "missing")}, "not a directory")
	h.fail("redefine_classes", map[string]any{"sessionId": id, "classesDir": dir}, "has not started")
}

// anyStrings turns a decoded JSON list of strings into []string.
func anyStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, item := range list {
		s, _ := item.(string)
		out = append(out, s)
	}
	return out
}

func TestJavaRedefineClassesWhileRunning(t *testing.T) {
	classes := javacInto(t, []string{"-g"}, javaSource(t, "Busy.java"))
	h := newHarness(t)
	id := h.sessionFor("java")
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": javaSource(t, "Busy.java"), "waitForStop": false})
	h.waitForOutput(id, "busy started")
	res := h.ok("redefine_classes", map[string]any{"sessionId": id, "classesDir": classes, "timeout": 60000})
	if !slices.Contains(anyStrings(res["redefined"]), "Busy") {
		t.Fatalf("a running JVM takes the class too: %v", res)
	}
	if p := h.ok("pause_execution", map[string]any{"sessionId": id}); p.str("state") != "paused" {
		t.Fatalf("the program runs on after the swap, and pauses: %v", p)
	}
}
