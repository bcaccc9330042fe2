package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// A client in OpenAI's strict mode (the Agents SDK's conversion) must send
// every argument: those it would leave out come as null or as their type's
// zero. Neither may change what a call does.
func TestStrictClientZeroArgumentsMeanDefaults(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "loop.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 16, "condition": "i == 2"})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 16)

	// Every optional argument of a step, as a strict client sends them.
	in := h.ok("step_into", map[string]any{"sessionId": id, "threadId": 0, "waitForStop": true, "timeout": 0, "changesOnly": false, "maxBytes": 0})
	if in.obj("location").str("function") != "weigh" {
		t.Fatalf("a step with zero-valued arguments should step as one without: %v", in["location"])
	}

	// frameId 0 is no frame of debugpy's: it means the top frame (weigh's,
	// where item is 2), not "Unable to find thread".
	ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "item * 10", "frameId": 0, "context": nil})
	if ev.str("result") != "20" {
		t.Errorf("evaluate_expression {frameId: 0} should evaluate in the top frame: %v", ev)
	}
	locals := h.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": 0, "includeSpecial": false, "names": nil})
	if v := locals.vars("variables"); v["item"] != "2" {
		t.Errorf("get_local_variables {frameId: 0} should show the top frame's locals: %v", v)
	}
}

// env, dapLaunchArgs, adapterLaunchConfig and adapterConfig are declared in
// shapes every model API takes (a list of KEY=VALUE, a string of JSON) and
// still take the objects clients sent before.
func TestOpenMapsTakeEverySpelling(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	prog := pythonProgram(t, "loop.py")
	cases := []struct {
		name      string
		env, dap  any
		adapterCf any
	}{
		{"as declared", []string{"GREETING=hello world", "EMPTY="}, `{"justMyCode": false}`, `{"console": "internalConsole"}`},
		{"objects, as before", map[string]any{"GREETING": "hello world", "EMPTY": ""}, map[string]any{"justMyCode": false}, map[string]any{"console": "internalConsole"}},
		{"name and value pairs", []map[string]any{{"name": "GREETING", "value": "hello world"}, {"name": "EMPTY", "value": ""}}, map[string]any{"justMyCode": false}, nil},
		{"an object as JSON text", `{"GREETING": "hello world", "EMPTY": ""}`, `{"justMyCode": false}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{"language": "python", "executablePath": nil}
			if c.adapterCf != nil {
				args["adapterConfig"] = c.adapterCf
			}
			id := h.ok("create_debug_session", args).str("sessionId")
			dry := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "dryRunSpawn": true, "env": c.env, "dapLaunchArgs": c.dap})
			launch := dry.obj("data").obj("launchRequest")
			env := launch.obj("env")
			if env.str("GREETING") != "hello world" || fmt.Sprint(env["EMPTY"]) != "" {
				t.Errorf("env %v reached the launch request as %v", c.env, launch["env"])
			}
			if jmc, ok := launch["justMyCode"].(bool); !ok || jmc {
				t.Errorf("dapLaunchArgs %v reached the launch request as justMyCode %v", c.dap, launch["justMyCode"])
			}
			if s, _ := c.adapterCf.(string); c.adapterCf != nil && s != "" && launch.str("console") != "internalConsole" {
				t.Errorf("adapterConfig %v reached the launch request as console %v", c.adapterCf, launch["console"])
			}
			h.ok("close_debug_session", map[string]any{"sessionId": id})
		})
	}
	id := h.sessionFor("python")
	h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "dryRunSpawn": true, "env": []string{"NOEQUALS"}}, "KEY=VALUE")
}

// A strict-mode client may send null for every argument it would leave
// out: no tool refuses a null as a wrong type (the call may still fail for
// what is missing, saying what).
func TestStrictClientNullsAreNotGiven(t *testing.T) {
	h := newHarness(t)
	list, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := h.session()
	for _, tool := range list.Tools {
		props, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		args := map[string]any{}
		for name := range props {
			args[name] = nil
		}
		if _, takesSession := props["sessionId"]; takesSession {
			args["sessionId"] = id
		}
		if tool.Name == "close_debug_session" {
			continue
		}
		out, _ := h.call(tool.Name, args)
		if msg := out.str("error"); strings.Contains(msg, "invalid arguments") {
			t.Errorf("%s refuses nulls: %s", tool.Name, msg)
		}
	}
}
