package server

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/mirror"
)

// ide is our own DAP client attached to a session's mirror, as VS Code
// would attach with the launch configuration expose_session returns.
type ide struct {
	t *testing.T
	c *dapc.Client
}

// attachIDE attaches to the mirror expose_session returned, sending its
// launch configuration as the attach arguments, as VS Code does.
func attachIDE(t *testing.T, exposed result) *ide {
	t.Helper()
	d := dialMirror(t, exposed.num("port"))
	if err := d.call("initialize", map[string]any{"adapterID": "mcp-debugger", "clientID": "test-ide"}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	d.event("initialized")
	if err := d.call("attach", map[string]any(exposed.obj("launchConfig")), nil); err != nil {
		t.Fatalf("attach with the launch configuration: %v", err)
	}
	d.call("configurationDone", nil, nil)
	return d
}

func dialMirror(t *testing.T, port int) *ide {
	t.Helper()
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 5*time.Second)
	if err != nil {
		t.Fatalf("connecting to the mirror: %v", err)
	}
	c := dapc.NewClient(conn, dapc.Options{})
	t.Cleanup(func() { c.Close() })
	return &ide{t: t, c: c}
}

func (d *ide) call(command string, args, body any) error {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return d.c.Call(ctx, command, args, body)
}

// event waits for the next event of that name, skipping others.
func (d *ide) event(name string) json.RawMessage {
	d.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-d.c.Events():
			if !ok {
				d.t.Fatalf("the mirror closed the connection while we waited for %s", name)
			}
			if ev.Name == name {
				return ev.Body
			}
		case <-timeout:
			d.t.Fatalf("no %s event within 10 s", name)
		}
	}
}

func (d *ide) topFrame() dap.StackFrame {
	d.t.Helper()
	var st dap.StackTraceResponseBody
	if err := d.call("stackTrace", map[string]any{"threadId": 1}, &st); err != nil || len(st.StackFrames) == 0 {
		d.t.Fatalf("stackTrace: %v %v", err, st)
	}
	return st.StackFrames[0]
}

// An IDE attached after the stop sees it replayed, then follows the
// agent's step; it cannot drive a read-only mirror.
func TestMirrorReplaysTheStopAndFollows(t *testing.T) {
	h := newHarness(t)
	id, ex := exposedAtAStop(t, h, nil)
	prog := mockProgram(t, "basic.mock")
	cfg := ex.obj("launchConfig")
	if ex["readOnly"] != true || cfg.num("debugServer") != ex.num("port") || cfg.str("request") != "attach" {
		t.Fatalf("expose_session: %v", ex)
	}
	d := attachIDE(t, ex)
	var stopped dap.StoppedEventBody
	if err := json.Unmarshal(d.event("stopped"), &stopped); err != nil || stopped.Reason != "breakpoint" {
		t.Fatalf("replayed stop: %+v %v", stopped, err)
	}
	if f := d.topFrame(); f.Line != 12 || f.Source == nil || f.Source.Path != prog {
		t.Fatalf("the IDE's top frame: %+v", f)
	}
	var scopes dap.ScopesResponseBody
	if err := d.call("scopes", map[string]any{"frameId": d.topFrame().Id}, &scopes); err != nil || len(scopes.Scopes) == 0 {
		t.Fatalf("scopes: %v %v", err, scopes)
	}
	var vars dap.VariablesResponseBody
	if err := d.call("variables", map[string]any{"variablesReference": scopes.Scopes[0].VariablesReference}, &vars); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, v := range vars.Variables {
		names[v.Name] = v.Value
	}
	if names["i"] != "1" || names["total"] != "0" {
		t.Fatalf("the IDE's locals: %v", names)
	}

	if err := d.call("next", map[string]any{"threadId": stopped.ThreadId}, nil); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("next on a read-only mirror: %v", err)
	}
	if err := d.call("evaluate", map[string]any{"expression": "total"}, nil); err == nil {
		t.Fatal("evaluate on a read-only mirror succeeded")
	}

	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 13)
	d.event("continued")
	d.event("stopped")
	if f := d.topFrame(); f.Line != 13 {
		t.Fatalf("after the agent's step the IDE shows line %d", f.Line)
	}

	h.ok("unexpose_session", map[string]any{"sessionId": id})
	select {
	case <-waitClosed(d.c):
	case <-time.After(10 * time.Second):
		t.Fatal("the IDE's connection outlived unexpose_session")
	}
	h.fail("unexpose_session", map[string]any{"sessionId": id}, "not exposed")
}

// waitClosed drains a client's events until its connection ends.
func waitClosed(c *dapc.Client) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range c.Events() {
		}
	}()
	return done
}

