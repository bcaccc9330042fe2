package server

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// What MCP Inspector and other clients send in place of the declared types
// (strings for booleans, numbers and arrays) works as if sent right.
func TestArgumentsInTheTypesClientsSend(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": "13"})
	if bp.num("line") != 13 {
		t.Errorf("line \"13\": %v", bp)
	}
	dry := h.ok("start_debugging", map[string]any{
		"sessionId": id, "scriptPath": prog, "args": `["a", "b"]`, "dryRunSpawn": "true", "stopOnEntry": nil,
	})
	if dry.str("state") == "paused" {
		t.Errorf("dryRunSpawn \"true\" should start nothing: %v", dry)
	}
	entry := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": "TRUE"})
	if entry.str("state") != "paused" || entry.obj("location").num("line") == 13 {
		t.Errorf("stopOnEntry \"TRUE\" should pause at the entry, before line 13: %v", entry)
	}
}

// A wrong argument is named, with the JSON type it needs: never a Go type.
func TestWrongArgumentTypesSayWhichAndWhat(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "args": 5}, `argument "args" must be an array (got a number)`},
		{"start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": "yes"}, `argument "stopOnEntry" must be true or false (got a string)`},
		{"start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "args": []any{1}}, `want a string`},
		{"set_breakpoint", map[string]any{"sessionId": id, "file": []string{prog}, "line": 3}, `argument "file" must be a string (got an array)`},
		{"start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "env": 5}, `argument "env": must be a list of "KEY=VALUE" strings (got a number)`},
		{"start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "dapLaunchArgs": "justMyCode"}, `argument "dapLaunchArgs": want a JSON object`},
	} {
		failure := h.fail(c.tool, c.args, c.want)
		if msg := failure.str("error"); containsAny(msg, "Go struct", "[]string", "map[string]") {
			t.Errorf("%s: the error speaks Go: %s", c.tool, msg)
		}
	}
}

func containsAny(s string, subs ...string) bool {
	return slices.ContainsFunc(subs, func(sub string) bool { return strings.Contains(s, sub) })
}

// MCP Inspector (0.15) sends every argument as text: numbers, booleans,
// arrays and objects as strings. A debugging round on real debugpy goes as
// if they had been sent in their declared types.
func TestInspectorStyleStringArgumentsOnPython(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "loop.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": "16", "condition": "i == 2"})
	snap := h.ok("start_debugging", map[string]any{
		"sessionId": id, "scriptPath": prog, "args": `["--tag", "inspector"]`, "env": `{"LOOP_TAG": "from-env"}`,
		"stopOnEntry": "false", "waitForStop": "true", "timeout": "60000", "changesOnly": "false", "maxBytes": "20000",
	})
	wantStop(t, snap, "breakpoint", 16)
	if i := snap.vars("locals")["i"]; i != "2" {
		t.Fatalf("the condition \"i == 2\" should hold at the stop: i = %s", i)
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "sys.argv[1:]"}); ev.str("result") != "['--tag', 'inspector']" {
		t.Errorf("args given as a JSON string: argv %v", ev["result"])
	}
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "__import__('os').environ['LOOP_TAG']"}); ev.str("result") != "'from-env'" {
		t.Errorf("env given as a JSON string: %v", ev["result"])
	}
	frames := h.ok("get_stack_trace", map[string]any{"sessionId": id, "levels": "5", "includeInternals": "false"}).list("stackFrames")
	if len(frames) == 0 {
		t.Fatal("no stack frames")
	}
	frameID := strconv.Itoa(frames[0].num("id"))
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "i * 10", "frameId": frameID, "timeout": "5000"}); ev.str("result") != "20" {
		t.Errorf("evaluate with frameId %q: %v", frameID, ev["result"])
	}
	locals := h.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": frameID}).vars("variables")
	if locals["total"] != "3" {
		t.Errorf("locals of frame %q: %v", frameID, locals)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": "true", "timeout": "60000"})
	if _, exited := end["exitCode"]; !exited || !strings.Contains(end.outputText("output"), "total 30") {
		t.Errorf("after the last hit the program should run to its end: %v", end)
	}
}
