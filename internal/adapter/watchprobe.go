package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// WatchProbe is one run of a probe program under a real debug adapter: the
// program calls Function, then writes Variable (a global) a few times,
// changing its value each time, and exits.
type WatchProbe struct {
	// Transport carries DAP to an adapter not yet initialized. RunWatchProbe
	// closes it; the caller kills the adapter's processes.
	Transport io.ReadWriteCloser
	// AdapterID is sent in initialize.
	AdapterID string
	// Launch are the launch request's arguments.
	Launch map[string]any
	// Function is the function breakpoint (as the adapter names it) that
	// stops the program before the writes.
	Function string
	// Variable is the global to watch, as the adapter names it there.
	Variable string
	// Logger receives the DAP trace; nil discards it.
	Logger *slog.Logger
}

// ErrNoDataBreakpoints is RunWatchProbe's answer for an adapter that does
// not offer data breakpoints at all (Delve before 1.26; 1.25.2 measured):
// it cannot tell anything about the host, so another prober should.
var ErrNoDataBreakpoints = errors.New("the debug adapter offers no data breakpoints")

// RunWatchProbe stops the program in Function, sets a write data
// breakpoint on Variable, continues, and reports whether the program
// stopped on a write (fired) or ran to its end; detail says which. A
// debugger that refuses the data breakpoint is an answer too (not fired).
// An error means the run could not decide: the adapter failed, the program
// never reached Function, something else stopped it, or ctx ended.
func RunWatchProbe(ctx context.Context, p WatchProbe) (fired bool, detail string, err error) {
	ctx, cancel := context.WithCancel(ctx)
	c := dap.NewClient(p.Transport, dap.Options{Logger: p.Logger})
	r := &probeRun{c: c, launched: make(chan error, 1)}
	var waiting sync.WaitGroup
	defer func() {
		cancel()
		c.Close()
		waiting.Wait()
	}()

	var caps godap.Capabilities
	init := map[string]any{"clientID": "mcp-debugger", "adapterID": p.AdapterID, "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}
	if err := c.Call(ctx, "initialize", init, &caps); err != nil {
		return false, "", err
	}
	if !caps.SupportsDataBreakpoints {
		return false, "", ErrNoDataBreakpoints
	}
	launch, err := c.Send("launch", p.Launch)
	if err != nil {
		return false, "", err
	}
	// Adapters answer launch before initialized (Delve) or only after
	// configurationDone (lldb-dap 22): wait for it beside the events. The
	// deferred cancel ends this wait; launched has room for its answer.
	waiting.Add(1)
	go func() {
		defer waiting.Done()
		r.launched <- launch.Wait(ctx, nil)
	}()
	if _, err := r.event(ctx, "initialized"); err != nil {
		return false, "", err
	}
	fbp := map[string]any{"breakpoints": []map[string]any{{"name": p.Function}}}
	if err := c.Call(ctx, "setFunctionBreakpoints", fbp, nil); err != nil {
		return false, "", err
	}
	if err := c.Call(ctx, "configurationDone", nil, nil); err != nil {
		return false, "", err
	}
	if err := r.launchResult(ctx); err != nil {
		return false, "", err
	}
	ev, err := r.event(ctx, "stopped", "exited", "terminated")
	if err != nil {
		return false, "", err
	}
	if ev.Name != "stopped" {
		return false, "", fmt.Errorf("the probe program ended before reaching %s", p.Function)
	}
	var stopped godap.StoppedEventBody
	if err := json.Unmarshal(ev.Body, &stopped); err != nil {
		return false, "", fmt.Errorf("stopped event: %w", err)
	}
	info, err := r.dataBreakpointInfo(ctx, stopped.ThreadId, p.Variable)
	if err != nil {
		return false, "", err
	}
	var set godap.SetDataBreakpointsResponseBody
	dbp := map[string]any{"breakpoints": []map[string]any{{"dataId": info.DataId, "accessType": "write"}}}
	if err := c.Call(ctx, "setDataBreakpoints", dbp, &set); err != nil {
		return false, "", err
	}
	if len(set.Breakpoints) == 0 || !set.Breakpoints[0].Verified {
		msg := "no reason given"
		if len(set.Breakpoints) > 0 && set.Breakpoints[0].Message != "" {
			msg = set.Breakpoints[0].Message
		}
		return false, fmt.Sprintf("the debugger refused a write watchpoint on %s (%s)", p.Variable, msg), nil
	}
	if err := c.Call(ctx, "continue", map[string]any{"threadId": stopped.ThreadId}, nil); err != nil {
		return false, "", err
	}
	ev, err = r.event(ctx, "stopped", "exited", "terminated")
	if err != nil {
		return false, "", err
	}
	if ev.Name != "stopped" {
		return false, fmt.Sprintf("the watchpoint on %s was accepted, yet the program ran past every write to its end without stopping", p.Variable), nil
	}
	if err := json.Unmarshal(ev.Body, &stopped); err != nil {
		return false, "", fmt.Errorf("stopped event: %w", err)
	}
	if reason := strings.ToLower(stopped.Reason); strings.Contains(reason, "data breakpoint") || strings.Contains(reason, "watchpoint") {
		return true, fmt.Sprintf("the watchpoint on %s stopped the program on a write (reason %q)", p.Variable, stopped.Reason), nil
	}
	return false, "", fmt.Errorf("something else stopped the probe program (reason %q, %s)", stopped.Reason, stopped.Description)
}

// probeRun waits for a probe's events and its launch response.
type probeRun struct {
	c *dap.Client
	// launched receives the launch response's outcome once; nil after.
	launched  chan error
	launchErr error
}

// event returns the next event named one of names, skipping the others.
// A failed launch response, the connection's end or ctx's end is an error.
func (r *probeRun) event(ctx context.Context, names ...string) (dap.Event, error) {
	for {
		select {
		case ev, ok := <-r.c.Events():
			if !ok {
				return dap.Event{}, fmt.Errorf("the debug adapter closed the connection: %w", r.c.Err())
			}
			if slices.Contains(names, ev.Name) {
				return ev, nil
			}
		case err := <-r.launched:
			r.launched, r.launchErr = nil, err
			if err != nil {
				return dap.Event{}, err
			}
		case <-ctx.Done():
			return dap.Event{}, fmt.Errorf("waiting for the %s event: %w", strings.Join(names, " or "), ctx.Err())
		}
	}
}

// launchResult waits for the launch response, unless event has seen it.
func (r *probeRun) launchResult(ctx context.Context) error {
	if r.launched == nil {
		return r.launchErr
	}
	select {
	case err := <-r.launched:
		r.launched, r.launchErr = nil, err
		return err
	case <-ctx.Done():
		return fmt.Errorf("waiting for the launch response: %w", ctx.Err())
	}
}

// dataBreakpointInfo asks for the data id of name in the thread's top
// frame the way the session does: named within the scope that holds it
// (lldb-dap's Globals), else as an expression in the frame (Delve, which
// shows no globals).
func (r *probeRun) dataBreakpointInfo(ctx context.Context, thread int, name string) (*godap.DataBreakpointInfoResponseBody, error) {
	var stack godap.StackTraceResponseBody
	if err := r.c.Call(ctx, "stackTrace", map[string]any{"threadId": thread, "startFrame": 0, "levels": 1}, &stack); err != nil {
		return nil, err
	}
	if len(stack.StackFrames) == 0 {
		return nil, errors.New("the stopped probe program has no stack")
	}
	frame := stack.StackFrames[0].Id
	args := map[string]any{"name": name, "frameId": frame}
	if ref, err := r.scopeHolding(ctx, frame, name); err != nil {
		return nil, err
	} else if ref != 0 {
		args["variablesReference"] = ref
	}
	var info godap.DataBreakpointInfoResponseBody
	if err := r.c.Call(ctx, "dataBreakpointInfo", args, &info); err != nil {
		return nil, err
	}
	if info.DataId == nil {
		return nil, fmt.Errorf("the debugger cannot watch %s: %s", name, info.Description)
	}
	return &info, nil
}

// scopeHolding returns the variablesReference of the frame's cheap scope
// that lists name, 0 when none does.
func (r *probeRun) scopeHolding(ctx context.Context, frame int, name string) (int, error) {
	var scopes godap.ScopesResponseBody
	if err := r.c.Call(ctx, "scopes", map[string]any{"frameId": frame}, &scopes); err != nil {
		return 0, err
	}
	for _, sc := range scopes.Scopes {
		if sc.Expensive || sc.VariablesReference == 0 {
			continue
		}
		var vars godap.VariablesResponseBody
		if err := r.c.Call(ctx, "variables", map[string]any{"variablesReference": sc.VariablesReference}, &vars); err != nil {
			return 0, err
		}
		for _, v := range vars.Variables {
			if v.Name == name {
				return sc.VariablesReference, nil
			}
		}
	}
	return 0, nil
}

// CachedProbeProgram returns the probe program at bin (a path in the
// user's cache whose directory names what it was built from), building it
// when it is not there yet: build writes the program into the empty
// directory it is given and returns the built file, which is then renamed
// into place, so that a concurrent probe never runs a half-written one.
func CachedProbeProgram(bin string, build func(dir string) (string, error)) (string, error) {
	if IsExecutable(bin) {
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", fmt.Errorf("cache directory for the watchpoint probe: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(bin), "build")
	if err != nil {
		return "", fmt.Errorf("cache directory for the watchpoint probe: %w", err)
	}
	defer os.RemoveAll(tmp)
	out, err := build(tmp)
	if err != nil {
		return "", fmt.Errorf("build the watchpoint probe program: %w", err)
	}
	if err := os.Rename(out, bin); err != nil {
		return "", fmt.Errorf("store the watchpoint probe program: %w", err)
	}
	return bin, nil
}