// Any local process can reach the mirror's port: one that does not attach
// with the exposure's token is refused and disconnected, and drives
// nothing, even with allowControl.
func TestMirrorRequiresItsToken(t *testing.T) {
	h := newHarness(t)
	id, ex := exposedAtAStop(t, h, map[string]any{"allowControl": true})
	token := ex.obj("launchConfig").str(mirror.TokenField)
	if token == "" {
		t.Fatalf("the launch configuration carries no %s: %v", mirror.TokenField, ex)
	}
	if other := h.ok("expose_session", map[string]any{"sessionId": h.session()}).obj("launchConfig").str(mirror.TokenField); other == token {
		t.Fatal("two exposures share a token")
	}

	for _, c := range []struct {
		name  string
		calls [][2]any // command, arguments
	}{
		{"no attach, straight to continue", [][2]any{{"continue", map[string]any{"threadId": 1}}}},
		{"initialize, then continue without attaching", [][2]any{{"initialize", map[string]any{"adapterID": "x"}}, {"continue", map[string]any{"threadId": 1}}}},
		{"attach without the token", [][2]any{{"initialize", map[string]any{"adapterID": "x"}}, {"attach", map[string]any{"debugServer": ex.num("port")}}}},
		{"attach with a wrong token", [][2]any{{"attach", map[string]any{mirror.TokenField: token + "x"}}}},
	} {
		d := dialMirror(t, ex.num("port"))
		var err error
		for _, call := range c.calls {
			err = d.call(call[0].(string), call[1], nil)
		}
		if err == nil || !strings.Contains(err.Error(), "token") {
			t.Fatalf("%s: %v, want a refusal naming the token", c.name, err)
		}
		select {
		case <-waitClosed(d.c):
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the mirror kept the connection open", c.name)
		}
	}
	// Nobody moved the program.
	if snap := h.ok("wait_for_stop", map[string]any{"sessionId": id}); snap.obj("location").num("line") != 12 {
		t.Fatalf("after the refused connections the program is at %v", snap["location"])
	}

	d := attachIDE(t, ex)
	d.event("stopped")
	if err := d.call("continue", map[string]any{"threadId": 1}, nil); err != nil {
		t.Fatalf("continue with the token: %v", err)
	}
	d.event("stopped")
}

// With allowControl the IDE drives the session, and the agent sees it.
func TestMirrorWithControl(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12})
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	ex := h.ok("expose_session", map[string]any{"sessionId": id, "allowControl": true})
	d := attachIDE(t, ex)
	d.event("stopped")
	var ev dap.EvaluateResponseBody
	if err := d.call("evaluate", map[string]any{"expression": "i * 10"}, &ev); err != nil || ev.Result != "10" {
		t.Fatalf("evaluate from the IDE: %v %+v", err, ev)
	}
	if err := d.call("continue", map[string]any{"threadId": 1}, nil); err != nil {
		t.Fatal(err)
	}
	d.event("stopped")
	snap := h.ok("wait_for_stop", map[string]any{"sessionId": id})
	if snap.vars("locals")["i"] != "2" {
		t.Fatalf("after the IDE's continue the agent sees %v", snap.vars("locals"))
	}
}

// The mirror with a real adapter: debugpy's frame ids and variable
// references pass through to the IDE.
func TestMirrorPython(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "loop.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 16})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 16)
	d := attachIDE(t, h.ok("expose_session", map[string]any{"sessionId": id}))
	var stopped dap.StoppedEventBody
	if err := json.Unmarshal(d.event("stopped"), &stopped); err != nil {
		t.Fatal(err)
	}
	var st dap.StackTraceResponseBody
	if err := d.call("stackTrace", map[string]any{"threadId": stopped.ThreadId}, &st); err != nil || len(st.StackFrames) == 0 || st.StackFrames[0].Line != 16 {
		t.Fatalf("the IDE's stack: %v %+v", err, st)
	}
	var scopes dap.ScopesResponseBody
	if err := d.call("scopes", map[string]any{"frameId": st.StackFrames[0].Id}, &scopes); err != nil || len(scopes.Scopes) == 0 {
		t.Fatalf("scopes: %v %v", err, scopes)
	}
	var vars dap.VariablesResponseBody
	if err := d.call("variables", map[string]any{"variablesReference": scopes.Scopes[0].VariablesReference}, &vars); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range vars.Variables {
		found = found || (v.Name == "i" && v.Value == "0")
	}
	if !found {
		t.Fatalf("the IDE's locals lack i=0: %+v", vars.Variables)
	}
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 17)
	d.event("stopped")
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	d.event("terminated")
}

// A TypeScript session runs on the Node adapter: the launch configuration
// an IDE attaches with names Node's debugger type, whose UI shows
// JavaScript values, not a native debugger's.
func TestExposeTypeScriptNamesNodesDebuggerType(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("typescript")
	h.stopAt(id, nodeProgram(t, "ts/src/weigh.ts"), 8, nodeProgram(t, "ts/dist/loop.js"))
	cfg := h.ok("expose_session", map[string]any{"sessionId": id}).obj("launchConfig")
	if got := cfg.str("type"); got != "node" {
		t.Fatalf("launchConfig.type of a TypeScript session = %q, want node (%v)", got, cfg)
	}
	d := attachIDE(t, h.ok("expose_session", map[string]any{"sessionId": id}))
	d.event("stopped")
}

// Every language names a VS Code debugger type: without one, an IDE
// attaching with expose_session's launch configuration finds no debugger.
func TestExposeEveryLanguageNamesAVSCodeType(t *testing.T) {
	for _, a := range adapter.All() {
		if lang := a.Language(); lang.VSCodeType == "" {
			t.Errorf("language %s has no VSCodeType", lang.ID)
		}
	}
}

// exposedAtAStop starts basic.mock in a new mock session, stopped at its
// breakpoint on line 12, and exposes the session (expose_session with
// args besides sessionId).
func exposedAtAStop(t *testing.T, h *harness, args map[string]any) (string, result) {
	t.Helper()
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 12)
	expose := map[string]any{"sessionId": id}
	maps.Copy(expose, args)
	return id, h.ok("expose_session", expose)
}
