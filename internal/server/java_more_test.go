package server

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// More integration tests of the JVM adapter: launching a .jar, the "all"
// exception filter, classes without local variable tables, stop on entry.

func TestJavaAllExceptionsStopsAtCaughtOne(t *testing.T) {
	src := javaSource(t, "Caught.java")
	h := newHarness(t)
	// By default only uncaught exceptions stop: the program runs through.
	id := h.sessionFor("java")
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("a caught exception must not stop by default: %v", end)
	}
	id = h.sessionFor("java")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "breakOnExceptions": "all"})
	wantStop(t, snap, "exception", 5)
	if l := snap.vars("locals"); l["parsed"] != "-1" {
		t.Fatalf("locals at the caught exception: %v", l)
	}
	exc := snap.obj("exception")
	if !strings.Contains(exc.str("exceptionId")+exc.str("typeName"), "NumberFormatException") || !strings.Contains(exc.str("message")+snap.str("stopDescription"), `"4x"`) {
		t.Fatalf("exception details: %v", snap)
	}
	end = h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("the program catches it and ends with 0: %v", end)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(out, "parsed -1\n") {
		t.Fatalf("output: %q", out)
	}
}

// javacInto compiles sources into a temp directory with the given flags.
func javacInto(t *testing.T, flags []string, srcs ...string) string {
	t.Helper()
	javac := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "javac")
	out := t.TempDir()
	args := append(append(append([]string{}, flags...), "-d", out), srcs...)
	if b, err := exec.Command(javac, args...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	return out
}

func TestJavaClassWithoutDebugInfoSaysToRecompile(t *testing.T) {
	src := javaSource(t, "Hello.java")
	// javac's default keeps line numbers but no local variable table.
	classes := javacInto(t, nil, src)
	h := newHarness(t)
	id := h.sessionFor("java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(classes, "Hello.class")})
	wantStop(t, snap, "breakpoint", 6)
	var note string
	for name, value := range snap.vars("locals") {
		if strings.Contains(value, "javac -g") {
			note = name + " = " + value
		}
	}
	if note == "" {
		t.Fatalf("the locals should say to recompile with javac -g: %v", snap.vars("locals"))
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "count + 1"}, "javac -g")
}

func TestJavaStopOnEntry(t *testing.T) {
	src := javaSource(t, "Hello.java")
	h := newHarness(t)
	id := h.sessionFor("java")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "stopOnEntry": true})
	wantStop(t, snap, "entry", 3)
	if rt := snap.obj("data").str("runtime"); !strings.HasPrefix(rt, "java: /") || !strings.Contains(rt, "(PATH)") {
		t.Errorf("the start should name the java that runs the program and why: runtime %q", rt)
	}
	if f := snap.obj("location").str("function"); f != "Hello.main" {
		t.Fatalf("entry stop in %q, want Hello.main", f)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); strings.Contains(out, "hi 0") {
		t.Fatalf("the program ran before the entry stop: %q", out)
	}
	over := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 4)
	if l := over.vars("locals"); l["count"] != "3" {
		t.Fatalf("after the first line: %v", l)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("want the end with code 0: %v", end)
	}
}

func TestJavaJarLaunch(t *testing.T) {
	classes := compileJava(t)
	jarTool := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "jar")
	jar := filepath.Join(t.TempDir(), "app.jar")
	if b, err := exec.Command(jarTool, "--create", "--file", jar, "--main-class", "com.example.App", "-C", classes, ".").CombinedOutput(); err != nil {
		t.Fatalf("jar: %v\n%s", err, b)
	}
	h := newHarness(t)
	id := h.sessionFor("java")
	scale := javaSource(t, "src/com/example/Scale.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": scale, "line": 6, "condition": "scaled == 50"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": jar})
	wantStop(t, snap, "breakpoint", 6)
	if l := snap.vars("locals"); l["item"] != "5" || l["scaled"] != "50" {
		t.Fatalf("locals in the jar's Scale.weigh: %v", l)
	}
	if file := snap.stopFile(t); file != scale {
		t.Fatalf("the stop should map to the source file %s: %v", scale, snap["location"])
	}
	// An instance method: `this` and its fields without naming it.
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "Point.toString"})
	at := h.ok("continue_execution", map[string]any{"sessionId": id})
	if at.str("state") != "paused" || at.obj("location").str("function") != "Point.toString" {
		t.Fatalf("want the stop in Point.toString: %v", at)
	}
	if l := at.vars("locals"); !strings.Contains(l["this"], `name="origin"`) {
		t.Fatalf("this in Point.toString: %v", l)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "x + y + next.x"}); ev.str("result") != "33" {
		t.Fatalf("fields of this: %v", ev)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 5 {
		t.Fatalf("want exit code 5: %v", end)
	}
}

