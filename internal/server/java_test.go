package server

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/java"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests: the MCP tools on the real JVM through the built-in
// JDWP adapter, on testdata/java (whose README lists the lines used here).

func javaSource(t *testing.T, rel string) string {
	return filepath.Join(repoRoot(t), "testdata", "java", rel)
}

// compileJava compiles the packaged example with javac -g into a temp
// directory and returns it.
func compileJava(t *testing.T) string {
	t.Helper()
	javac := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "javac")
	out := t.TempDir()
	srcs, _ := filepath.Glob(javaSource(t, "src/com/example/*.java"))
	cmd := exec.Command(javac, append([]string{"-g", "-d", out}, srcs...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	return out
}

// startApp starts com.example.App from its compiled classes.
func startApp(h *harness, id, classes string, extra map[string]any) result {
	h.t.Helper()
	return h.ok("start_debugging", map[string]any{
		"sessionId":     id,
		"scriptPath":    filepath.Join(classes, "com", "example", "App.class"),
		"dapLaunchArgs": map[string]any{"mainClass": "com.example.App", "classPaths": []string{classes}},
	})
}

func TestJavaSingleFileLaunchOutputAndExit(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	src := javaSource(t, "Hello.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 6)
	if l := snap.vars("locals"); l["count"] != "3" || l["word"] != `"hi"` || l["i"] != "0" {
		t.Fatalf("locals: %v", l)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("want the end with code 0: %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	// stdout and stderr are separate pipes: only each stream's order is fixed.
	if !strings.Contains(all, "hi 0\n") || !strings.Contains(all, "hi 2\n") || strings.Index(all, "hi 0") > strings.Index(all, "hi 2") ||
		!strings.Contains(all, "to stderr\n") || strings.Contains(all, "Listening for transport") {
		t.Fatalf("output: %q", all)
	}
}

// A source file whose first top-level class has no main runs the class
// that has one, breakpoints bound in both; `java Pairs.java` alone would
// fail with "can't find main(String[]) method in class: Pair".
func TestJavaSourceFileWithMainInItsSecondClass(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	src := javaSource(t, "Pairs.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 20})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 20)
	if l := snap.vars("locals"); l["total"] != "7" {
		t.Fatalf("locals in Pairs.main: %v", l)
	}
	if rt := snap.obj("data").str("runtime"); !strings.Contains(rt, "Pairs") {
		t.Errorf("the runtime line says which class runs and why: %q", rt)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("want the end with code 0: %v", end)
	}
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); all != "pair total 7\n" {
		t.Fatalf("output: %q", all)
	}
}

func TestJavaBreakpointsStepsAndVariables(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJava(t)
	app := javaSource(t, "src/com/example/App.java")
	scale := javaSource(t, "src/com/example/Scale.java")
	// Scale is loaded only when weigh is first called.
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": scale, "line": 5, "condition": "item == 4"})
	snap := startApp(h, id, classes, nil)
	wantStop(t, snap, "breakpoint", 5)
	if l := snap.vars("locals"); l["item"] != "4" || l["factor"] != "10" {
		t.Fatalf("conditional breakpoint stopped with %v", l)
	}
	if f := snap.obj("location").str("function"); f != "Scale.weigh" {
		t.Fatalf("function: %q", f)
	}
	over := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 6)
	if l := over.vars("locals"); l["scaled"] != "40" {
		t.Fatalf("after step over: %v", l)
	}
	out := h.ok("step_out", map[string]any{"sessionId": id})
	if out.str("state") != "paused" || out.obj("location").num("line") != 22 || !strings.HasSuffix(out.obj("location").str("file"), "App.java") {
		t.Fatalf("step out: %v", out)
	}
	if l := out.vars("locals"); l["(return) weigh"] != "40" || l["total"] != "40" {
		t.Fatalf("after step out, want (return) weigh = 40 beside the caller's locals: %v", l)
	}
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "file": scale, "line": 5})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 22})
	at := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, at, "breakpoint", 22)
	l := at.localsAfter(out)
	if l["i"] != "3" || l["greeting"] != `"hello"` || l["boxed"] != "7" ||
		!strings.HasPrefix(l["numbers"], "int[5] {3, 1, 4, 1, 5}") ||
		!strings.Contains(l["names"], "size=2 [ada, bob]") || !strings.Contains(l["ages"], "{ada=36}") ||
		!strings.Contains(l["origin"], `name="origin"`) {
		t.Fatalf("locals at App:22: %v", l)
	}
	into := h.ok("step_into", map[string]any{"sessionId": id})
	wantStop(t, into, "step", 5)
	if f := into.obj("location").str("function"); f != "Scale.weigh" {
		t.Fatalf("step into: %v", into["location"])
	}
	for expr, want := range map[string]string{
		"item * factor + 1":        "11",
		"item > 0 && factor == 10": "true",
		`"w" + item`:               `"w1"`,
	} {
		if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": expr}); ev.str("result") != want {
			t.Fatalf("evaluate %s: %v", expr, ev)
		}
	}
	h.ok("step_out", map[string]any{"sessionId": id})
	for expr, want := range map[string]string{
		"origin.next.x + origin.y": "32",
		"names.size()":             "2",
		"numbers[2] * 2":           "8",
		"names.get(1)":             `"bob"`,
		"origin.sum()":             "3",
	} {
		if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": expr}); ev.str("result") != want {
			t.Fatalf("evaluate %s: %v", expr, ev)
		}
	}
	h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "new Point()"}, "not supported")
	vars := h.ok("get_variables", map[string]any{"sessionId": id, "scope": varRef(t, h, id, "origin")}).vars("variables")
	if vars["x"] != "1" || vars["name"] != `"origin"` || !strings.Contains(vars["next"], "x=30") {
		t.Fatalf("fields of origin: %v", vars)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 5 {
		t.Fatalf("want exit code 5: %v", end)
	}
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(all, "done hello 2 1 7 origin(1,2)\n") {
		t.Fatalf("output: %q", all)
	}
}

