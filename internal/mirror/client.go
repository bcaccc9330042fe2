package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// requestTimeout bounds the work for one request from an IDE.
const requestTimeout = 10 * time.Second

// attachTimeout bounds how long a connection may stay open without
// attaching with the token, so that idle strangers do not pile up.
const attachTimeout = time.Minute

// preAttachBytes bounds what a connection may send before it attaches with
// the token. initialize and attach take a few KiB; without the bound a
// stranger made the mirror buffer a 64 MiB message before finding it had
// no token.
const preAttachBytes = 64 << 10

// client is one IDE attached to the mirror.
type client struct {
	m    *Mirror
	conn net.Conn
	*dapserver.Server

	// attached is set once the IDE attached with the token, by serve's
	// goroutine; the mirror reads it to find strangers to evict.
	attached atomic.Bool
	// seq orders the mirror's clients by arrival.
	seq uint64

	watchOnce     sync.Once
	terminateOnce sync.Once
	ctx           context.Context
	cancel        context.CancelFunc
	wg            sync.WaitGroup
}

func newClient(m *Mirror, conn net.Conn, seq uint64) *client {
	ctx, cancel := context.WithCancel(m.ctx)
	c := &client{m: m, conn: conn, ctx: ctx, cancel: cancel, seq: seq}
	c.Server = dapserver.New(&clientConn{Conn: conn, c: c}, dapserver.Config{
		Name:     "mcp-debugger mirror",
		Log:      m.log,
		Handlers: c.handlers(),
		Admit:    c.admit,
		Timeout:  func(*request) time.Duration { return requestTimeout },
		Unrecognized: func(command string) error {
			return fmt.Errorf("%s is not supported by the mcp-debugger mirror", command)
		},
	})
	return c
}

type request = dapserver.Request

// clientConn is the connection as the client's DAP server uses it. It
// bounds every write to the IDE and closes the connection when one fails,
// which ends serve: an IDE that stops reading must not hold the relay
// forever. Before the IDE attaches with the token, it reads at most
// preAttachBytes in all, so a stranger's message is cut off before it is
// buffered, let alone parsed.
type clientConn struct {
	net.Conn
	c *client
	// readBeforeAttach counts the bytes read before the IDE attached;
	// only serve's goroutine reads.
	readBeforeAttach int
}

var errTooMuchBeforeAttach = fmt.Errorf("over %d bytes sent before attaching with the mirror's token", preAttachBytes)

func (b *clientConn) Read(p []byte) (int, error) {
	if b.c.attached.Load() {
		return b.Conn.Read(p)
	}
	left := preAttachBytes - b.readBeforeAttach
	if left <= 0 {
		return 0, errTooMuchBeforeAttach
	}
	n, err := b.Conn.Read(p[:min(len(p), left)])
	b.readBeforeAttach += n
	return n, err
}

func (b *clientConn) Write(p []byte) (int, error) {
	_ = b.SetWriteDeadline(time.Now().Add(requestTimeout))
	n, err := b.Conn.Write(p)
	if err != nil {
		b.Close()
	}
	return n, err
}

// serve answers requests until the IDE disconnects or the mirror closes.
func (c *client) serve() {
	defer c.wg.Wait()
	defer c.cancel()
	defer c.conn.Close()
	_ = c.conn.SetReadDeadline(time.Now().Add(attachTimeout))
	c.Serve(c.ctx)
}

var errNoToken = fmt.Errorf("this mirror needs its token: attach with the launch configuration expose_session returned (its %q field)", TokenField)

// admit lets a request through once the IDE has attached with the token;
// before that, only initialize, which IDEs send first and without custom
// fields, is answered. Anything else is refused and the connection
// closed.
func (c *client) admit(req *request) error {
	switch {
	case c.attached.Load() || req.Command == "initialize":
		return nil
	case (req.Command == "attach" || req.Command == "launch") && c.m.tokenIn(req.Arguments):
		c.attached.Store(true)
		_ = c.conn.SetReadDeadline(time.Time{})
		return nil
	}
	c.m.log.Warn("refused a DAP connection without the mirror's token", "command", req.Command, "remote", c.conn.RemoteAddr().String())
	c.End()
	return errNoToken
}

