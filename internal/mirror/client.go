package mirror

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// requestTimeout bounds the work for one request from an IDE.
const requestTimeout = 10 * time.Second

// attachTimeout bounds how long a connection may stay open without
// attaching with the token, so that idle strangers do not pile up.
const attachTimeout = time.Minute

// client is one IDE attached to the mirror.
type client struct {
	m    *Mirror
	conn net.Conn

	// attached is set once the IDE attached with the token; only serve's
	// goroutine touches it.
	attached bool

	writeMu sync.Mutex
	seq     int

	watchOnce     sync.Once
	terminateOnce sync.Once
	ctx           context.Context
	cancel        context.CancelFunc
	wg            sync.WaitGroup
}

func newClient(m *Mirror, conn net.Conn) *client {
	ctx, cancel := context.WithCancel(m.ctx)
	return &client{m: m, conn: conn, ctx: ctx, cancel: cancel}
}

type request struct {
	Seq       int             `json:"seq"`
	Type      string          `json:"type"`
	Command   string          `json:"command"`
	Arguments json.RawMessage `json:"arguments"`
}

// serve answers requests until the IDE disconnects or the mirror closes.
func (c *client) serve() {
	defer c.wg.Wait()
	defer c.cancel()
	defer c.conn.Close()
	_ = c.conn.SetReadDeadline(time.Now().Add(attachTimeout))
	r := bufio.NewReader(c.conn)
	for {
		body, err := dap.ReadFrame(r)
		if err != nil {
			return
		}
		var req request
		if json.Unmarshal(body, &req) != nil || req.Type != "request" {
			continue
		}
		if !c.handle(req) {
			return
		}
	}
}

var errNoToken = fmt.Errorf("this mirror needs its token: attach with the launch configuration expose_session returned (its %q field)", TokenField)

// admit lets a request through once the IDE has attached with the token;
// before that, only initialize, which IDEs send first and without custom
// fields, is answered. Anything else is refused and the connection
// closed: false.
func (c *client) admit(req request) bool {
	switch {
	case c.attached || req.Command == "initialize":
		return true
	case (req.Command == "attach" || req.Command == "launch") && c.m.tokenIn(req.Arguments):
		c.attached = true
		_ = c.conn.SetReadDeadline(time.Time{})
		return true
	}
	c.m.log.Warn("refused a DAP connection without the mirror's token", "command", req.Command, "remote", c.conn.RemoteAddr().String())
	c.respond(req, nil, errNoToken)
	return false
}

// handle answers one request; false ends the connection.
func (c *client) handle(req request) bool {
	if !c.admit(req) {
		return false
	}
	ctx, cancel := context.WithTimeout(c.ctx, requestTimeout)
	defer cancel()
	switch req.Command {
	case "initialize":
		c.respond(req, map[string]any{
			"supportsConfigurationDoneRequest": true,
			"supportsEvaluateForHovers":        c.m.opts.AllowControl,
		}, nil)
		c.event("initialized", nil)
	case "attach", "launch":
		c.respond(req, nil, nil)
		c.watchOnce.Do(func() {
			c.wg.Add(1)
			go c.relay()
		})
	case "configurationDone", "setExceptionBreakpoints":
		c.respond(req, nil, nil)
	case "setBreakpoints", "setFunctionBreakpoints":
		c.respond(req, c.refusedBreakpoints(req), nil)
	case "threads":
		c.respond(req, c.threads(ctx), nil)
	case "stackTrace":
		body, err := c.stackTrace(ctx, req)
		c.respond(req, body, err)
	case "scopes":
		body, err := c.scopes(ctx, req)
		c.respond(req, body, err)
	case "variables":
		body, err := c.variables(ctx, req)
		c.respond(req, body, err)
	case "evaluate":
		body, err := c.evaluate(ctx, req)
		c.respond(req, body, err)
	case "continue", "next", "stepIn", "stepOut", "pause":
		body, err := c.control(ctx, req)
		c.respond(req, body, err)
	case "disconnect", "terminate":
		// Leaving the mirror never ends the agent's session.
		c.respond(req, nil, nil)
		return false
	default:
		c.respond(req, nil, fmt.Errorf("%s is not supported by the mcp-debugger mirror", req.Command))
	}
	return true
}

var errReadOnly = errors.New("this mirror is read-only: the agent drives the session (expose it with allowControl to drive it from here)")

func (c *client) refusedBreakpoints(req request) map[string]any {
	var args struct {
		Breakpoints []json.RawMessage `json:"breakpoints"`
	}
	_ = json.Unmarshal(req.Arguments, &args)
	out := make([]map[string]any, len(args.Breakpoints))
	for i := range out {
		out[i] = map[string]any{"verified": false, "message": "breakpoints are set by the agent; this mirror shows its session"}
	}
	return map[string]any{"breakpoints": out}
}

func (c *client) threads(ctx context.Context) map[string]any {
	threads := []map[string]any{}
	if ts, err := c.m.sess.Threads(ctx); err == nil {
		for _, t := range ts {
			threads = append(threads, map[string]any{"id": t.Id, "name": t.Name})
		}
	} else if v := c.m.sess.View(ctx); v.ThreadID != 0 {
		threads = append(threads, map[string]any{"id": v.ThreadID, "name": fmt.Sprintf("thread %d", v.ThreadID)})
	}
	return map[string]any{"threads": threads}
}

