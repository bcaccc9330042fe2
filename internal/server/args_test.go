package server

import (
	"slices"
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
		{"start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "env": "PATH=/bin"}, `argument "env" must be an object (got a string)`},
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
