// Package stdio is the MCP stdio transport of mcp-debugger: newline-delimited
// JSON-RPC over a reader and a writer, like the go-sdk's StdioTransport, but
// a malformed line is answered with a JSON-RPC error and skipped instead of
// ending the connection. The SDK's transport treats any undecodable line as
// the end of the stream, which would end the server and every debug session
// with it over one stray byte. A call before initialize is refused here
// too, with a code and message a client can act on (see mcpinit).
package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/mcpinit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLine bounds one inbound line. Tool arguments are small (paths,
// expressions, conditions); a longer line is answered with an error and its
// bytes are discarded as they arrive, never buffered.
const DefaultMaxLine = 4 << 20

// Transport serves MCP on In and Out. It is an mcp.Transport.
type Transport struct {
	In  io.Reader
	Out io.Writer
	// MaxLine bounds one line in bytes (DefaultMaxLine when 0).
	MaxLine int
	// Log receives the rejected lines (discarded when nil).
	Log *slog.Logger
}

// Connect implements mcp.Transport. It starts the connection's reader
// goroutine, which ends at the end of In or, after Close, once its pending
// read returns.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLine
	if limit <= 0 {
		limit = DefaultMaxLine
	}
	log := t.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &conn{
		out:      t.Out,
		log:      log,
		incoming: make(chan lineOrErr),
		closed:   make(chan struct{}),
		inFlight: map[string]bool{},
		idle:     make(chan struct{}),
	}
	close(c.idle)
	go c.readLoop(NewLineReader(t.In, limit))
	return c, nil
}

type lineOrErr struct {
	line []byte
	err  error
}

// conn is the mcp.Connection. Reads go through a goroutine so that Close
// unblocks a Read waiting on stdin, as the Connection contract asks.
type conn struct {
	writeMu sync.Mutex
	out     io.Writer
	log     *slog.Logger

	incoming  chan lineOrErr
	closeOnce sync.Once
	closed    chan struct{}

	// The requests read and not yet answered, and those of them the client
	// cancelled, by idKey: a cancelled request gets no response (MCP's
	// cancellation rule), though the SDK's server sends one.
	callsMu  sync.Mutex
	inFlight map[string]bool // true once cancelled
	// idle is closed while no request is in flight.
	idle chan struct{}

	// initializeRead is set once an initialize request has been read.
	initializeRead atomic.Bool
}

// eofDrain bounds how long the end of stdin waits for the requests read
// before it to be answered.
const eofDrain = 10 * time.Second

func (c *conn) readLoop(lr *LineReader) {
	for {
		line, err := lr.Next()
		// Next reuses its buffer; the reader of the line runs concurrently.
		line = bytes.Clone(line)
		select {
		case c.incoming <- lineOrErr{line, err}:
		case <-c.closed:
			return
		}
		// A line over the limit was skipped; reading goes on after it.
		var tooLong *LineTooLongError
		if err != nil && !errors.As(err, &tooLong) {
			return
		}
	}
}

// Read returns the next valid message. Each bad line is answered with an
// error response here and skipped, so the server never sees it.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var v lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case v = <-c.incoming:
		}
		if v.err != nil {
			var tooLong *LineTooLongError
			if !errors.As(v.err, &tooLong) {
				// A client that writes its requests and closes stdin
				// (`echo … | mcp-debugger`) still reads the answers: the
				// server stops once its end of input is read.
				c.awaitAnswers(ctx)
				return nil, v.err
			}
			c.reject(ctx, &Rejection{Code: jsonrpc.CodeInvalidRequest, Msg: tooLong.Error(), ID: nullID}, nil)
			continue
		}
		msg, rej := Decode(v.line)
		if rej != nil {
			c.reject(ctx, rej, v.line)
			continue
		}
		if msg == nil {
			continue // a blank line
		}
		if rej := c.beforeInitialize(msg); rej != nil {
			c.reject(ctx, rej, v.line)
			continue
		}
		c.track(msg)
		return msg, nil
	}
}

// beforeInitialize refuses a call read before any initialize request,
// with mcpinit's code and message. Ping is allowed: MCP allows it at any
// time.
func (c *conn) beforeInitialize(msg jsonrpc.Message) *Rejection {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() || c.initializeRead.Load() {
		return nil
	}
	if req.Method == "initialize" {
		c.initializeRead.Store(true)
	}
	if req.Method == "ping" || mcpinit.NeedsNoSession(req.Method, req.Params) {
		return nil
	}
	id, err := json.Marshal(req.ID.Raw())
	if err != nil {
		id = nullID
	}
	return &Rejection{Code: mcpinit.Code, Msg: mcpinit.Message(req.Method), ID: id}
}

// track notes a request read, and a cancellation of one still in flight.
func (c *conn) track(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return
	}
	c.callsMu.Lock()
	defer c.callsMu.Unlock()
	if req.ID.IsValid() {
		if len(c.inFlight) == 0 {
			c.idle = make(chan struct{})
		}
		c.inFlight[idKey(req.ID)] = false
		return
	}
	if req.Method != "notifications/cancelled" {
		return
	}
	var params struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &params) != nil {
		return
	}
	id, err := jsonrpc.MakeID(params.RequestID)
	if err != nil {
		return
	}
	if _, ok := c.inFlight[idKey(id)]; ok {
		c.inFlight[idKey(id)] = true
	}
}

// answered reports whether resp may be written: not when its request was
// cancelled. Either way the request is no longer in flight.
func (c *conn) answered(resp *jsonrpc.Response) bool {
	c.callsMu.Lock()
	defer c.callsMu.Unlock()
	key := idKey(resp.ID)
	cancelled, ok := c.inFlight[key]
	delete(c.inFlight, key)
	if ok && len(c.inFlight) == 0 {
		close(c.idle)
	}
	return !cancelled
}

