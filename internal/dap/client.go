package dap

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultTimeout bounds a request whose context carries no deadline, so that
// no call can wait forever on an adapter that never answers.
const DefaultTimeout = 30 * time.Second

// ErrClosed is returned for requests that were pending, or issued, after the
// connection ended. The error returned by Err says why it ended.
var ErrClosed = errors.New("dap: connection closed")

// Event is one DAP event. Body is left raw so that any event, known or not,
// can be decoded by whoever cares about it (into github.com/google/go-dap's
// body types) and skipped by everyone else.
type Event struct {
	Seq   int
	Name  string
	Body  json.RawMessage
	Stamp time.Time
}

// ReverseRequest is a request sent by the adapter to the client, such as
// runInTerminal or startDebugging.
type ReverseRequest struct {
	Seq       int
	Command   string
	Arguments json.RawMessage
}

// ReverseHandler answers a reverse request. The returned body becomes the
// response body; an error becomes a failed response carrying its text.
type ReverseHandler func(ctx context.Context, req ReverseRequest) (any, error)

// ResponseError is a response with success=false.
type ResponseError struct {
	Command string
	Message string
	// Detail is the formatted error text of the response body, when present
	// (adapters put the useful part there, e.g. Delve's build errors).
	Detail string
}

func (e *ResponseError) Error() string {
	switch {
	case e.Detail != "" && e.Message != "" && e.Detail != e.Message:
		return fmt.Sprintf("%s failed: %s: %s", e.Command, e.Message, e.Detail)
	case e.Detail != "":
		return fmt.Sprintf("%s failed: %s", e.Command, e.Detail)
	case e.Message != "":
		return fmt.Sprintf("%s failed: %s", e.Command, e.Message)
	}
	return e.Command + " failed"
}

// Text is the adapter's own explanation, without the command name.
func (e *ResponseError) Text() string {
	if e.Detail != "" {
		return e.Detail
	}
	return e.Message
}

// Options configure a Client.
type Options struct {
	// Logger receives protocol traces at debug level and oddities (unknown
	// messages, unanswered reverse requests) at warn level. Nil discards.
	Logger *slog.Logger
	// Reverse answers reverse requests. Nil answers each with an error.
	Reverse ReverseHandler
	// AfterRead, when set, runs on the reader goroutine after every read
	// from the transport. Adapters whose peers delay ACKs use it to re-arm
	// TCP_QUICKACK.
	AfterRead func()
}

