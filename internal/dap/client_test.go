package dap

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testTimeout bounds every wait a passing test does; it only matters when a
// test is about to fail, so it is generous.
const testTimeout = 10 * time.Second

// wireMsg is what the fake adapter decodes. It is deliberately independent
// of the client's own envelope so that the wire format itself is checked.
type wireMsg struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`
	Command    string          `json:"command"`
	Event      string          `json:"event"`
	RequestSeq int             `json:"request_seq"`
	Success    *bool           `json:"success"`
	Message    string          `json:"message"`
	Arguments  json.RawMessage `json:"arguments"`
	Body       json.RawMessage `json:"body"`
}

// fakeAdapter is the adapter end of a net.Pipe: it reads the client's frames
// and writes whatever the test tells it to.
type fakeAdapter struct {
	t    testing.TB
	conn net.Conn
	r    *bufio.Reader

	wmu sync.Mutex
	seq int

	serving sync.WaitGroup
}

// newPair starts a Client on one end of a pipe and returns it with the fake
// adapter on the other end. Both ends are closed, and any serve loop waited
// for, when the test ends.
func newPair(t testing.TB, opts Options) (*Client, *fakeAdapter) {
	t.Helper()
	cEnd, aEnd := net.Pipe()
	a := &fakeAdapter{t: t, conn: aEnd, r: bufio.NewReader(aEnd)}
	c := NewClient(cEnd, opts)
	t.Cleanup(func() {
		c.Close()
		aEnd.Close()
		a.serving.Wait()
	})
	return c, a
}

// read reads one message from the client.
func (a *fakeAdapter) read() (wireMsg, error) {
	body, err := ReadFrame(a.r)
	if err != nil {
		return wireMsg{}, err
	}
	var m wireMsg
	if err := json.Unmarshal(body, &m); err != nil {
		return wireMsg{}, fmt.Errorf("client sent undecodable %q: %w", body, err)
	}
	return m, nil
}

// next reads one message, failing the test if there is none. Call it only
// from the test's goroutine.
func (a *fakeAdapter) next() wireMsg {
	a.t.Helper()
	m, err := a.read()
	if err != nil {
		a.t.Fatalf("adapter read: %v", err)
	}
	return m
}

// nextRequest reads one message and checks that it is a request for command.
func (a *fakeAdapter) nextRequest(command string) wireMsg {
	a.t.Helper()
	m := a.next()
	if m.Type != "request" || m.Command != command {
		a.t.Fatalf("adapter got %+v, want a %s request", m, command)
	}
	return m
}

// raw writes one frame with body as is.
func (a *fakeAdapter) raw(body string) error {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	return WriteFrame(a.conn, []byte(body))
}

// send marshals m, fills in the adapter's next seq, and writes it.
func (a *fakeAdapter) send(m map[string]any) error {
	a.wmu.Lock()
	defer a.wmu.Unlock()
	a.seq++
	m["seq"] = a.seq
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return WriteFrame(a.conn, b)
}

func (a *fakeAdapter) respond(req wireMsg, body any) error {
	m := map[string]any{"type": "response", "request_seq": req.Seq, "command": req.Command, "success": true}
	if body != nil {
		m["body"] = body
	}
	return a.send(m)
}

func (a *fakeAdapter) fail(req wireMsg, message string, body any) error {
	m := map[string]any{"type": "response", "request_seq": req.Seq, "command": req.Command, "success": false, "message": message}
	if body != nil {
		m["body"] = body
	}
	return a.send(m)
}

func (a *fakeAdapter) event(name string, body any) error {
	m := map[string]any{"type": "event", "event": name}
	if body != nil {
		m["body"] = body
	}
	return a.send(m)
}

// reverse sends a reverse request and returns its seq.
func (a *fakeAdapter) reverse(command string, args any) (int, error) {
	a.wmu.Lock()
	a.seq++
	seq := a.seq
	a.wmu.Unlock()
	b, err := json.Marshal(map[string]any{"seq": seq, "type": "request", "command": command, "arguments": args})
	if err != nil {
		return 0, err
	}
	return seq, a.raw(string(b))
}

// serve calls handle for every message from the client, on a goroutine of
// its own, until the connection ends. Errors returned by handle fail the
// test.
func (a *fakeAdapter) serve(handle func(wireMsg) error) {
	a.serving.Add(1)
	go func() {
		defer a.serving.Done()
		for {
			m, err := a.read()
			if err != nil {
				return
			}
			if err := handle(m); err != nil {
				a.t.Errorf("adapter: %v", err)
				return
			}
		}
	}()
}

// echo answers every request with {"command": ..., "arguments": ...}.
func (a *fakeAdapter) echo(m wireMsg) error {
	if m.Type != "request" {
		return fmt.Errorf("unexpected %+v", m)
	}
	return a.respond(m, map[string]any{"command": m.Command, "arguments": m.Arguments})
}

type echoBody struct {
	Command   string          `json:"command"`
	Arguments json.RawMessage `json:"arguments"`
}

// sendRead sends a request from another goroutine (net.Pipe writes block
// until the other end reads) while the adapter reads it.
func sendRead(t testing.TB, c *Client, a *fakeAdapter, command string) (*Pending, wireMsg) {
	t.Helper()
	type sent struct {
		p   *Pending
		err error
	}
	ch := make(chan sent, 1)
	go func() {
		p, err := c.Send(command, nil)
		ch <- sent{p, err}
	}()
	req := a.nextRequest(command)
	s := <-ch
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.p, req
}

func bounded(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// nextEvent waits for one event; ok is false if Events was closed.
func nextEvent(t testing.TB, c *Client) (Event, bool) {
	t.Helper()
	select {
	case ev, ok := <-c.Events():
		return ev, ok
	case <-time.After(testTimeout):
		t.Fatal("no event")
		return Event{}, false
	}
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func testLogger(level slog.Level) (*slog.Logger, *syncBuffer) {
	buf := &syncBuffer{}
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: level})), buf
}

// waitGoroutines waits, boundedly, for the goroutine count to come back to
// base.
func waitGoroutines(t testing.TB, base int) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestCallRequestOnTheWire(t *testing.T) {
	c, a := newPair(t, Options{})
	errc := make(chan error, 1)
	go func() {
		var body echoBody
		err := c.Call(bounded(t), "initialize", map[string]any{"adapterID": "go", "linesStartAt1": true}, &body)
		if err == nil && body.Command != "initialize" {
			err = fmt.Errorf("echo body %+v", body)
		}
		errc <- err
	}()
	req := a.nextRequest("initialize")
	if req.Seq != 1 {
		t.Errorf("first seq %d, want 1", req.Seq)
	}
	var args map[string]any
	if err := json.Unmarshal(req.Arguments, &args); err != nil || args["adapterID"] != "go" || args["linesStartAt1"] != true {
		t.Errorf("arguments %s (%v)", req.Arguments, err)
	}
	if err := a.echo(req); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}

	// No arguments: the field is left out.
	go func() { errc <- c.Call(bounded(t), "threads", nil, nil) }()
	req = a.nextRequest("threads")
	if req.Seq != 2 || req.Arguments != nil {
		t.Errorf("got seq %d arguments %s, want seq 2 and none", req.Seq, req.Arguments)
	}
	a.respond(req, nil)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func TestSendUnmarshalableArguments(t *testing.T) {
	c, a := newPair(t, Options{})
	if _, err := c.Send("evaluate", map[string]any{"f": func() {}}); err == nil || !strings.Contains(err.Error(), "evaluate") {
		t.Fatalf("got %v, want a marshalling error naming the command", err)
	}
	c.mu.Lock()
	left := len(c.pending)
	c.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d requests pending after a failed Send", left)
	}
	// Nothing was written and no seq was used up.
	_, req := sendRead(t, c, a, "threads")
	if req.Seq != 1 {
		t.Fatalf("next request has seq %d, want 1", req.Seq)
	}
}

func TestResponsesOutOfOrder(t *testing.T) {
	c, a := newPair(t, Options{})
	const n = 5
	pend := make([]*Pending, n)
	sent := make(chan error, 1)
	go func() {
		for i := range pend {
			p, err := c.Send("evaluate", map[string]int{"i": i})
			if err != nil {
				sent <- err
				return
			}
			pend[i] = p
		}
		sent <- nil
	}()
	reqs := make([]wireMsg, n)
	for i := range reqs {
		reqs[i] = a.nextRequest("evaluate")
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	// Answer in reverse, with one answered in the middle first.
	order := []int{2, 4, 3, 1, 0}
	for _, i := range order {
		if err := a.respond(reqs[i], map[string]any{"result": strconv.Itoa(reqs[i].Seq)}); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range pend {
		var body struct{ Result string }
		if err := p.Wait(bounded(t), &body); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if want := strconv.Itoa(reqs[i].Seq); body.Result != want {
			t.Fatalf("request %d got the answer to seq %s, want %s", i, body.Result, want)
		}
	}
}

func TestResponseError(t *testing.T) {
	tests := []struct {
		name       string
		message    string
		body       any
		wantDetail string
		wantError  string
		wantText   string
	}{
		{
			name:    "format with variables",
			message: "launch failed",
			body: map[string]any{"error": map[string]any{
				"id":        3000,
				"format":    "Failed to launch: could not build {pkg}: exit {code}",
				"variables": map[string]string{"pkg": "./cmd/x", "code": "2"},
			}},
			wantDetail: "Failed to launch: could not build ./cmd/x: exit 2",
			wantError:  "launch failed: launch failed: Failed to launch: could not build ./cmd/x: exit 2",
			wantText:   "Failed to launch: could not build ./cmd/x: exit 2",
		},
		{
			name:       "unknown placeholder kept",
			message:    "",
			body:       map[string]any{"error": map[string]any{"format": "bad {thing}"}},
			wantDetail: "bad {thing}",
			wantError:  "launch failed: bad {thing}",
			wantText:   "bad {thing}",
		},
		{
			name:      "message only",
			message:   "cancelled",
			wantError: "launch failed: cancelled",
			wantText:  "cancelled",
		},
		{
			name:      "body without error",
			message:   "nope",
			body:      map[string]any{"other": 1},
			wantError: "launch failed: nope",
			wantText:  "nope",
		},
		{
			name:      "nothing",
			wantError: "launch failed",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, a := newPair(t, Options{})
			a.serve(func(m wireMsg) error { return a.fail(m, tt.message, tt.body) })
			var body struct{ X int }
			err := c.Call(bounded(t), "launch", nil, &body)
			var re *ResponseError
			if !errors.As(err, &re) {
				t.Fatalf("got %T %v, want *ResponseError", err, err)
			}
			if re.Command != "launch" || re.Message != tt.message || re.Detail != tt.wantDetail {
				t.Fatalf("got %+v, want command launch, message %q, detail %q", re, tt.message, tt.wantDetail)
			}
			if re.Error() != tt.wantError {
				t.Fatalf("Error() = %q, want %q", re.Error(), tt.wantError)
			}
			if re.Text() != tt.wantText {
				t.Fatalf("Text() = %q, want %q", re.Text(), tt.wantText)
			}
		})
	}
}

// Placeholders are replaced once, from the format only: a value that looks
// like a placeholder is not expanded again, whatever the map order.
func TestExpandFormat(t *testing.T) {
	vars := map[string]string{"a": "{b}", "b": "x", "c": "{c}", "d": "", "e": "{"}
	for range 50 { // map order is random: a wrong result would show up
		if got, want := expandFormat("{a}/{b}/{c}/{d}/{e}/{zz}/{/}/{", vars), "{b}/x/{c}//{/{zz}/{/}/{"; got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	if got := expandFormat("no placeholders", nil); got != "no placeholders" {
		t.Fatalf("got %q", got)
	}
}

func TestSuccessBody(t *testing.T) {
	c, a := newPair(t, Options{})
	a.serve(func(m wireMsg) error {
		switch m.Command {
		case "null":
			return a.send(map[string]any{"type": "response", "request_seq": m.Seq, "command": m.Command, "success": true, "body": nil})
		case "wrong":
			return a.respond(m, []int{1, 2})
		}
		return a.respond(m, map[string]any{"threads": []map[string]any{{"id": 1, "name": "main"}}})
	})
	var threads struct {
		Threads []struct {
			ID   int
			Name string
		}
	}
	if err := c.Call(bounded(t), "threads", nil, &threads); err != nil {
		t.Fatal(err)
	}
	if len(threads.Threads) != 1 || threads.Threads[0].ID != 1 || threads.Threads[0].Name != "main" {
		t.Fatalf("got %+v", threads)
	}
	if err := c.Call(bounded(t), "threads", nil, nil); err != nil {
		t.Fatalf("nil body: %v", err)
	}
	if err := c.Call(bounded(t), "null", nil, &threads); err != nil {
		t.Fatalf("null body: %v", err)
	}
	err := c.Call(bounded(t), "wrong", nil, &threads)
	var ute *json.UnmarshalTypeError
	if !errors.As(err, &ute) || !strings.Contains(err.Error(), "wrong") {
		t.Fatalf("got %v, want a decoding error naming the command", err)
	}
}

func TestNoAnswerTimesOutAndClientStaysUsable(t *testing.T) {
	c, a := newPair(t, Options{})
	ignored := make(chan wireMsg, 1)
	a.serve(func(m wireMsg) error {
		if m.Command == "stackTrace" {
			ignored <- m
			return nil
		}
		return a.echo(m)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := c.Call(ctx, "stackTrace", nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want context.DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "stackTrace") {
		t.Fatalf("error %q does not name the command", err)
	}
	c.mu.Lock()
	left := len(c.pending)
	c.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d requests still pending after the timeout", left)
	}
	// The late answer is dropped; the connection stays in sync.
	if err := a.respond(<-ignored, map[string]any{"late": true}); err != nil {
		t.Fatal(err)
	}
	var body echoBody
	if err := c.Call(bounded(t), "threads", nil, &body); err != nil || body.Command != "threads" {
		t.Fatalf("after a timeout: %+v, %v", body, err)
	}
	if c.Err() != nil {
		t.Fatalf("Err() = %v on a live connection", c.Err())
	}

	// A cancelled context is reported as such, too.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	p, err := c.Send("stackTrace", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	<-ignored
}

// Events come out in order however slowly they are consumed, and the reader
// keeps matching responses while they wait.
func TestEventsInOrderWhileConsumerIsSlow(t *testing.T) {
	c, a := newPair(t, Options{})
	const n = 2000
	for i := range n {
		if err := a.event("output", map[string]any{"output": strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	// All n events were taken off the wire (net.Pipe is unbuffered) and none
	// has been consumed. A call still completes.
	a.serve(a.echo)
	var body echoBody
	if err := c.Call(bounded(t), "threads", nil, &body); err != nil || body.Command != "threads" {
		t.Fatalf("call while events wait: %+v, %v", body, err)
	}
	for i := range n {
		ev, ok := nextEvent(t, c)
		if !ok {
			t.Fatalf("Events closed after %d", i)
		}
		var eb struct{ Output string }
		if err := json.Unmarshal(ev.Body, &eb); err != nil {
			t.Fatal(err)
		}
		if ev.Name != "output" || eb.Output != strconv.Itoa(i) || ev.Seq != i+1 || ev.Stamp.IsZero() {
			t.Fatalf("event %d: got %+v (%s)", i, ev, ev.Body)
		}
	}
}

func TestUnknownMessagesSkipped(t *testing.T) {
	log, logs := testLogger(slog.LevelWarn)
	c, a := newPair(t, Options{Logger: log})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(a.event("someFutureEvent", map[string]any{"x": []int{1}}))
	must(a.send(map[string]any{"type": "notification", "what": "ever"}))
	must(a.raw(`not json {`))
	must(a.raw(`[1,2,3]`))
	must(a.raw(`null`))
	must(a.raw(``))
	must(a.raw("\xff\xfe"))
	must(a.raw(`{"type":"response","request_seq":"one"}`))
	must(a.send(map[string]any{"type": "response", "request_seq": 999, "command": "ghost", "success": true}))
	must(a.event("stopped", nil))

	a.serve(a.echo)
	var body echoBody
	if err := c.Call(bounded(t), "threads", nil, &body); err != nil || body.Command != "threads" {
		t.Fatalf("call after junk: %+v, %v", body, err)
	}
	ev, _ := nextEvent(t, c)
	if ev.Name != "someFutureEvent" || string(ev.Body) != `{"x":[1]}` {
		t.Fatalf("got %+v (%s), want someFutureEvent with its raw body", ev, ev.Body)
	}
	ev, _ = nextEvent(t, c)
	if ev.Name != "stopped" || ev.Body != nil {
		t.Fatalf("got %+v (%s), want stopped without body", ev, ev.Body)
	}
	for _, want := range []string{"unknown type", "undecodable", "no pending request"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
	if c.Err() != nil {
		t.Fatalf("connection ended: %v", c.Err())
	}
}

func TestReverseRequest(t *testing.T) {
	type rit struct {
		Kind string   `json:"kind"`
		Args []string `json:"args"`
	}
	got := make(chan ReverseRequest, 1)
	c, a := newPair(t, Options{Reverse: func(ctx context.Context, req ReverseRequest) (any, error) {
		if _, ok := ctx.Deadline(); !ok {
			return nil, errors.New("handler context has no deadline")
		}
		got <- req
		if req.Command == "startDebugging" {
			return nil, errors.New("child sessions are off")
		}
		return map[string]int{"processId": 42}, nil
	}})

	// A client request first, so that the reverse response's seq can be
	// checked against the client's own numbering.
	errc := make(chan error, 1)
	go func() { errc <- c.Call(bounded(t), "initialize", nil, nil) }()
	a.respond(a.nextRequest("initialize"), nil)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}

	seq, err := a.reverse("runInTerminal", rit{Kind: "integrated", Args: []string{"dlv", "dap"}})
	if err != nil {
		t.Fatal(err)
	}
	req := <-got
	var args rit
	if err := json.Unmarshal(req.Arguments, &args); err != nil || req.Seq != seq || req.Command != "runInTerminal" || args.Kind != "integrated" || len(args.Args) != 2 {
		t.Fatalf("handler got %+v (%s), %v", req, req.Arguments, err)
	}
	resp := a.next()
	if resp.Type != "response" || resp.RequestSeq != seq || resp.Command != "runInTerminal" || resp.Success == nil || !*resp.Success || resp.Seq != 2 {
		t.Fatalf("got %+v, want a successful response to seq %d with seq 2", resp, seq)
	}
	var rb struct{ ProcessID int }
	if err := json.Unmarshal(resp.Body, &rb); err != nil || rb.ProcessID != 42 {
		t.Fatalf("response body %s, %v", resp.Body, err)
	}

	seq, err = a.reverse("startDebugging", map[string]any{"request": "launch"})
	if err != nil {
		t.Fatal(err)
	}
	<-got
	resp = a.next()
	if resp.Type != "response" || resp.RequestSeq != seq || resp.Success == nil || *resp.Success || resp.Message != "child sessions are off" || resp.Seq != 3 {
		t.Fatalf("got %+v, want a failed response to seq %d carrying the handler's error", resp, seq)
	}
}

func TestReverseRequestWithoutHandler(t *testing.T) {
	log, logs := testLogger(slog.LevelWarn)
	c, a := newPair(t, Options{Logger: log})
	seq, err := a.reverse("runInTerminal", map[string]any{"args": []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	resp := a.next()
	if resp.Type != "response" || resp.RequestSeq != seq || resp.Command != "runInTerminal" || resp.Success == nil || *resp.Success || !strings.Contains(resp.Message, "not supported") {
		t.Fatalf("got %+v, want a failed response to seq %d", resp, seq)
	}
	if !strings.Contains(logs.String(), "runInTerminal") {
		t.Errorf("unanswered reverse request not logged:\n%s", logs)
	}
	// Still usable.
	a.serve(a.echo)
	if err := c.Call(bounded(t), "threads", nil, nil); err != nil {
		t.Fatal(err)
	}
}

// A slow reverse handler must not hold up the reader.
func TestReverseHandlerDoesNotBlockReader(t *testing.T) {
	release := make(chan struct{})
	c, a := newPair(t, Options{Reverse: func(ctx context.Context, req ReverseRequest) (any, error) {
		select {
		case <-release:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}})
	seq, err := a.reverse("runInTerminal", nil)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- c.Call(bounded(t), "threads", nil, nil) }()
	a.respond(a.nextRequest("threads"), nil)
	if err := <-errc; err != nil {
		t.Fatalf("call while a reverse request is being handled: %v", err)
	}
	close(release)
	if resp := a.next(); resp.RequestSeq != seq || resp.Success == nil || !*resp.Success {
		t.Fatalf("got %+v", resp)
	}
}

func TestPeerCloseFailsPendingAndDrainsEvents(t *testing.T) {
	c, a := newPair(t, Options{})
	for i := range 3 {
		if err := a.event("output", map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := sendRead(t, c, a, "continue")
	a.conn.Close()

	err := p.Wait(bounded(t), nil)
	if !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "continue") {
		t.Fatalf("pending request: got %v, want ErrClosed naming the command", err)
	}
	select {
	case <-c.Done():
	case <-time.After(testTimeout):
		t.Fatal("Done not closed")
	}
	if !errors.Is(c.Err(), ErrClosed) || !strings.Contains(c.Err().Error(), "closed the connection") {
		t.Fatalf("Err() = %v", c.Err())
	}
	for i := range 3 {
		ev, ok := nextEvent(t, c)
		var eb struct{ I int }
		json.Unmarshal(ev.Body, &eb)
		if !ok || ev.Name != "output" || eb.I != i {
			t.Fatalf("event %d: got %+v (%s), open %v", i, ev, ev.Body, ok)
		}
	}
	if ev, ok := nextEvent(t, c); ok {
		t.Fatalf("got %+v after the queued events, want Events closed", ev)
	}
	if _, err := c.Send("threads", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Send after the end: got %v, want ErrClosed", err)
	}
	if err := c.Call(bounded(t), "threads", nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Call after the end: got %v, want ErrClosed", err)
	}
}

// Events that arrive just before the peer closes are still delivered: the
// end of the connection and the queue racing in the pump must not lose
// them. Repeated, because the race is in the client's scheduling.
func TestEventsRightBeforePeerClose(t *testing.T) {
	for i := range 200 {
		cEnd, aEnd := net.Pipe()
		a := &fakeAdapter{t: t, conn: aEnd, r: bufio.NewReader(aEnd)}
		c := NewClient(cEnd, Options{})
		if err := a.event("terminated", nil); err != nil {
			t.Fatal(err)
		}
		aEnd.Close()
		var got []string
		for ev := range c.Events() {
			got = append(got, ev.Name)
		}
		c.Close()
		if len(got) != 1 || got[0] != "terminated" {
			t.Fatalf("round %d: got events %q, want [terminated]", i, got)
		}
	}
}

// Garbage on the wire ends the connection (it cannot be resynchronised), and
// the client closes the transport so the adapter sees the end too.
func TestFramingErrorEndsConnection(t *testing.T) {
	c, a := newPair(t, Options{})
	p, _ := sendRead(t, c, a, "threads")
	if _, err := a.conn.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(bounded(t), nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("got %v, want ErrClosed", err)
	}
	if !errors.Is(c.Err(), ErrClosed) || !strings.Contains(c.Err().Error(), "malformed") {
		t.Fatalf("Err() = %v, want ErrClosed saying why", c.Err())
	}
	if _, err := a.read(); err == nil {
		t.Fatal("adapter end still open")
	}
}

func TestCloseEndsGoroutines(t *testing.T) {
	base := runtime.NumGoroutine()
	func() {
		cEnd, aEnd := net.Pipe()
		defer aEnd.Close()
		a := &fakeAdapter{t: t, conn: aEnd, r: bufio.NewReader(aEnd)}
		c := NewClient(cEnd, Options{})

		// Leave events queued and undelivered, a request pending, and a
		// reverse request answered.
		for i := range 10 {
			if err := a.event("output", map[string]int{"i": i}); err != nil {
				t.Fatal(err)
			}
		}
		p, _ := sendRead(t, c, a, "continue")
		if _, err := a.reverse("runInTerminal", nil); err != nil {
			t.Fatal(err)
		}
		a.next()
		// The adapter keeps reading so nothing blocks on the pipe.
		a.serve(func(wireMsg) error { return nil })

		closed := make(chan error, 1)
		go func() { closed <- c.Close() }()
		select {
		case err := <-closed:
			if err != nil {
				t.Fatalf("Close: %v", err)
			}
		case <-time.After(testTimeout):
			t.Fatal("Close did not return")
		}
		// Both goroutines have ended by the time Close returns: Done and
		// Events are closed already, queued events are dropped.
		select {
		case <-c.Done():
		default:
			t.Fatal("Done still open after Close")
		}
		select {
		case ev, ok := <-c.Events():
			if ok {
				t.Fatalf("event %+v delivered after Close", ev)
			}
		default:
			t.Fatal("Events still open after Close")
		}
		if err := p.Wait(bounded(t), nil); !errors.Is(err, ErrClosed) {
			t.Fatalf("pending request: got %v, want ErrClosed", err)
		}
		if !errors.Is(c.Err(), ErrClosed) {
			t.Fatalf("Err() = %v", c.Err())
		}
		if err := c.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if _, err := c.Send("threads", nil); !errors.Is(err, ErrClosed) {
			t.Fatalf("Send after Close: got %v, want ErrClosed", err)
		}
		aEnd.Close()
		a.serving.Wait()
	}()
	waitGoroutines(t, base)
}

// Close after the adapter has gone away returns nil and still ends
// everything.
func TestCloseAfterPeerClose(t *testing.T) {
	base := runtime.NumGoroutine()
	cEnd, aEnd := net.Pipe()
	c := NewClient(cEnd, Options{})
	aEnd.Close()
	<-c.Done()
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for range c.Events() {
	}
	waitGoroutines(t, base)
}

// The same over TCP, whose second Close reports an error: Close must not
// pass on the error of closing a transport the reader already closed.
func TestCloseAfterPeerCloseTCP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback:", err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- conn
	}()
	cEnd, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient(cEnd, Options{})
	aEnd, ok := <-accepted
	if !ok {
		t.Fatal("accept failed")
	}
	aEnd.Close()
	select {
	case <-c.Done():
	case <-time.After(testTimeout):
		t.Fatal("peer close not noticed")
	}
	if !errors.Is(c.Err(), ErrClosed) {
		t.Fatalf("Err() = %v", c.Err())
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close after the peer closed: %v", err)
	}
}

func TestAfterRead(t *testing.T) {
	var reads atomic.Int64
	c, a := newPair(t, Options{AfterRead: func() { reads.Add(1) }})
	a.serve(a.echo)
	if err := c.Call(bounded(t), "threads", nil, nil); err != nil {
		t.Fatal(err)
	}
	if reads.Load() == 0 {
		t.Fatal("AfterRead never called")
	}
	before := reads.Load()
	if err := c.Call(bounded(t), "threads", nil, nil); err != nil {
		t.Fatal(err)
	}
	if reads.Load() <= before {
		t.Fatal("AfterRead not called for the second response")
	}
}

// Many goroutines calling at once each get their own answer, and the seq
// numbers reach the wire in order, as the specification requires.
func TestConcurrentCalls(t *testing.T) {
	c, a := newPair(t, Options{})
	var (
		last    int
		badSeqs atomic.Int64
	)
	var answering sync.WaitGroup
	a.serve(func(m wireMsg) error {
		if m.Seq != last+1 {
			badSeqs.Add(1)
		}
		last = m.Seq
		// Answer from another goroutine, so answers come out of order.
		answering.Add(1)
		go func() {
			defer answering.Done()
			a.echo(m)
		}()
		return nil
	})
	const workers, calls = 32, 50
	var wg sync.WaitGroup
	errc := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := range calls {
				want := fmt.Sprintf(`{"w":%d,"i":%d}`, w, i)
				var body echoBody
				if err := c.Call(bounded(t), "evaluate", json.RawMessage(want), &body); err != nil {
					errc <- err
					return
				}
				if string(body.Arguments) != want {
					errc <- fmt.Errorf("asked %s, got the answer to %s", want, body.Arguments)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	if n := badSeqs.Load(); n != 0 {
		t.Errorf("%d requests reached the adapter out of seq order", n)
	}
	answering.Wait()
}

func BenchmarkCallRoundTrip(b *testing.B) {
	cEnd, aEnd := net.Pipe()
	c := NewClient(cEnd, Options{})
	defer c.Close()
	done := make(chan struct{})
	go func() {
		// A minimal adapter: parse the seq and answer with a canned body.
		defer close(done)
		r := bufio.NewReader(aEnd)
		var out []byte
		var req struct {
			Seq int `json:"seq"`
		}
		for seq := 1; ; seq++ {
			body, err := ReadFrame(r)
			if err != nil {
				return
			}
			if err := json.Unmarshal(body, &req); err != nil {
				return
			}
			out = append(out[:0], `{"seq":`...)
			out = strconv.AppendInt(out, int64(seq), 10)
			out = append(out, `,"type":"response","request_seq":`...)
			out = strconv.AppendInt(out, int64(req.Seq), 10)
			out = append(out, `,"success":true,"command":"threads","body":{"threads":[{"id":1,"name":"main"}]}}`...)
			if err := WriteFrame(aEnd, out); err != nil {
				return
			}
		}
	}()
	type thread struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	var body struct {
		Threads []thread `json:"threads"`
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Call(ctx, "threads", nil, &body); err != nil {
			b.Fatal(err)
		}
	}
	c.Close()
	aEnd.Close()
	<-done
}
