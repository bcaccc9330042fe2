package python

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// testTimeout bounds each test's whole conversation with debugpy.
const testTimeout = 60 * time.Second

// fixture is the absolute path of a program under testdata/python.
func fixture(tb testing.TB, name string) string {
	tb.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "python", name))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		tb.Fatal(err)
	}
	return p
}

// requireDebugpy returns an interpreter that has debugpy, or skips (fails
// under CI=true) with the install command.
func requireDebugpy(tb testing.TB) *interpreter {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	found, tried := newFinder().findDebugpy(ctx, search{})
	if found == nil {
		msg := unavailableError(tried).Error()
		if os.Getenv("CI") == "true" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	return found
}

// interpreterWithoutDebugpy returns a Python 3.9+ interpreter that cannot
// import debugpy, preferring python3 on PATH (pyenv's, here), or skips.
func interpreterWithoutDebugpy(tb testing.TB) *interpreter {
	tb.Helper()
	requireDebugpy(tb)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	f := newFinder()
	var paths []string
	for _, c := range f.preferred(ctx, search{}) {
		if c.missing == nil {
			paths = append(paths, c.path)
		}
	}
	for _, p := range append(paths, f.system()...) {
		info, err := f.probe(ctx, p, search{})
		if err == nil && !info.hasDebugpy() && info.atLeast(3, 9) {
			return info
		}
	}
	tb.Skip("no Python 3.9+ interpreter without debugpy on this machine")
	return nil
}

// session drives one debugpy connection in raw DAP, recording every event.
type session struct {
	tb   testing.TB
	conn *adapter.Connection
	c    *dap.Client

	mu      sync.Mutex
	events  []dap.Event
	changed chan struct{} // closed and replaced when an event arrives
	cursor  int           // events before it have been consumed by waits
	ended   bool
}

// newSession starts a DAP client on conn; cleanup closes it and runs the
// connection's Cleanup.
func newSession(tb testing.TB, conn *adapter.Connection) *session {
	tb.Helper()
	s := &session{tb: tb, conn: conn, changed: make(chan struct{})}
	s.c = dap.NewClient(conn.Transport, dap.Options{AfterRead: conn.AfterRead})
	go func() {
		for ev := range s.c.Events() {
			s.mu.Lock()
			s.events = append(s.events, ev)
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
		}
		s.mu.Lock()
		s.ended = true
		close(s.changed)
		s.mu.Unlock()
	}()
	tb.Cleanup(s.close)
	return s
}

var cleanupOnce sync.Map

func (s *session) close() {
	if _, done := cleanupOnce.LoadOrStore(s, true); done {
		return
	}
	s.c.Close()
	if s.conn.Cleanup != nil {
		s.conn.Cleanup()
	}
}

// wait returns the next event called name (after those already waited
// for) for which match, if given, holds.
func (s *session) wait(ctx context.Context, name string, match func(dap.Event) bool) dap.Event {
	s.tb.Helper()
	for {
		s.mu.Lock()
		for i := s.cursor; i < len(s.events); i++ {
			ev := s.events[i]
			if ev.Name == name && (match == nil || match(ev)) {
				s.cursor = i + 1
				s.mu.Unlock()
				return ev
			}
		}
		ch, ended := s.changed, s.ended
		s.mu.Unlock()
		if ended {
			s.tb.Fatalf("connection ended while waiting for %q: %v; events: %s", name, s.c.Err(), s.eventNames())
		}
		select {
		case <-ch:
		case <-ctx.Done():
			s.tb.Fatalf("waiting for %q: %v; events: %s", name, ctx.Err(), s.eventNames())
		}
	}
}

func (s *session) eventNames() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, len(s.events))
	for i, ev := range s.events {
		names[i] = ev.Name
	}
	return strings.Join(names, ",")
}

// output is the program output received so far, by category.
func (s *session) output(category string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, ev := range s.events {
		if ev.Name != "output" {
			continue
		}
		var body struct {
			Category string `json:"category"`
			Output   string `json:"output"`
		}
		if json.Unmarshal(ev.Body, &body) == nil && body.Category == category {
			b.WriteString(body.Output)
		}
	}
	return b.String()
}

// waitOutput waits until the program's output in category contains want.
func (s *session) waitOutput(ctx context.Context, category, want string) {
	s.tb.Helper()
	for {
		if strings.Contains(s.output(category), want) {
			return
		}
		s.mu.Lock()
		ch, ended := s.changed, s.ended
		s.mu.Unlock()
		if ended {
			s.tb.Fatalf("connection ended before %s output %q; got %q", category, want, s.output(category))
		}
		select {
		case <-ch:
		case <-ctx.Done():
			s.tb.Fatalf("waiting for %s output %q: %v; got %q", category, want, ctx.Err(), s.output(category))
		}
	}
}

func (s *session) call(ctx context.Context, command string, args, body any) {
	s.tb.Helper()
	if err := s.c.Call(ctx, command, args, body); err != nil {
		s.tb.Fatalf("%s: %v", command, err)
	}
}

