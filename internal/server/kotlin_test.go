package server

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Kotlin on the JVM adapter: a program compiled by kotlinc into a jar
// with its runtime, debugged as language "kotlin" (the JVM adapter under
// another name).

// kotlinJar compiles testdata/java/kotlin/Greet.kt into a runnable jar,
// skipping the test without kotlinc (failing it under CI, whose install
// script provides it).
func kotlinJar(t *testing.T) string {
	t.Helper()
	kotlinc := testenv.RequireTool(t, "apt-get install -y --no-install-recommends kotlin", "kotlinc")
	jar := filepath.Join(t.TempDir(), "greet.jar")
	cmd := exec.Command(kotlinc, javaSource(t, "kotlin/Greet.kt"), "-include-runtime", "-d", jar)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kotlinc: %v\n%s", err, b)
	}
	return jar
}

func TestKotlinBreakpointLocalsAndSteps(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("kotlin")
	jar := kotlinJar(t)
	src := javaSource(t, "kotlin/Greet.kt")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 4, "condition": "item == 2"})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": jar})
	wantStop(t, snap, "breakpoint", 4)
	if l := snap.vars("locals"); l["item"] != "2" || l["factor"] != "10" {
		t.Fatalf("locals in weigh: %v", l)
	}
	if loc := snap.obj("location"); loc.str("function") != "GreetKt.weigh" || snap.stopFile(t) != src {
		t.Fatalf("location: %v", loc)
	}
	over := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, over, "step", 5)
	if l := over.vars("locals"); l["scaled"] != "20" {
		t.Fatalf("after step over: %v", l)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "scaled + item"}); ev.str("result") != "22" {
		t.Fatalf("evaluate: %v", ev)
	}
	out := h.ok("step_out", map[string]any{"sessionId": id})
	if out.str("state") != "paused" || out.obj("location").num("line") != 12 {
		t.Fatalf("step out: %v", out)
	}
	if l := out.vars("locals"); l["(return) weigh"] != "20" || !strings.Contains(l["names"], "[ada, bob]") {
		t.Fatalf("main's locals after the step out: %v", l)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("want the end with code 0: %v", end)
	}
	if all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(all, "item 3 total 60\ndone 2\n") {
		t.Fatalf("output: %q", all)
	}
}
