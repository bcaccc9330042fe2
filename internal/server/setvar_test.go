package server

import (
	"testing"
)

// set_variable on real adapters: the change takes effect in the program,
// and the next answers show it.

func TestPythonSetVariable(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "agent.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 21})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 21)
	set := h.ok("set_variable", map[string]any{"sessionId": id, "name": "p", "value": "100"})
	if set.obj("variable").str("value") != "100" {
		t.Fatalf("set_variable: %v", set)
	}
	if l := h.ok("get_local_variables", map[string]any{"sessionId": id}).vars("variables"); l["p"] != "100" {
		t.Errorf("get_local_variables after set_variable: %v", l)
	}
	next := h.ok("continue_execution", map[string]any{"sessionId": id})
	if l := next.vars("locals"); l["paid"] != "[50.0]" {
		t.Errorf("the program used the new value (discount(100, 0.5) = 50.0): %v", l)
	}
	h.fail("set_variable", map[string]any{"sessionId": id, "name": "no_such_name", "value": "1"}, "no variable")
	h.fail("set_variable", map[string]any{"sessionId": id, "name": "p", "value": "1 +"}, "set p")
}

func TestJavaScriptSetVariable(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	src := nodeProgram(t, "loop.js")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}), "breakpoint", 12)
	h.ok("set_variable", map[string]any{"sessionId": id, "name": "total", "value": "100"})
	if l := h.ok("step_over", map[string]any{"sessionId": id}).vars("locals"); l["total"] != "101" {
		t.Errorf("total += i after total = 100: %v", l)
	}
}

func TestRubySetVariableIsRefused(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}), "breakpoint", 12)
	h.fail("set_variable", map[string]any{"sessionId": id, "name": "total", "value": "1"}, "not supported by "+rdbgName(t))
	if l := h.ok("get_local_variables", map[string]any{"sessionId": id}).vars("variables"); l["total"] != "0" {
		t.Errorf("the session stays usable: %v", l)
	}
}
