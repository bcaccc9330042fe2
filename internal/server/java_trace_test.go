package server

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// compileJavaFile compiles one of testdata/java's single files with
// javac -g (the source launcher's classes have no local names: jvm-6)
// and returns the classes' directory.
func compileJavaFile(t *testing.T, name string) string {
	t.Helper()
	javac := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "javac")
	out := t.TempDir()
	if b, err := exec.Command(javac, "-g", "-d", out, javaSource(t, name)).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	return out
}

// A tracepoint in an enum constant's body: the enum's static initializer
// spans the line but has no code on it (docs/adapter-quirks.md, jvm-10),
// and the value collected holds newlines, a tab, a quote and control
// bytes (jvm-9). Each row is whole and reported on the line set.
func TestJavaTracepointValueWithNewlinesOnTheLineSet(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJavaFile(t, "Lines.java")
	src := javaSource(t, "Lines.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 5, "collect": []string{"text", "i"}})
	end := h.ok("start_debugging", map[string]any{
		"sessionId":     id,
		"scriptPath":    filepath.Join(classes, "Lines.class"),
		"dapLaunchArgs": map[string]any{"mainClass": "Lines", "classPaths": []string{classes}},
	})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) {
		t.Fatalf("a tracepoint never stops the program: %v", end)
	}
	page := h.ok("get_trace", map[string]any{"sessionId": id})
	hits, _ := traceRows(t, page)
	if len(hits) != 3 {
		t.Fatalf("want 3 hits of line 5: %v", page)
	}
	for n, hit := range hits {
		text := strings.Join([]string{"line " + strconv.Itoa(n), "tab\there", `quote " end`, "sep \x1e\x1f bell \a"}, "\n")
		if hit.table.num("line") != 5 || hit.str("text") != strconv.Quote(text) || hit.str("i") != strconv.Itoa(n) {
			t.Errorf("hit %d: want line 5, text %s and i %d: %v %v", n, strconv.Quote(text), n, hit.table, hit.cells)
		}
	}
	out := h.ok("get_output", map[string]any{"sessionId": id})
	if text := out.outputText("entries"); strings.Contains(text, "tab") || !strings.Contains(text, "total ") {
		t.Errorf("no part of a value leaks into the program's output: %q", text)
	}
}

// Static methods and fields of classes named simply (java.lang's, the
// program's own) or in full: the expressions an agent writes.
func TestJavaEvaluateCallsStaticMethodsOfClasses(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJavaFile(t, "Lines.java")
	src := javaSource(t, "Lines.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 21})
	wantStop(t, h.ok("start_debugging", map[string]any{
		"sessionId":     id,
		"scriptPath":    filepath.Join(classes, "Lines.class"),
		"dapLaunchArgs": map[string]any{"mainClass": "Lines", "classPaths": []string{classes}},
	}), "breakpoint", 21)
	eval := func(expr string) string {
		t.Helper()
		return h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": expr}).str("result")
	}
	hash := eval("System.identityHashCode(args)")
	for expr, want := range map[string]string{
		"Math.max(i, 2)":                           "2",
		"Math.abs(-3.5)":                           "3.5",
		"Integer.MAX_VALUE":                        "2147483647",
		"java.lang.Integer.toHexString(255)":       `"ff"`,
		"String.valueOf(total + 40)":               `"40"`,
		"System.identityHashCode(args) == " + hash: "true",
	} {
		if got := eval(expr); got != want {
			t.Errorf("%s = %s, want %s", expr, got, want)
		}
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "java.lang.Math"}, "names a class")
	// The program's own enum, loaded by the first turn: a static field
	// of it, and a method of that.
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 21)
	if got := eval("Step.JOIN.run(7).length()"); got != "41" {
		t.Errorf("Step.JOIN.run(7).length() = %s, want 41", got)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("continue_execution", map[string]any{"sessionId": id})
	out := h.ok("get_output", map[string]any{"sessionId": id})
	if text := out.outputText("entries"); !strings.HasSuffix(strings.TrimSpace(text), " "+hash) {
		t.Errorf("the program prints the identity hash evaluated, %s: %q", hash, text)
	}
}

// An object's preview in a trace row names the length of an array it
// holds ("arr=int[4]"), as a stop's array does, not only its type.
func TestJavaTraceRowShowsAnArrayFieldsLength(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJavaFile(t, "Heap.java")
	src := javaSource(t, "Heap.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 17, "collect": []string{"h"}})
	end := h.ok("start_debugging", map[string]any{
		"sessionId":     id,
		"scriptPath":    filepath.Join(classes, "Heap.class"),
		"dapLaunchArgs": map[string]any{"mainClass": "Heap", "classPaths": []string{classes}},
	})
	if end.str("state") != "stopped" {
		t.Fatalf("a tracepoint never stops the program: %v", end)
	}
	hits, _ := traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
	if len(hits) != 5 {
		t.Fatalf("want 5 hits of line 17, got %d", len(hits))
	}
	if got := hits[4].str("h"); !strings.Contains(got, "arr=int[4]") || !strings.Contains(got, "size=4") {
		t.Errorf("the fifth hit shows %q, want the array's length (arr=int[4]) and size=4", got)
	}
}
