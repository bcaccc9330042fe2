package dap

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"

	godap "github.com/google/go-dap"
)

// The server side of DAP, for the servers built into this binary (see
// package dapserver, their skeleton): requests as they arrive, and a
// writer of responses and events.

// IncomingRequest is a request as a DAP server reads it; its arguments stay
// raw until the handler that knows their shape decodes them.
type IncomingRequest struct {
	Seq       int             `json:"seq"`
	Type      string          `json:"type"`
	Command   string          `json:"command"`
	Arguments json.RawMessage `json:"arguments"`
}

// Args decodes the request's arguments into v; absent arguments leave v as
// it is. The error names the request, for the client's error message.
func (r *IncomingRequest) Args(v any) error {
	if len(r.Arguments) == 0 || string(r.Arguments) == "null" {
		return nil
	}
	if err := json.Unmarshal(r.Arguments, v); err != nil {
		return fmt.Errorf("bad arguments for %s: %w", r.Command, err)
	}
	return nil
}

// serverResponse is a response (client.go) with its seq.
type serverResponse struct {
	Seq int `json:"seq"`
	response
}

type serverEvent struct {
	Seq   int    `json:"seq"`
	Type  string `json:"type"`
	Event string `json:"event"`
	Body  any    `json:"body,omitempty"`
}

// ServerConn writes a DAP server's messages: one at a time, numbered in
// the order they are written. It is safe for concurrent use. A failed
// write is logged and dropped: the client has gone, and the server's read
// loop ends on its own.
type ServerConn struct {
	mu   sync.Mutex
	w    io.Writer
	seq  int
	name string
	log  *slog.Logger
}

// NewServerConn writes to w; name prefixes its log lines ("node adapter").
func NewServerConn(w io.Writer, name string, log *slog.Logger) *ServerConn {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &ServerConn{w: w, name: name, log: log}
}

func (c *ServerConn) write(build func(seq int) any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	body, err := json.Marshal(build(c.seq))
	if err != nil {
		c.log.Error(c.name+": encoding message", "err", err)
		return
	}
	if err := WriteFrame(c.w, body); err != nil {
		c.log.Debug(c.name+": write failed", "err", err)
	}
}

// Reply answers req successfully with body (nil for none).
func (c *ServerConn) Reply(req *IncomingRequest, body any) {
	c.write(func(seq int) any {
		return serverResponse{seq, response{Type: "response", RequestSeq: req.Seq, Success: true, Command: req.Command, Body: body}}
	})
}

// Fail answers req with an error message, which clients show.
func (c *ServerConn) Fail(req *IncomingRequest, msg string) {
	body := godap.ErrorResponseBody{Error: &godap.ErrorMessage{Id: 1, Format: msg, ShowUser: true}}
	c.write(func(seq int) any {
		return serverResponse{seq, response{Type: "response", RequestSeq: req.Seq, Command: req.Command, Message: msg, Body: body}}
	})
}

// Event sends an event.
func (c *ServerConn) Event(name string, body any) {
	c.write(func(seq int) any { return serverEvent{Seq: seq, Type: "event", Event: name, Body: body} })
}

// Output sends an output event.
func (c *ServerConn) Output(category, text string) {
	c.Event("output", godap.OutputEventBody{Category: category, Output: text})
}

// ReadRequest reads the next request from r, skipping (and logging)
// messages that are not requests; an error means the connection ended.
func (c *ServerConn) ReadRequest(r *bufio.Reader) (*IncomingRequest, error) {
	for {
		body, err := ReadFrame(r)
		if err != nil {
			return nil, err
		}
		var req IncomingRequest
		if err := json.Unmarshal(body, &req); err != nil || req.Type != "request" {
			c.log.Warn(c.name+": skipping message that is not a request", "err", err, "type", req.Type)
			continue
		}
		return &req, nil
	}
}