// envelope is the union of DAP's request, response and event shapes.
type envelope struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`
	Command    string          `json:"command,omitempty"`
	Event      string          `json:"event,omitempty"`
	RequestSeq int             `json:"request_seq,omitempty"`
	Success    bool            `json:"success,omitempty"`
	Message    string          `json:"message,omitempty"`
	Arguments  json.RawMessage `json:"arguments,omitempty"`
	Body       json.RawMessage `json:"body,omitempty"`
}

// request and response are the messages the client sends, without their
// seq: write numbers them as it puts them on the wire.
type request struct {
	Type      string `json:"type"`
	Command   string `json:"command"`
	Arguments any    `json:"arguments,omitempty"`
}

type response struct {
	Type       string `json:"type"`
	RequestSeq int    `json:"request_seq"`
	Success    bool   `json:"success"`
	Command    string `json:"command"`
	Message    string `json:"message,omitempty"`
	Body       any    `json:"body,omitempty"`
}

// Client is one DAP connection. It owns two goroutines: the reader, which
// ends when the transport does, and the event pump, which ends when the
// event queue is drained after that, or when Close is called.
type Client struct {
	rwc    io.ReadWriteCloser
	log    *slog.Logger
	opts   Options
	events chan Event

	writeMu sync.Mutex
	wbuf    []byte
	seq     int // last seq written; guarded by writeMu

	mu      sync.Mutex
	pending map[int]chan envelope
	queue   []Event
	queued  chan struct{} // signalled when queue grows
	err     error         // why the connection ended

	done      chan struct{} // closed when the reader ends
	closed    chan struct{} // closed by Close
	closeOnce sync.Once
	pumpDone  chan struct{}

	rwcOnce sync.Once // the transport is closed by Close or by the reader
}

// NewClient starts a client on rwc. The caller must call Close.
func NewClient(rwc io.ReadWriteCloser, opts Options) *Client {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Client{
		rwc:      rwc,
		log:      log,
		opts:     opts,
		events:   make(chan Event),
		pending:  make(map[int]chan envelope),
		queued:   make(chan struct{}, 1),
		done:     make(chan struct{}),
		closed:   make(chan struct{}),
		pumpDone: make(chan struct{}),
	}
	go c.readLoop()
	go c.pump()
	return c
}

// Events delivers events in the order the adapter sent them. The channel is
// closed once the connection has ended and every event was delivered.
// Events are queued without bound, so a slow consumer never stalls replies.
func (c *Client) Events() <-chan Event { return c.events }

// Done is closed when the connection ends.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err says why the connection ended; nil while it is open.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close closes the transport and stops the client's goroutines.
func (c *Client) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.closed)
		err = c.closeTransport()
		<-c.done
		<-c.pumpDone
	})
	return err
}

// closeTransport closes the transport once. Only the first call reports an
// error: a Close after the reader has closed a dead connection returns nil.
func (c *Client) closeTransport() error {
	var err error
	c.rwcOnce.Do(func() { err = c.rwc.Close() })
	return err
}

// Pending is a request in flight.
type Pending struct {
	c       *Client
	seq     int
	command string
	reply   chan envelope
}

// Send writes a request without waiting for its response. args is marshalled
// as is (use the project's own structs where go-dap's omitempty would drop a
// meaningful zero, such as frameId 0).
func (c *Client) Send(command string, args any) (*Pending, error) {
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", command, err)
	}
	reply := make(chan envelope, 1)
	seq, err := c.write(request{Type: "request", Command: command, Arguments: args}, reply)
	if err != nil {
		if errors.Is(err, ErrClosed) {
			return nil, fmt.Errorf("%s: %w", command, err)
		}
		return nil, fmt.Errorf("send %s: %w", command, err)
	}
	return &Pending{c: c, seq: seq, command: command, reply: reply}, nil
}

// Wait waits for the response and decodes its body into body (if non-nil).
// A failed response is returned as *ResponseError. Without a deadline in
// ctx, DefaultTimeout applies.
func (p *Pending) Wait(ctx context.Context, body any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	select {
	case env, ok := <-p.reply:
		if !ok {
			return fmt.Errorf("%s: %w", p.command, p.c.Err())
		}
		return decodeResponse(p.command, env, body)
	case <-ctx.Done():
		p.c.forget(p.seq)
		return fmt.Errorf("%s: no response from the debug adapter: %w", p.command, ctx.Err())
	}
}

// Call sends a request and waits for its response; see Send and Wait.
func (c *Client) Call(ctx context.Context, command string, args, body any) error {
	p, err := c.Send(command, args)
	if err != nil {
		return err
	}
	return p.Wait(ctx, body)
}

func decodeResponse(command string, env envelope, body any) error {
	if !env.Success {
		re := &ResponseError{Command: command, Message: env.Message}
		var eb struct {
			Error *struct {
				Format    string            `json:"format"`
				Variables map[string]string `json:"variables"`
			} `json:"error"`
		}
		if len(env.Body) > 0 && json.Unmarshal(env.Body, &eb) == nil && eb.Error != nil {
			re.Detail = expandFormat(eb.Error.Format, eb.Error.Variables)
		}
		return re
	}
	if body == nil || len(env.Body) == 0 || string(env.Body) == "null" {
		return nil
	}
	if err := json.Unmarshal(env.Body, body); err != nil {
		return fmt.Errorf("%s: decoding response body: %w", command, err)
	}
	return nil
}

// expandFormat fills DAP's "{name}" placeholders in an error message, in
// one pass over format: values are inserted as they are, never expanded
// again. Unknown placeholders are kept.
func expandFormat(format string, vars map[string]string) string {
	if len(vars) == 0 {
		return format
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(format, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(format[open+1:], '}')
		if end < 0 {
			break
		}
		end += open + 1
		if v, ok := vars[format[open+1:end]]; ok {
			b.WriteString(format[:open])
			b.WriteString(v)
			format = format[end+1:]
		} else {
			b.WriteString(format[:open+1])
			format = format[open+1:]
		}
	}
	b.WriteString(format)
	return b.String()
}

func (c *Client) forget(seq int) {
	c.mu.Lock()
	delete(c.pending, seq)
	c.mu.Unlock()
}

// write numbers msg with the next seq and writes it. Numbering and writing
// happen together under writeMu, so that seqs reach the wire in increasing
// order as the specification requires. A non-nil reply is registered as
// pending under the seq before the write, so that no answer can outrun it;
// ErrClosed (wrapped) is returned when the connection has ended.
func (c *Client) write(msg any, reply chan envelope) (int, error) {
	// Marshal outside the lock; the seq is spliced in front of the fields.
	obj, err := json.Marshal(msg)
	if err != nil {
		return 0, err
	}
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return 0, fmt.Errorf("dap: %T does not marshal to an object", msg)
	}
	fields := obj[1:]
	if len(fields) > 1 {
		fields = obj // the ',' goes where the '{' was
		fields[0] = ','
	}

	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	seq := c.seq + 1
	if reply != nil {
		c.mu.Lock()
		if c.err != nil {
			err := c.err
			c.mu.Unlock()
			return 0, err
		}
		c.pending[seq] = reply
		c.mu.Unlock()
	}
	c.seq = seq

	var num [32]byte
	head := strconv.AppendInt(append(num[:0], `{"seq":`...), int64(seq), 10)
	c.wbuf = append(c.wbuf[:0], "Content-Length: "...)
	c.wbuf = strconv.AppendInt(c.wbuf, int64(len(head)+len(fields)), 10)
	c.wbuf = append(c.wbuf, "\r\n\r\n"...)
	start := len(c.wbuf)
	c.wbuf = append(append(c.wbuf, head...), fields...)
	if c.log.Enabled(context.Background(), slog.LevelDebug) {
		c.log.Debug("dap send", "msg", truncateBytes(c.wbuf[start:], 2000))
	}
	_, err = c.rwc.Write(c.wbuf)
	if cap(c.wbuf) > 1<<20 {
		c.wbuf = nil
	}
	if err != nil && reply != nil {
		c.forget(seq)
	}
	return seq, err
}

type afterReadReader struct {
	r     io.Reader
	after func()
}

func (a afterReadReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	a.after()
	return n, err
}

func (c *Client) readLoop() {
	var src io.Reader = c.rwc
	if c.opts.AfterRead != nil {
		src = afterReadReader{r: src, after: c.opts.AfterRead}
	}
	r := bufio.NewReaderSize(src, 64<<10)
	var endErr error
	for {
		body, err := ReadFrame(r)
		if err != nil {
			endErr = err
			break
		}
		c.dispatch(body)
	}
	select {
	case <-c.closed:
		endErr = ErrClosed
	default:
		if errors.Is(endErr, io.EOF) || errors.Is(endErr, io.ErrUnexpectedEOF) {
			endErr = fmt.Errorf("%w: the debug adapter closed the connection", ErrClosed)
		} else {
			endErr = fmt.Errorf("%w: %v", ErrClosed, endErr)
		}
		// The stream cannot be resynchronised: make sure the peer sees the end too.
		c.closeTransport()
	}
	c.mu.Lock()
	c.err = endErr
	for seq, ch := range c.pending {
		close(ch)
		delete(c.pending, seq)
	}
	c.mu.Unlock()
	close(c.done)
}

func (c *Client) dispatch(body []byte) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		c.log.Warn("dap: skipping undecodable message", "err", err, "msg", truncateBytes(body, 200))
		return
	}
	if c.log.Enabled(context.Background(), slog.LevelDebug) {
		c.log.Debug("dap recv", "msg", truncateBytes(body, 2000))
	}
	switch env.Type {
	case "response":
		c.mu.Lock()
		ch, ok := c.pending[env.RequestSeq]
		delete(c.pending, env.RequestSeq)
		c.mu.Unlock()
		if !ok {
			c.log.Warn("dap: response to no pending request", "request_seq", env.RequestSeq, "command", env.Command)
			return
		}
		ch <- env
	case "event":
		c.mu.Lock()
		c.queue = append(c.queue, Event{Seq: env.Seq, Name: env.Event, Body: env.Body, Stamp: time.Now()})
		c.mu.Unlock()
		select {
		case c.queued <- struct{}{}:
		default:
		}
	case "request":
		go c.answerReverse(ReverseRequest{Seq: env.Seq, Command: env.Command, Arguments: env.Arguments})
	default:
		c.log.Warn("dap: skipping message of unknown type", "type", env.Type)
	}
}

// answerReverse runs on its own goroutine, bounded by DefaultTimeout, so a
// slow handler never blocks the reader.
func (c *Client) answerReverse(req ReverseRequest) {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
	defer cancel()
	go func() {
		select {
		case <-c.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	resp := response{Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: true}
	if c.opts.Reverse == nil {
		c.log.Warn("dap: reverse request not supported", "command", req.Command)
		resp.Success, resp.Message = false, "reverse request "+req.Command+" is not supported by this client"
	} else if body, err := c.opts.Reverse(ctx, req); err != nil {
		resp.Success, resp.Message = false, err.Error()
	} else {
		resp.Body = body
	}
	if _, err := c.write(resp, nil); err != nil {
		c.log.Warn("dap: answering reverse request", "command", req.Command, "err", err)
	}
}

// pump moves queued events to the Events channel in order.
func (c *Client) pump() {
	defer close(c.pumpDone)
	defer close(c.events)
	for {
		c.mu.Lock()
		batch := c.queue
		c.queue = nil
		c.mu.Unlock()
		for _, ev := range batch {
			select {
			case c.events <- ev:
			case <-c.closed:
				return
			}
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-c.queued:
		case <-c.done:
			c.mu.Lock()
			empty := len(c.queue) == 0
			c.mu.Unlock()
			if empty {
				return
			}
		case <-c.closed:
			return
		}
	}
}