// varRef finds the variablesReference of a local of the current stop.
func varRef(t *testing.T, h *harness, id, name string) int {
	t.Helper()
	for _, v := range h.ok("get_local_variables", map[string]any{"sessionId": id}).list("variables") {
		if v.str("name") == name {
			return v.num("variablesReference")
		}
	}
	t.Fatalf("no local %s", name)
	return 0
}

func TestJavaMethodBreakpointHitCountAndLogpoint(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJava(t)
	app := javaSource(t, "src/com/example/App.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 23, "logMessage": "seen {i} total {total}"})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "Scale.weigh", "hitCondition": "3"})
	snap := startApp(h, id, classes, nil)
	if snap.str("state") != "paused" || snap.obj("location").num("line") != 5 {
		t.Fatalf("method breakpoint: %v", snap)
	}
	if l := snap.vars("locals"); l["item"] != "4" {
		t.Fatalf("third call should have item 4: %v", l)
	}
	h.waitForOutput(id, "seen 1 total 40")
}

func TestJavaUncaughtException(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": javaSource(t, "Throw.java")})
	wantStop(t, snap, "exception", 4)
	if l := snap.vars("locals"); l["order"] != "3" {
		t.Fatalf("locals at the exception: %v", l)
	}
	exc := snap.obj("exception")
	if !strings.Contains(exc.str("type")+exc.str("typeName")+exc.str("exceptionId"), "IllegalStateException") && !strings.Contains(snap.str("stopDescription")+exc.str("message"), "bad order 3") {
		t.Fatalf("exception details: %v", snap)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 1 {
		t.Fatalf("want exit 1: %v", end)
	}
}

func TestJavaPauseBusyThreadAndClose(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	before := proc.Descendants(os.Getpid())
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": javaSource(t, "Busy.java"), "waitForStop": false})
	h.waitForOutput(id, "busy started")
	p := h.ok("pause_execution", map[string]any{"sessionId": id})
	if p.str("state") != "paused" || p.str("stopReason") != "pause" {
		t.Fatalf("pause: %v", p)
	}
	if l := p.obj("location").num("line"); l != 5 && l != 6 {
		t.Fatalf("pause location: %v", p["location"])
	}
	if threads := h.ok("list_threads", map[string]any{"sessionId": id}).list("threads"); len(threads) < 2 {
		t.Fatalf("threads: %v", threads)
	}
	h.wantCloseKillsAll(id, before, 1)
}

func TestJavaAttach(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	src := javaSource(t, "Hello.java")
	port := startSuspendedJVM(t, src)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": false})
	snap := h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 30000})
	wantStop(t, snap, "breakpoint", 6)
	h.ok("close_debug_session", map[string]any{"sessionId": id})
}

// An attach with neither stopOnEntry nor waitForStop leaves a JVM that
// waits at its start (suspend=y) paused there, as the reference does: the
// agent's own continue then runs it to its breakpoint, instead of past it.
func TestJavaAttachLeavesStartSuspendedJVMPaused(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	src := javaSource(t, "Hello.java")
	port := startSuspendedJVM(t, src)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	attached := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port})
	if attached.str("state") != "paused" || attached.str("stopReason") != "entry" || !strings.Contains(attached.str("description"), "before main") {
		t.Fatalf("attach to a start-suspended JVM: state %q, stopReason %q; want paused at entry: %v", attached.str("state"), attached.str("stopReason"), attached)
	}
	snap := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 30000})
	wantStop(t, snap, "breakpoint", 6)
	h.ok("close_debug_session", map[string]any{"sessionId": id})
}

// startSuspendedJVM runs the source file in a JVM whose JDWP agent waits
// for a debugger at the program's start, and returns the agent's port.
func startSuspendedJVM(t *testing.T, src string) string {
	t.Helper()
	java := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "java")
	cmd := exec.Command(java, "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0", src)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	sc := bufio.NewScanner(stdout)
	port := ""
	for port == "" && sc.Scan() {
		port = strings.TrimPrefix(sc.Text(), "Listening for transport dt_socket at address: ")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	return port
}