// handlers is the mirror's handler table.
func (c *client) handlers() map[string]dapserver.Handler {
	none := func(context.Context, *request) (any, error) { return nil, nil }
	return map[string]dapserver.Handler{
		"initialize":              c.initialize,
		"attach":                  c.attach,
		"launch":                  c.attach,
		"configurationDone":       none,
		"setExceptionBreakpoints": none,
		"setBreakpoints":          c.refusedBreakpoints,
		"setFunctionBreakpoints":  c.refusedBreakpoints,
		"threads":                 c.threads,
		"stackTrace":              c.stackTrace,
		"scopes":                  c.scopes,
		"variables":               c.variables,
		"evaluate":                c.evaluate,
		"continue":                c.control,
		"next":                    c.control,
		"stepIn":                  c.control,
		"stepOut":                 c.control,
		"pause":                   c.control,
		"disconnect":              c.leave,
		"terminate":               c.leave,
	}
}

func (c *client) initialize(context.Context, *request) (any, error) {
	c.AfterReply(func() { c.Event("initialized", nil) })
	return godap.Capabilities{
		SupportsConfigurationDoneRequest: true,
		SupportsEvaluateForHovers:        c.m.opts.AllowControl,
	}, nil
}

// attach starts relaying the session once the IDE has its answer.
func (c *client) attach(context.Context, *request) (any, error) {
	c.AfterReply(func() {
		c.watchOnce.Do(func() {
			c.wg.Add(1)
			go c.relay()
		})
	})
	return nil, nil
}

// leave ends the connection: leaving the mirror never ends the agent's
// session.
func (c *client) leave(context.Context, *request) (any, error) {
	c.End()
	return nil, nil
}

var errReadOnly = errors.New("this mirror is read-only: the agent drives the session (expose it with allowControl to drive it from here)")

func (c *client) refusedBreakpoints(_ context.Context, req *request) (any, error) {
	var args struct {
		Breakpoints []json.RawMessage `json:"breakpoints"`
	}
	_ = req.Args(&args)
	out := make([]godap.Breakpoint, len(args.Breakpoints))
	for i := range out {
		out[i] = godap.Breakpoint{Verified: false, Message: "breakpoints are set by the agent; this mirror shows its session"}
	}
	return godap.SetBreakpointsResponseBody{Breakpoints: out}, nil
}

func (c *client) threads(ctx context.Context, _ *request) (any, error) {
	threads := []godap.Thread{}
	if ts, err := c.m.sess.Threads(ctx); err == nil {
		threads = ts
	} else if v := c.m.sess.View(ctx); v.ThreadID != 0 {
		threads = append(threads, godap.Thread{Id: v.ThreadID, Name: fmt.Sprintf("thread %d", v.ThreadID)})
	}
	return godap.ThreadsResponseBody{Threads: threads}, nil
}

// maxMirrorFrames bounds one stackTrace answer to an IDE; an IDE that
// asks for more (or for all, levels 0) pages on with startFrame, as DAP
// has it, told the depth by totalFrames.
const maxMirrorFrames = 200

func (c *client) stackTrace(ctx context.Context, req *request) (any, error) {
	var args godap.StackTraceArguments
	_ = req.Args(&args)
	levels := args.Levels
	if levels <= 0 || levels > maxMirrorFrames {
		levels = maxMirrorFrames
	}
	page, err := c.m.sess.StackPage(ctx, session.StackRequest{ThreadID: args.ThreadId, StartFrame: max(args.StartFrame, 0), Levels: levels, IncludeInternals: true})
	if err != nil {
		return nil, err
	}
	out := make([]godap.StackFrame, 0, len(page.Frames))
	for _, f := range page.Frames {
		fr := godap.StackFrame{Id: f.ID, Name: f.Name, Line: f.Line, Column: max(f.Column, 1)}
		if f.File != "" {
			fr.Source = &godap.Source{Name: filepath.Base(f.File), Path: f.File}
		}
		out = append(out, fr)
	}
	return godap.StackTraceResponseBody{StackFrames: out, TotalFrames: max(page.Total, max(args.StartFrame, 0)+len(out))}, nil
}

func (c *client) scopes(ctx context.Context, req *request) (any, error) {
	var args godap.ScopesArguments
	_ = req.Args(&args)
	scopes, err := c.m.sess.Scopes(ctx, args.FrameId)
	if err != nil {
		return nil, err
	}
	return godap.ScopesResponseBody{Scopes: scopes}, nil
}