// awaitAnswers waits, at most eofDrain, until every request read has been
// answered.
func (c *conn) awaitAnswers(ctx context.Context) {
	c.callsMu.Lock()
	idle := c.idle
	c.callsMu.Unlock()
	timer := time.NewTimer(eofDrain)
	defer timer.Stop()
	select {
	case <-idle:
	case <-ctx.Done():
	case <-c.closed:
	case <-timer.C:
	}
}

// idKey tells apart the request ids 1 and "1".
func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// reject answers a line refused: malformed, or a call before initialize.
// A line that failed to answer is only logged: if stdout is gone, the next
// write of the server ends the connection.
func (c *conn) reject(ctx context.Context, rej *Rejection, line []byte) {
	const show = 200
	if len(line) > show {
		line = line[:show]
	}
	c.log.Warn("stdio: rejected a line", "code", rej.Code, "err", rej.Msg, "line", string(line))
	body, err := json.Marshal(rej.response())
	if err != nil {
		c.log.Error("stdio: encoding an error response", "err", err)
		return
	}
	if err := c.writeLine(ctx, body); err != nil {
		c.log.Warn("stdio: answering a malformed line", "err", err)
	}
}

// Write implements mcp.Connection. The response to a cancelled request is
// dropped.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && !c.answered(resp) {
		return nil
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("stdio: encoding message: %w", err)
	}
	return c.writeLine(ctx, data)
}

func (c *conn) writeLine(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("stdio: writing: %w", err)
	}
	return nil
}

// Close implements mcp.Connection. It does not close stdin or stdout: the
// process owns them and exits after the server stops.
func (c *conn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection; stdio has one unnamed session.
func (c *conn) SessionID() string { return "" }

// LineTooLongError reports a line longer than the bound; its bytes were
// discarded up to the next newline.
type LineTooLongError struct{ Limit int }

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line longer than %d bytes; discarded", e.Limit)
}

// LineReader splits newline-delimited input into lines of at most a bound,
// without ever buffering more than the bound.
type LineReader struct {
	r     *bufio.Reader
	limit int
	buf   []byte
}

// NewLineReader reads lines of at most limit bytes (newline excluded) from r.
func NewLineReader(r io.Reader, limit int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// Next returns the next line without its "\n" or "\r\n". A line over the
// limit is skipped through its newline and reported as *LineTooLongError,
// after which reading goes on. A last line without a newline is returned
// before io.EOF. The slice is valid until the next call.
func (l *LineReader) Next() ([]byte, error) {
	l.buf = l.buf[:0]
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.limit+2 { // room for "\r\n"
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil:
			line := bytes.TrimSuffix(bytes.TrimSuffix(l.buf, []byte("\n")), []byte("\r"))
			if tooLong || len(line) > l.limit {
				return nil, &LineTooLongError{Limit: l.limit}
			}
			return line, nil
		case errors.Is(err, io.EOF) && !tooLong && len(l.buf) > 0:
			if len(l.buf) > l.limit {
				return nil, &LineTooLongError{Limit: l.limit}
			}
			// The next call reads EOF again and reports it.
			return bytes.TrimSuffix(l.buf, []byte("\r")), nil
		default:
			return nil, err
		}
	}
}

// nullID is the id of an error response to a request whose id could not be
// read, as JSON-RPC 2.0 asks.
var nullID = json.RawMessage("null")

// Rejection is why a line is not a valid JSON-RPC 2.0 message: the error
// code and message to answer with, and the id to answer (null when the
// line's id could not be read).
type Rejection struct {
	Code int64
	Msg  string
	ID   json.RawMessage
}

func (r *Rejection) response() any {
	return struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", r.ID, jsonrpc.Error{Code: r.Code, Message: r.Msg}}
}

// Decode validates one line. It returns the message, or nil and nil for a
// blank line, or the rejection to answer: -32700 when the line is not JSON,
// -32600 when it is JSON but not one JSON-RPC 2.0 request, notification or
// response (batches are refused: MCP dropped them in 2025-06-18).
func Decode(line []byte) (jsonrpc.Message, *Rejection) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil
	}
	if !json.Valid(line) {
		return nil, &Rejection{Code: jsonrpc.CodeParseError, Msg: "parse error: the line is not valid JSON", ID: nullID}
	}
	if line[0] != '{' {
		msg := "invalid request: expected a JSON-RPC 2.0 object"
		if line[0] == '[' {
			msg = "invalid request: JSON-RPC batches are not supported; send one object per line"
		}
		return nil, &Rejection{Code: jsonrpc.CodeInvalidRequest, Msg: msg, ID: nullID}
	}
	// Raw fields cannot fail to decode from a valid object, so the id is
	// known (and echoed) even when the rest of the message is wrong.
	var head struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(line, &head)
	id := nullID
	if validID(head.ID) {
		id = head.ID
	}
	if string(head.JSONRPC) != `"2.0"` {
		return nil, &Rejection{Code: jsonrpc.CodeInvalidRequest, Msg: `invalid request: "jsonrpc" must be "2.0"`, ID: id}
	}
	// The SDK would take an object with neither a method nor a result or
	// error for a response and drop it silently, leaving the client waiting.
	if head.Method == nil && head.Result == nil && head.Error == nil {
		return nil, &Rejection{Code: jsonrpc.CodeInvalidRequest, Msg: "invalid request: a message needs a method (request) or a result or error (response)", ID: id}
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, &Rejection{Code: jsonrpc.CodeInvalidRequest, Msg: "invalid request: " + err.Error(), ID: id}
	}
	return msg, nil
}

// validID reports whether raw is an id worth echoing: a string or a number.
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}