func TestJavaReturnValuesOfRecursiveCalls(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	h.ok("trace_function", map[string]any{"sessionId": id, "function": "Fact.fact"})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": javaSource(t, "Fact.java")})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("a trace never stops the program: %v", end)
	}
	_, rows := traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
	var calls []string
	for _, call := range rows {
		calls = append(calls, "fact("+call.str("n")+")="+call.str("return"))
	}
	// Each step out shows the return of its own frame, innermost first,
	// and each return goes to its own call's row.
	if got, want := strings.Join(calls, " "), "fact(4)=24 fact(3)=6 fact(2)=2 fact(1)=1"; got != want {
		t.Errorf("calls: %s, want %s", got, want)
	}
}

// instanceof answers as Java does: for the object's class, its
// superclasses and every interface they extend, named simply, nested or
// fully qualified; null is an instance of nothing.
func TestJavaEvaluateInstanceOf(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	src := javaSource(t, "Kinds.java")
	h.stopAt(id, src, 17, src)
	for expr, want := range map[string]string{
		"named instanceof Book":                  "true",
		"named instanceof Kinds.Book":            "true",
		"named instanceof Titled":                "true",
		"named instanceof Named":                 "true",
		"named instanceof Object":                "true",
		"words instanceof java.util.List":        "true",
		"words instanceof Collection":            "true",
		"words instanceof Named":                 "false",
		"nothing instanceof Object":              "false",
		"named instanceof Book && words != null": "true",
	} {
		if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": expr}); ev.str("result") != want {
			t.Errorf("evaluate %s: want %s, got %v", expr, want, ev)
		}
	}
}

// A bare method name binds in whatever class of the program has it, once
// that class is loaded; Class.method binds every overload with code. The
// answers say where each was bound.
func TestJavaFunctionBreakpointBareNameAndOverloads(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	src := javaSource(t, "Overloads.java")
	set := h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "helper"})
	if set.str("functionName") != "helper" {
		t.Fatalf("set_breakpoint helper: %v", set)
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "Overloads.compute"})
	first := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, first, "function breakpoint", 12)
	if l := first.vars("locals"); l["x"] != "3" {
		t.Fatalf("locals in compute(int): %v", l)
	}
	fbs := h.ok("list_breakpoints", map[string]any{"sessionId": id}).list("functionBreakpoints")
	bound := map[string]int{}
	for _, fb := range fbs {
		if fb["verified"] != true || !strings.HasSuffix(fb.str("boundFile"), "Overloads.java") {
			t.Fatalf("function breakpoints once Overloads is loaded: %v", fbs)
		}
		bound[fb.str("functionName")] = fb.num("boundLine")
	}
	if bound["helper"] != 22 || (bound["Overloads.compute"] != 12 && bound["Overloads.compute"] != 17) {
		t.Fatalf("bound lines: %v", fbs)
	}
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "function breakpoint", 17)
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "function breakpoint", 22)
	h.ok("close_debug_session", map[string]any{"sessionId": id})
}

// A function breakpoint set while the program runs binds at once in a
// class already loaded, and is hit.
func TestJavaFunctionBreakpointWhileRunning(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	src := javaSource(t, "Overloads.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 4})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "args": []string{"4000"}}), "breakpoint", 4)
	h.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": false})
	set := h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "helper"})
	if set["verified"] != true || set.num("boundLine") != 22 {
		t.Fatalf("a function breakpoint set while Overloads sleeps should bind at once at line 22: %v", set)
	}
	wantStop(t, h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 30000}), "function breakpoint", 22)
	h.ok("close_debug_session", map[string]any{"sessionId": id})
}

// An exception stop's lastStop in list_debug_sessions names the exception
// class (text) and carries its exceptionInfo: the class as exceptionId,
// breakMode unhandled for an uncaught one and always for a caught one
// under breakOnExceptions "all", and the details (message, full type
// name, the trace through the program's frames).
func TestJavaExceptionLastStop(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		file, breakOn, class, mode, message, frame string
	}{
		{"Throw.java", "uncaught", "java.lang.IllegalStateException", "unhandled", "bad order 3", "at Throw.check"},
		{"Caught.java", "all", "java.lang.NumberFormatException", "always", `For input string: "4x"`, "at Caught.main"},
	} {
		id := h.sessionFor("java")
		snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": javaSource(t, c.file), "breakOnExceptions": c.breakOn})
		if snap.str("stopReason") != "exception" {
			t.Fatalf("%s: want an exception stop: %v", c.file, snap)
		}
		var last result
		for _, s := range h.ok("list_debug_sessions", nil).list("sessions") {
			if s.str("id") == id {
				last = s.obj("lastStop")
			}
		}
		info, details := last.obj("exceptionInfo"), last.obj("exceptionInfo").obj("details")
		if last.str("text") != c.class || last.str("description") != c.class+": "+c.message ||
			info.str("exceptionId") != c.class || info.str("breakMode") != c.mode ||
			details.str("message") != c.message || details.str("fullTypeName") != c.class ||
			!strings.Contains(details.str("stackTrace"), c.frame) {
			t.Fatalf("%s: lastStop: %v", c.file, last)
		}
		h.ok("close_debug_session", map[string]any{"sessionId": id})
	}
}