func (c *client) stackTrace(ctx context.Context, req request) (any, error) {
	var args struct {
		ThreadID int `json:"threadId"`
		Levels   int `json:"levels"`
	}
	_ = json.Unmarshal(req.Arguments, &args)
	frames, err := c.m.sess.StackTrace(ctx, args.ThreadID, args.Levels, true)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, 0, len(frames))
	for _, f := range frames {
		fr := map[string]any{"id": f.ID, "name": f.Name, "line": f.Line, "column": max(f.Column, 1)}
		if f.File != "" {
			fr["source"] = map[string]any{"name": filepath.Base(f.File), "path": f.File}
		}
		out = append(out, fr)
	}
	return map[string]any{"stackFrames": out, "totalFrames": len(out)}, nil
}

func (c *client) scopes(ctx context.Context, req request) (any, error) {
	var args struct {
		FrameID int `json:"frameId"`
	}
	_ = json.Unmarshal(req.Arguments, &args)
	scopes, err := c.m.sess.Scopes(ctx, args.FrameID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"scopes": scopes}, nil
}

func (c *client) variables(ctx context.Context, req request) (any, error) {
	var args struct {
		Ref   int `json:"variablesReference"`
		Start int `json:"start"`
		Count int `json:"count"`
	}
	_ = json.Unmarshal(req.Arguments, &args)
	vars, err := c.m.sess.Variables(ctx, session.VariablesRequest{Reference: args.Ref, Start: args.Start, Count: args.Count})
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, 0, len(vars))
	for _, v := range vars {
		out = append(out, map[string]any{"name": v.Name, "value": v.Value, "type": v.Type, "variablesReference": v.VariablesReference})
	}
	return map[string]any{"variables": out}, nil
}

func (c *client) evaluate(ctx context.Context, req request) (any, error) {
	if !c.m.opts.AllowControl {
		// Evaluating runs code in the program: that is driving it.
		return nil, errReadOnly
	}
	var args struct {
		Expression string `json:"expression"`
		FrameID    *int   `json:"frameId"`
		Context    string `json:"context"`
	}
	_ = json.Unmarshal(req.Arguments, &args)
	res, err := c.m.sess.Evaluate(ctx, args.Expression, args.FrameID, args.Context)
	if err != nil {
		return nil, err
	}
	return map[string]any{"result": res.Result, "type": res.Type, "variablesReference": res.VariablesReference}, nil
}

var controlKinds = map[string]string{
	"continue": session.Continue, "next": session.StepOver, "stepIn": session.StepInto, "stepOut": session.StepOut,
}

func (c *client) control(ctx context.Context, req request) (any, error) {
	if !c.m.opts.AllowControl {
		return nil, errReadOnly
	}
	var args struct {
		ThreadID int `json:"threadId"`
	}
	_ = json.Unmarshal(req.Arguments, &args)
	noWait := session.WaitOptions{Wait: false}
	if req.Command == "pause" {
		_, err := c.m.sess.Pause(ctx, args.ThreadID, noWait)
		return nil, err
	}
	if _, err := c.m.sess.Resume(ctx, controlKinds[req.Command], args.ThreadID, noWait); err != nil {
		return nil, err
	}
	if req.Command == "continue" {
		return map[string]any{"allThreadsContinued": true}, nil
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
			c.event("output", map[string]any{"category": e.Category, "output": e.Output})
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
		c.event("continued", map[string]any{"threadId": from.ThreadID, "allThreadsContinued": true})
	}
	if newStop {
		c.event("stopped", map[string]any{
			"reason": to.StopReason, "description": to.Description, "threadId": to.ThreadID, "allThreadsStopped": true,
		})
	}
	if to.State == session.StateStopped || to.State == session.StateError {
		if to.ExitCode != nil {
			c.event("exited", map[string]any{"exitCode": *to.ExitCode})
		}
		c.terminate()
		return true
	}
	return false
}

// terminate tells the IDE the debugging is over, once.
func (c *client) terminate() {
	c.terminateOnce.Do(func() { c.event("terminated", nil) })
}

func (c *client) respond(req request, body any, err error) {
	msg := map[string]any{"type": "response", "request_seq": req.Seq, "command": req.Command, "success": err == nil}
	if err != nil {
		msg["message"] = err.Error()
		msg["body"] = map[string]any{"error": map[string]any{"id": 1, "format": err.Error()}}
	} else if body != nil {
		msg["body"] = body
	}
	c.write(msg)
}

func (c *client) event(name string, body any) {
	msg := map[string]any{"type": "event", "event": name}
	if body != nil {
		msg["body"] = body
	}
	c.write(msg)
}

// write sends one message; a failed write closes the connection, which
// ends serve.
func (c *client) write(msg map[string]any) {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.seq++
	msg["seq"] = c.seq
	b, err := json.Marshal(msg)
	if err != nil {
		c.m.log.Warn("encoding a DAP message", "err", err)
		return
	}
	_ = c.conn.SetWriteDeadline(time.Now().Add(requestTimeout))
	if err := dap.WriteFrame(c.conn, b); err != nil {
		c.conn.Close()
	}
}
