package node

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// The adapter alone, as a DAP server (ServeDAP, as `mcp-debugger adapter
// javascript` runs it), driven by our own DAP client against real node.

func testdata(t *testing.T, name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "node", name)
}

// dapSession is a DAP client connected to ServeDAP over a pipe.
type dapSession struct {
	t        *testing.T
	ctx      context.Context
	c        *dap.Client
	stopped  chan godap.StoppedEventBody
	exited   chan int
	ended    chan struct{}
	bpEvents chan godap.Breakpoint
}

func newDAPSession(t *testing.T) *dapSession {
	a, _ := adapter.Lookup("javascript")
	return newDAPSessionServing(t, func(ctx context.Context, end io.ReadWriteCloser) error {
		return a.(adapter.Builtin).ServeDAP(ctx, end, nil)
	})
}

// newDAPSessionServing is newDAPSession with serve in place of ServeDAP.
func newDAPSessionServing(t *testing.T, serve func(ctx context.Context, end io.ReadWriteCloser) error) *dapSession {
	testenv.RequireAdapter(t, "javascript")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	client, end := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- serve(ctx, end) }()
	d := &dapSession{t: t, ctx: ctx, c: dap.NewClient(client, dap.Options{}),
		stopped: make(chan godap.StoppedEventBody, 16), exited: make(chan int, 1), ended: make(chan struct{}), bpEvents: make(chan godap.Breakpoint, 16)}
	events := make(chan struct{})
	go func() {
		defer close(events)
		for ev := range d.c.Events() {
			switch ev.Name {
			case "stopped":
				var b godap.StoppedEventBody
				_ = json.Unmarshal(ev.Body, &b)
				d.stopped <- b
			case "exited":
				var b godap.ExitedEventBody
				_ = json.Unmarshal(ev.Body, &b)
				d.exited <- b.ExitCode
			case "terminated":
				close(d.ended)
			case "breakpoint":
				var b godap.BreakpointEventBody
				_ = json.Unmarshal(ev.Body, &b)
				d.bpEvents <- b.Breakpoint
			}
		}
	}()
	t.Cleanup(func() {
		d.c.Close()
		<-events
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Error("ServeDAP did not return after the client closed")
		}
	})
	return d
}

func (d *dapSession) call(command string, args, body any) {
	d.t.Helper()
	if err := d.c.Call(d.ctx, command, args, body); err != nil {
		d.t.Fatalf("%s: %v", command, err)
	}
}

func (d *dapSession) waitStop(reason string) godap.StoppedEventBody {
	d.t.Helper()
	select {
	case b := <-d.stopped:
		if b.Reason != reason {
			d.t.Fatalf("stopped for %q, want %q", b.Reason, reason)
		}
		return b
	case <-d.ctx.Done():
		d.t.Fatalf("no %s stop", reason)
	}
	return godap.StoppedEventBody{}
}

func (d *dapSession) top() (godap.StackFrame, map[string]godap.Variable, int) {
	d.t.Helper()
	var st godap.StackTraceResponseBody
	d.call("stackTrace", map[string]any{"threadId": 1}, &st)
	var sc godap.ScopesResponseBody
	d.call("scopes", map[string]any{"frameId": st.StackFrames[0].Id}, &sc)
	var vars godap.VariablesResponseBody
	d.call("variables", map[string]any{"variablesReference": sc.Scopes[0].VariablesReference}, &vars)
	out := map[string]godap.Variable{}
	for _, v := range vars.Variables {
		out[v.Name] = v
	}
	return st.StackFrames[0], out, sc.Scopes[0].VariablesReference
}