// start runs the handshake the engine runs: initialize, launch (or attach)
// without waiting, the initialized event, breakpoints, exception filters,
// configurationDone, then the launch response.
func (s *session) start(ctx context.Context, breakpoints map[string][]int, filters []string) {
	s.tb.Helper()
	s.call(ctx, "initialize", map[string]any{
		"clientID": "mcp-debugger-test", "adapterID": s.conn.AdapterID,
		"linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path",
		"supportsVariableType": true,
	}, nil)
	launch, err := s.c.Send(s.conn.Request, s.conn.Arguments)
	if err != nil {
		s.tb.Fatal(err)
	}
	s.wait(ctx, "initialized", nil)
	for file, lines := range breakpoints {
		bps := make([]map[string]any, len(lines))
		for i, l := range lines {
			bps[i] = map[string]any{"line": l}
		}
		var resp struct {
			Breakpoints []struct {
				Verified bool `json:"verified"`
				Line     int  `json:"line"`
			} `json:"breakpoints"`
		}
		s.call(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": file}, "breakpoints": bps}, &resp)
		for i, bp := range resp.Breakpoints {
			if !bp.Verified || bp.Line != lines[i] {
				s.tb.Fatalf("breakpoint %s:%d answered %+v", file, lines[i], bp)
			}
		}
	}
	if filters == nil {
		filters = []string{}
	}
	s.call(ctx, "setExceptionBreakpoints", map[string]any{"filters": filters}, nil)
	s.call(ctx, "configurationDone", nil, nil)
	if err := launch.Wait(ctx, nil); err != nil {
		s.tb.Fatalf("%s: %v; stderr output: %s", s.conn.Request, err, s.output("stderr"))
	}
}

// stopped is a stopped event's body.
type stopped struct {
	Reason   string `json:"reason"`
	ThreadID int    `json:"threadId"`
}

func (s *session) waitStopped(ctx context.Context) stopped {
	s.tb.Helper()
	ev := s.wait(ctx, "stopped", nil)
	var st stopped
	if err := json.Unmarshal(ev.Body, &st); err != nil {
		s.tb.Fatal(err)
	}
	return st
}

type frame struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Line   int    `json:"line"`
	Source struct {
		Path string `json:"path"`
	} `json:"source"`
}

func (s *session) stack(ctx context.Context, threadID int) []frame {
	s.tb.Helper()
	var resp struct {
		StackFrames []frame `json:"stackFrames"`
	}
	s.call(ctx, "stackTrace", map[string]any{"threadId": threadID}, &resp)
	if len(resp.StackFrames) == 0 {
		s.tb.Fatal("empty stack")
	}
	return resp.StackFrames
}

// evaluate returns the plain value of expr in the frame, in the context the
// adapter's quirks name.
func (s *session) evaluate(ctx context.Context, frameID int, expr string) string {
	s.tb.Helper()
	var resp struct {
		Result string `json:"result"`
	}
	s.call(ctx, "evaluate", map[string]any{"expression": expr, "frameId": frameID, "context": s.conn.Quirks.EvaluateContext}, &resp)
	return resp.Result
}

// locals returns the first scope's variables as name → value.
func (s *session) locals(ctx context.Context, frameID int) map[string]string {
	s.tb.Helper()
	var scopes struct {
		Scopes []struct {
			Name string `json:"name"`
			Ref  int    `json:"variablesReference"`
		} `json:"scopes"`
	}
	s.call(ctx, "scopes", map[string]any{"frameId": frameID}, &scopes)
	if len(scopes.Scopes) == 0 {
		s.tb.Fatal("no scopes")
	}
	var vars struct {
		Variables []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"variables"`
	}
	s.call(ctx, "variables", map[string]any{"variablesReference": scopes.Scopes[0].Ref}, &vars)
	out := map[string]string{}
	for _, v := range vars.Variables {
		out[v.Name] = v.Value
	}
	return out
}

// debuggeePid is the program's pid from debugpy's process event.
func (s *session) debuggeePid(ctx context.Context) int {
	s.tb.Helper()
	s.mu.Lock()
	s.cursor = 0 // it came before the stops already waited for
	s.mu.Unlock()
	ev := s.wait(ctx, "process", nil)
	var body struct {
		Pid int `json:"systemProcessId"`
	}
	if err := json.Unmarshal(ev.Body, &body); err != nil || body.Pid == 0 {
		s.tb.Fatalf("process event %s: %v", ev.Body, err)
	}
	return body.Pid
}

// launchSession launches program under debugpy and returns the session
// and the adapter process.
func launchSession(tb testing.TB, a *Adapter, cfg adapter.LaunchConfig) (*session, *proc.Process) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	conn, p, err := a.launch(ctx, cfg)
	if err != nil {
		tb.Fatalf("launch %s: %v", cfg.Program, err)
	}
	return newSession(tb, conn), p
}

func quote(s string) string { return fmt.Sprintf("%q", s) }
