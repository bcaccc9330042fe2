package mock_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/mock"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// guard bounds every wait, so that a broken adapter fails a test instead of
// hanging it; nothing ever waits this long when things work.
const guard = 10 * time.Second

// TestMain checks, after every test has cleaned up, that no goroutine of
// the adapter (or of a DAP client a test forgot to close) is left.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := leftoverGoroutines(); leaked != "" {
			fmt.Fprintf(os.Stderr, "goroutines left behind:\n%s\n", leaked)
			code = 1
		}
	}
	os.Exit(code)
}

// leftoverGoroutines returns the stacks of goroutines still running code
// of this package or of the DAP client. A goroutine that has just closed
// the channel its owner waits on may not have returned yet, so it retries
// for a while, yielding.
func leftoverGoroutines() string {
	deadline := time.Now().Add(guard)
	for {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var leaked []string
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "/internal/adapter/mock.") || strings.Contains(g, "/internal/dap.") {
				leaked = append(leaked, g)
			}
		}
		if len(leaked) == 0 || time.Now().After(deadline) {
			return strings.Join(leaked, "\n\n")
		}
		runtime.Gosched()
	}
}

func testdata(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "mock", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// writeProgram writes a program for one test and returns its path.
func writeProgram(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "prog.mock")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fake is one mock adapter driven through the project's DAP client, the
// way the session engine drives adapters.
type fake struct {
	t      *testing.T
	conn   *adapter.Connection
	c      *dap.Client
	path   string
	seen   []string
	output []godap.OutputEventBody
}

func mockAdapter(t *testing.T) adapter.Adapter {
	t.Helper()
	a, ok := adapter.Lookup("mock")
	if !ok {
		t.Fatal("mock adapter is not registered")
	}
	return a
}

func launch(t *testing.T, program string, extra map[string]any) *fake {
	t.Helper()
	conn, err := mockAdapter(t).Launch(context.Background(), adapter.LaunchConfig{Program: program, Extra: extra})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	return connect(t, conn, program)
}

func connect(t *testing.T, conn *adapter.Connection, program string) *fake {
	t.Helper()
	c := dap.NewClient(conn.Transport, dap.Options{})
	t.Cleanup(func() {
		c.Close()
		conn.Cleanup()
	})
	return &fake{t: t, conn: conn, c: c, path: program}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), guard)
	t.Cleanup(cancel)
	return c
}

func (f *fake) call(command string, args, body any) error {
	return f.c.Call(ctx(f.t), command, args, body)
}

func (f *fake) must(command string, args, body any) {
	f.t.Helper()
	if err := f.call(command, args, body); err != nil {
		f.t.Fatalf("%s: %v", command, err)
	}
}

// mustFail calls command and returns the adapter's error text.
func (f *fake) mustFail(command string, args any) string {
	f.t.Helper()
	err := f.call(command, args, nil)
	if err == nil {
		f.t.Fatalf("%s succeeded; want an error", command)
	}
	re, ok := err.(*dap.ResponseError)
	if !ok {
		f.t.Fatalf("%s: %v; want an error response", command, err)
	}
	return re.Text()
}

// event waits for the named event. Output events on the way are kept; any
// other event is a failure, so that tests also check what did not happen.
func (f *fake) event(name string) dap.Event {
	f.t.Helper()
	timer := time.NewTimer(guard)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-f.c.Events():
			if !ok {
				f.t.Fatalf("connection ended while waiting for %s (saw %v): %v", name, f.seen, f.c.Err())
			}
			f.seen = append(f.seen, ev.Name)
			if ev.Name == "output" {
				var body godap.OutputEventBody
				decode(f.t, ev.Body, &body)
				f.output = append(f.output, body)
			}
			switch ev.Name {
			case name:
				return ev
			case "output":
			default:
				f.t.Fatalf("got %s event %s while waiting for %s", ev.Name, ev.Body, name)
			}
		case <-timer.C:
			f.t.Fatalf("no %s event within %v (saw %v)", name, guard, f.seen)
		}
	}
}

func decode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decoding %s: %v", raw, err)
	}
}