func TestServeDAPLaunchBreakpointSetVariable(t *testing.T) {
	d := newDAPSession(t)
	src, helper := testdata(t, "loop.js"), testdata(t, "weigh.js")
	d.call("initialize", map[string]any{"adapterID": "node", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}, nil)
	d.call("launch", map[string]any{"program": src}, nil)
	var set godap.SetBreakpointsResponseBody
	// Line 4 is blank inside weigh: the breakpoint must land on line 5.
	d.call("setBreakpoints", map[string]any{"source": map[string]any{"path": helper}, "breakpoints": []map[string]any{{"line": 4}}}, &set)
	if len(set.Breakpoints) != 1 || set.Breakpoints[0].Verified {
		t.Fatalf("before the script loads the breakpoint is pending: %+v", set.Breakpoints)
	}
	d.call("setExceptionBreakpoints", map[string]any{"filters": []string{"uncaught"}}, nil)
	d.call("configurationDone", nil, nil)
	select {
	case bp := <-d.bpEvents:
		if !bp.Verified || bp.Line != 5 || bp.Id != set.Breakpoints[0].Id {
			t.Fatalf("resolved breakpoint: %+v", bp)
		}
	case <-d.ctx.Done():
		t.Fatal("the breakpoint was never verified")
	}
	stop := d.waitStop("breakpoint")
	if len(stop.HitBreakpointIds) != 1 || stop.HitBreakpointIds[0] != set.Breakpoints[0].Id {
		t.Fatalf("hit ids: %+v", stop)
	}
	frame, vars, scope := d.top()
	if frame.Name != "weigh" || frame.Line != 5 || frame.Source.Path != helper || vars["factor"].Value != "10" {
		t.Fatalf("top frame %+v, locals %+v", frame, vars)
	}
	var setVar godap.SetVariableResponseBody
	d.call("setVariable", map[string]any{"variablesReference": scope, "name": "factor", "value": "100"}, &setVar)
	if setVar.Value != "100" {
		t.Fatalf("setVariable: %+v", setVar)
	}
	d.call("next", map[string]any{"threadId": 1}, nil)
	d.waitStop("step")
	if _, vars, _ = d.top(); vars["scaled"].Value != "100" {
		t.Fatalf("the new factor should be used: %+v", vars["scaled"])
	}
	var ev godap.EvaluateResponseBody
	frame, _, _ = d.top()
	d.call("evaluate", map[string]any{"expression": "({a: [1, 2], s: 'x'})", "frameId": frame.Id, "context": "repl"}, &ev)
	if ev.Result != `{a: Array(2), s: "x"}` || ev.VariablesReference == 0 {
		t.Fatalf("evaluate: %+v", ev)
	}
	d.call("setBreakpoints", map[string]any{"source": map[string]any{"path": helper}, "breakpoints": []map[string]any{}}, nil)
	d.call("continue", map[string]any{"threadId": 1}, nil)
	select {
	case code := <-d.exited:
		if code != 3 {
			t.Fatalf("exit code %d, want 3", code)
		}
	case <-d.ctx.Done():
		t.Fatal("no exited event")
	}
	d.call("disconnect", map[string]any{"terminateDebuggee": true}, nil)
}

func TestServeDAPStopOnEntryAndTerminate(t *testing.T) {
	d := newDAPSession(t)
	d.call("initialize", map[string]any{"adapterID": "node"}, nil)
	d.call("launch", map[string]any{"program": testdata(t, "busy.js"), "stopOnEntry": true}, nil)
	d.call("configurationDone", nil, nil)
	d.waitStop("entry")
	if frame, _, _ := d.top(); frame.Line != 4 {
		t.Fatalf("entry stop at %+v, want line 4", frame)
	}
	d.call("terminate", nil, nil)
	select {
	case <-d.ended:
	case <-d.ctx.Done():
		t.Fatal("no terminated event after terminate")
	}
	d.call("disconnect", map[string]any{"terminateDebuggee": true}, nil)
}

// TestHandlerPanicFailsOnlyThatRequest: a panic in a request handler (one
// injected into the server's table) fails that request, and the session
// goes on to the program's end.
func TestHandlerPanicFailsOnlyThatRequest(t *testing.T) {
	d := newDAPSessionServing(t, func(ctx context.Context, end io.ReadWriteCloser) error {
		s := newServer(end, nil)
		s.Handlers["evaluate"] = func(context.Context, *request) (any, error) { panic("injected fault") }
		stop := context.AfterFunc(ctx, func() { end.Close() })
		defer stop()
		s.serve()
		return nil
	})
	d.call("initialize", map[string]any{"adapterID": "node"}, nil)
	d.call("launch", map[string]any{"program": testdata(t, "loop.js"), "stopOnEntry": true}, nil)
	d.call("configurationDone", nil, nil)
	d.waitStop("entry")
	err := d.c.Call(d.ctx, "evaluate", map[string]any{"expression": "1", "context": "repl"}, nil)
	if want := "internal error in the node adapter while handling evaluate: injected fault"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("the panicking request: %v; want %q", err, want)
	}
	d.top()
	d.call("continue", map[string]any{"threadId": 1}, nil)
	select {
	case code := <-d.exited:
		if code != 3 {
			t.Fatalf("exit code %d after the panic, want 3", code)
		}
	case <-d.ctx.Done():
		t.Fatal("no exited event after the panic")
	}
	d.call("disconnect", map[string]any{"terminateDebuggee": true}, nil)
}

func TestLogTemplate(t *testing.T) {
	if got := logTemplate("x={x} `q` ${y} {a.b}"); got != "`x=${x} \\`q\\` \\$${y} ${a.b}`" {
		t.Fatalf("logTemplate: %s", got)
	}
}