func (c *client) variables(ctx context.Context, req *request) (any, error) {
	var args godap.VariablesArguments
	_ = req.Args(&args)
	vars, err := c.m.sess.Variables(ctx, session.VariablesRequest{Reference: args.VariablesReference, Start: args.Start, Count: args.Count})
	if err != nil {
		return nil, err
	}
	out := make([]godap.Variable, 0, len(vars))
	for _, v := range vars {
		out = append(out, godap.Variable{Name: v.Name, Value: v.Value, Type: v.Type, VariablesReference: v.VariablesReference})
	}
	return godap.VariablesResponseBody{Variables: out}, nil
}

func (c *client) evaluate(ctx context.Context, req *request) (any, error) {
	if !c.m.opts.AllowControl {
		// Evaluating runs code in the program: that is driving it.
		return nil, errReadOnly
	}
	// Not godap.EvaluateArguments: its frameId cannot tell an absent
	// frame (evaluate globally) from frame 0.
	var args struct {
		Expression string `json:"expression"`
		FrameID    *int   `json:"frameId"`
		Context    string `json:"context"`
	}
	_ = req.Args(&args)
	res, err := c.m.sess.Evaluate(ctx, args.Expression, args.FrameID, args.Context)
	if err != nil {
		return nil, err
	}
	return godap.EvaluateResponseBody{Result: res.Result, Type: res.Type, VariablesReference: res.VariablesReference}, nil
}

var controlKinds = map[string]string{
	"continue": session.Continue, "next": session.StepOver, "stepIn": session.StepInto, "stepOut": session.StepOut,
}

func (c *client) control(ctx context.Context, req *request) (any, error) {
	if !c.m.opts.AllowControl {
		return nil, errReadOnly
	}
	// Continue's arguments: those of pause and the steps share its
	// threadId.
	var args godap.ContinueArguments
	_ = req.Args(&args)
	noWait := session.WaitOptions{Wait: false}
	if req.Command == "pause" {
		_, err := c.m.sess.Pause(ctx, args.ThreadId, noWait)
		return nil, err
	}
	if _, err := c.m.sess.Resume(ctx, controlKinds[req.Command], args.ThreadId, noWait); err != nil {
		return nil, err
	}
	if req.Command == "continue" {
		return godap.ContinueResponseBody{AllThreadsContinued: true}, nil
	}
	return nil, nil
}

// relay replays the session's current state to a newly attached IDE, then
// turns each change into the DAP event an IDE expects. It ends with the
// client or when the program has ended.
func (c *client) relay() {
	defer c.wg.Done()
	var last session.View
	var outSeq uint64
	out := c.m.sess.Output()
	// Output from before the attach is history: the IDE is shown the stop,
	// not a replay of everything printed.
	if tail := out.Tail(1); len(tail) > 0 {
		outSeq = tail[0].Seq
	}
	for {
		_, changed := c.m.sess.Changed()
		arrived := out.Arrived()
		for _, e := range out.StoredSince(outSeq) {
			c.Output(e.Category, e.Output)
			outSeq = e.Seq
		}
		ctx, cancel := context.WithTimeout(c.ctx, requestTimeout)
		v := c.m.sess.View(ctx)
		cancel()
		if c.transition(last, v) {
			return
		}
		last = v
		select {
		case <-changed:
		case <-arrived:
		case <-c.ctx.Done():
			return
		}
	}
}

// transition sends the events that take an IDE from one view to the next;
// true when the program has ended and nothing more will come.
func (c *client) transition(from, to session.View) bool {
	paused := func(v session.View) bool { return v.State == session.StatePaused && !v.StoppedAt.IsZero() }
	newStop := paused(to) && !to.StoppedAt.Equal(from.StoppedAt)
	if paused(from) && (!paused(to) || newStop) {
		c.Event("continued", godap.ContinuedEventBody{ThreadId: from.ThreadID, AllThreadsContinued: true})
	}
	if newStop {
		c.Event("stopped", godap.StoppedEventBody{
			Reason: to.StopReason, Description: to.Description, ThreadId: to.ThreadID, AllThreadsStopped: true,
		})
	}
	if to.State == session.StateStopped || to.State == session.StateError {
		if to.ExitCode != nil {
			c.Event("exited", godap.ExitedEventBody{ExitCode: *to.ExitCode})
		}
		c.terminate()
		return true
	}
	return false
}

// terminate tells the IDE the debugging is over, once.
func (c *client) terminate() {
	c.terminateOnce.Do(func() { c.Event("terminated", nil) })
}
