// Package cdp is a client for the Chrome DevTools Protocol as Node's
// inspector serves it: JSON messages over one WebSocket, requests matched to
// responses by id, events queued in arrival order. It knows no debugging
// logic; the Node adapter builds that on top.
package cdp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// DefaultTimeout bounds a call whose context has no deadline.
const DefaultTimeout = 10 * time.Second

// ErrClosed is returned by calls on a client whose connection has ended.
var ErrClosed = errors.New("cdp: connection closed")

// Error is an error answer from the inspector.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

func (e *Error) Error() string {
	if e.Data != "" {
		return fmt.Sprintf("%s (%s)", e.Message, e.Data)
	}
	return e.Message
}

// Event is one notification from the inspector.
type Event struct {
	Method string
	Params json.RawMessage
}

// message is any message on the wire, in either direction.
type message struct {
	ID     int64           `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params any             `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// incoming is a message read from the inspector.
type incoming struct {
	ID     int64           `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

type reply struct {
	result json.RawMessage
	err    error
}

// Client is one connection to an inspector. Its reader goroutine runs from
// Dial until the connection ends; Close ends it and waits for it.
type Client struct {
	ws     *websocket.Conn
	wmu    sync.Mutex // one frame at a time, ids in write order
	nextID int64

	mu      sync.Mutex
	pending map[int64]chan reply
	queue   []Event
	notify  chan struct{} // signalled when queue grows or the reader ends
	err     error         // why the connection ended, once it has

	readerDone chan struct{}
	closeOnce  sync.Once
}

// Dial connects to an inspector's WebSocket URL (ws://host:port/uuid).
//
// The inspector writes pairs of messages back to back without TCP_NODELAY;
// the second of each waits for our ACK, which Linux delays ~40 ms unless
// TCP_QUICKACK is re-armed after every read (docs/adapter-quirks.md, node-1).
// Every read on the socket does that here.
func Dial(ctx context.Context, url string) (*Client, error) {
	dialer := &net.Dialer{}
	transport := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			if rearm := adapter.QuickAck(conn); rearm != nil {
				return &quickAckConn{Conn: conn, rearm: rearm}, nil
			}
			return conn, nil
		},
	}
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: &http.Client{Transport: transport}})
	if err != nil {
		return nil, fmt.Errorf("connect to the inspector at %s: %w", url, err)
	}
	// Property lists of big objects (the global scope) exceed the default
	// 32 KiB message limit.
	ws.SetReadLimit(256 << 20)
	c := &Client{
		ws:         ws,
		pending:    map[int64]chan reply{},
		notify:     make(chan struct{}, 1),
		readerDone: make(chan struct{}),
	}
	go c.read()
	return c, nil
}

// quickAckConn re-arms TCP_QUICKACK after every read.
type quickAckConn struct {
	net.Conn
	rearm func()
}

func (c *quickAckConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.rearm()
	return n, err
}

// read is the reader goroutine: it hands responses to their callers and
// queues events, until the connection ends.
func (c *Client) read() {
	defer close(c.readerDone)
	var err error
	for {
		var data []byte
		_, data, err = c.ws.Read(context.Background())
		if err != nil {
			break
		}
		if method, params, ok := splitEvent(data); ok {
			c.mu.Lock()
			c.queue = append(c.queue, Event{Method: method, Params: params})
			c.mu.Unlock()
			c.signal()
			continue
		}
		m, ok := splitResponse(data)
		if !ok {
			if jerr := json.Unmarshal(data, &m); jerr != nil {
				continue
			}
		}
		if m.ID != 0 {
			c.mu.Lock()
			ch := c.pending[m.ID]
			delete(c.pending, m.ID)
			c.mu.Unlock()
			if ch != nil {
				r := reply{result: m.Result}
				if m.Error != nil {
					r.err = m.Error
				}
				ch <- r
			}
			continue
		}
		c.mu.Lock()
		c.queue = append(c.queue, Event{Method: m.Method, Params: m.Params})
		c.mu.Unlock()
		c.signal()
	}
	c.mu.Lock()
	c.err = fmt.Errorf("%w: %v", ErrClosed, err)
	pending := c.pending
	c.pending = map[int64]chan reply{}
	c.mu.Unlock()
	for _, ch := range pending {
		ch <- reply{err: c.err}
	}
	c.signal()
}

// splitEvent and splitResponse take a message apart without decoding it:
// Node's inspector writes each event as {"method":"NAME","params":{…}} and
// each answer as {"id":N,"result":{…}}, whose params or result their
// reader decodes anyway. Decoding the whole message here as well cost
// ~0.1 ms per pause (a pause with its frames and scopes is ~10 KB;
// measured on loop.js). Any other layout (an error answer) is decoded.
func splitEvent(data []byte) (method string, params json.RawMessage, ok bool) {
	rest, found := bytes.CutPrefix(data, []byte(`{"method":"`))
	if !found {
		return "", nil, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return "", nil, false
	}
	method, rest = string(rest[:end]), rest[end+1:]
	if string(rest) == "}" {
		return method, nil, true
	}
	params, found = bytes.CutPrefix(rest, []byte(`,"params":`))
	if !found || len(params) < 3 || params[0] != '{' || params[len(params)-1] != '}' || params[len(params)-2] != '}' {
		return "", nil, false
	}
	return method, params[:len(params)-1], true
}

func splitResponse(data []byte) (incoming, bool) {
	rest, found := bytes.CutPrefix(data, []byte(`{"id":`))
	if !found {
		return incoming{}, false
	}
	end := bytes.IndexByte(rest, ',')
	if end <= 0 {
		return incoming{}, false
	}
	id, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	if err != nil || id <= 0 {
		return incoming{}, false
	}
	result, found := bytes.CutPrefix(rest[end:], []byte(`,"result":`))
	if !found || len(result) < 3 || result[0] != '{' || result[len(result)-1] != '}' || result[len(result)-2] != '}' {
		return incoming{}, false
	}
	return incoming{ID: id, Result: result[:len(result)-1]}, true
}

func (c *Client) signal() {
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// Pending is a request sent and not yet answered.
type Pending struct {
	c      *Client
	id     int64
	ch     chan reply
	method string
}

// Send writes a request without waiting for its answer, so that several can
// be in flight (the inspector answers them in order).
func (c *Client) Send(method string, params any) (*Pending, error) {
	ch := make(chan reply, 1)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return nil, err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	data, err := json.Marshal(message{ID: id, Method: method, Params: params})
	if err != nil {
		c.forget(id)
		return nil, fmt.Errorf("encode %s: %w", method, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, data); err != nil {
		c.forget(id)
		return nil, fmt.Errorf("send %s: %w", method, err)
	}
	return &Pending{c: c, id: id, ch: ch, method: method}, nil
}

func (c *Client) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Wait waits for the answer and decodes it into result (which may be nil).
// Without a deadline in ctx it waits at most DefaultTimeout.
func (p *Pending) Wait(ctx context.Context, result any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultTimeout)
		defer cancel()
	}
	select {
	case r := <-p.ch:
		if r.err != nil {
			return fmt.Errorf("%s: %w", p.method, r.err)
		}
		if result != nil && len(r.result) > 0 {
			if err := json.Unmarshal(r.result, result); err != nil {
				return fmt.Errorf("decode %s answer: %w", p.method, err)
			}
		}
		return nil
	case <-ctx.Done():
		p.c.forget(p.id)
		return fmt.Errorf("%s: %w", p.method, ctx.Err())
	}
}

// Call sends a request and waits for its answer.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	p, err := c.Send(method, params)
	if err != nil {
		return err
	}
	return p.Wait(ctx, result)
}

// Next returns the next event, waiting for one until ctx ends. Once the
// connection has ended and every queued event has been returned, it
// returns the reason the connection ended (wrapping ErrClosed).
func (c *Client) Next(ctx context.Context) (Event, error) {
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			ev := c.queue[0]
			c.queue[0] = Event{}
			c.queue = c.queue[1:]
			c.mu.Unlock()
			return ev, nil
		}
		err := c.err
		c.mu.Unlock()
		if err != nil {
			return Event{}, err
		}
		select {
		case <-c.notify:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
}

// Close closes the connection and waits for the reader goroutine to end.
func (c *Client) Close() error {
	var err error
	c.closeOnce.Do(func() {
		err = c.ws.CloseNow()
	})
	<-c.readerDone
	return err
}