// start runs the handshake as the engine does: launch without waiting for
// its answer, configure once initialized, configurationDone, then the
// launch response.
func (f *fake) start(configure func()) {
	f.t.Helper()
	f.must("initialize", map[string]any{"adapterID": "mock", "linesStartAt1": true, "columnsStartAt1": true}, nil)
	p, err := f.c.Send(f.conn.Request, f.conn.Arguments)
	if err != nil {
		f.t.Fatal(err)
	}
	f.event("initialized")
	if configure != nil {
		configure()
	}
	f.must("configurationDone", nil, nil)
	if err := p.Wait(ctx(f.t), nil); err != nil {
		f.t.Fatalf("%s: %v", f.conn.Request, err)
	}
}

func (f *fake) setBreakpoints(bps ...godap.SourceBreakpoint) []godap.Breakpoint {
	f.t.Helper()
	var body godap.SetBreakpointsResponseBody
	f.must("setBreakpoints", godap.SetBreakpointsArguments{Source: godap.Source{Path: f.path}, Breakpoints: bps}, &body)
	if len(body.Breakpoints) != len(bps) {
		f.t.Fatalf("setBreakpoints answered %d breakpoints for %d", len(body.Breakpoints), len(bps))
	}
	return body.Breakpoints
}

func (f *fake) setExceptionFilters(filters ...string) {
	f.t.Helper()
	f.must("setExceptionBreakpoints", map[string]any{"filters": append([]string{}, filters...)}, nil)
}

func lines(ls ...int) []godap.SourceBreakpoint {
	var bps []godap.SourceBreakpoint
	for _, l := range ls {
		bps = append(bps, godap.SourceBreakpoint{Line: l})
	}
	return bps
}

// stopped waits for a stop, checks its reason and line, and returns the
// event with the stack.
func (f *fake) stopped(reason string, line int) (godap.StoppedEventBody, []godap.StackFrame) {
	f.t.Helper()
	var body godap.StoppedEventBody
	decode(f.t, f.event("stopped").Body, &body)
	stack := f.stack()
	if body.Reason != reason || stack[0].Line != line || body.ThreadId != 1 {
		f.t.Fatalf("stopped %q in thread %d at line %d; want %q at line %d", body.Reason, body.ThreadId, stack[0].Line, reason, line)
	}
	return body, stack
}

func (f *fake) stack() []godap.StackFrame {
	f.t.Helper()
	var body godap.StackTraceResponseBody
	f.must("stackTrace", map[string]any{"threadId": 1}, &body)
	if len(body.StackFrames) == 0 || body.TotalFrames != len(body.StackFrames) {
		f.t.Fatalf("stackTrace: %+v", body)
	}
	return body.StackFrames
}

func (f *fake) resume(command string) {
	f.t.Helper()
	f.must(command, map[string]any{"threadId": 1}, nil)
}

// ended waits for the end of the program and returns its exit code.
func (f *fake) ended() int {
	f.t.Helper()
	var body godap.ExitedEventBody
	decode(f.t, f.event("exited").Body, &body)
	f.event("terminated")
	return body.ExitCode
}

// text is all output of one category so far.
func (f *fake) text(category string) string {
	var b strings.Builder
	for _, o := range f.output {
		if o.Category == category {
			b.WriteString(o.Output)
		}
	}
	return b.String()
}

func (f *fake) scopes(frameID int) []godap.Scope {
	f.t.Helper()
	var body godap.ScopesResponseBody
	f.must("scopes", map[string]any{"frameId": frameID}, &body)
	return body.Scopes
}

// vars lists a container as "name=value:type" strings, in order, and
// returns the references by name.
func (f *fake) vars(args map[string]any) ([]string, map[string]int) {
	f.t.Helper()
	var body godap.VariablesResponseBody
	f.must("variables", args, &body)
	var out []string
	refs := map[string]int{}
	for _, v := range body.Variables {
		out = append(out, v.Name+"="+v.Value+":"+v.Type)
		refs[v.Name] = v.VariablesReference
	}
	return out, refs
}

func (f *fake) eval(expression string, frameID int) (godap.EvaluateResponseBody, error) {
	var body godap.EvaluateResponseBody
	err := f.call("evaluate", map[string]any{"expression": expression, "frameId": frameID, "context": "repl"}, &body)
	return body, err
}

func (f *fake) mustEval(expression string, frameID int) string {
	f.t.Helper()
	body, err := f.eval(expression, frameID)
	if err != nil {
		f.t.Fatalf("evaluate %q: %v", expression, err)
	}
	return body.Result
}
