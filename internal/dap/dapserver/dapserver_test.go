package dapserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// message is what a client reads: a response or an event.
type message struct {
	Type       string          `json:"type"`
	Event      string          `json:"event"`
	Command    string          `json:"command"`
	RequestSeq int             `json:"request_seq"`
	Success    bool            `json:"success"`
	Message    string          `json:"message"`
	Body       json.RawMessage `json:"body"`
}

// wire is a client speaking raw DAP to a server, so that the order of
// what the server writes can be checked message by message.
type wire struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	seq  int
}

// serveOnPipe serves the server newServer makes on one end of a pipe
// until the test ends, and talks to it from the other.
func serveOnPipe(t *testing.T, newServer func(end io.ReadWriteCloser) *Server) *wire {
	t.Helper()
	client, end := net.Pipe()
	s := newServer(end)
	served := make(chan struct{})
	go func() {
		defer close(served)
		s.Serve(context.Background())
	}()
	// A server that stops answering fails the test instead of hanging it.
	if err := client.SetDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		client.Close()
		end.Close()
		<-served
	})
	return &wire{t: t, conn: client, r: bufio.NewReader(client)}
}

// serveConfig serves a server of cfg (serveOnPipe).
func serveConfig(t *testing.T, cfg Config) *wire {
	t.Helper()
	return serveOnPipe(t, func(end io.ReadWriteCloser) *Server { return New(end, cfg) })
}

func (w *wire) send(command string, args any) {
	w.t.Helper()
	w.seq++
	body, err := json.Marshal(map[string]any{"seq": w.seq, "type": "request", "command": command, "arguments": args})
	if err != nil {
		w.t.Fatal(err)
	}
	if err := dap.WriteFrame(w.conn, body); err != nil {
		w.t.Fatalf("sending %s: %v", command, err)
	}
}

func (w *wire) next() message {
	w.t.Helper()
	body, err := dap.ReadFrame(w.r)
	if err != nil {
		w.t.Fatalf("reading the next message: %v", err)
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		w.t.Fatal(err)
	}
	return m
}

// call sends a request and returns its response, which must come next.
func (w *wire) call(command string, args any) message {
	w.t.Helper()
	w.send(command, args)
	m := w.next()
	if m.Type != "response" || m.Command != command || m.RequestSeq != w.seq {
		w.t.Fatalf("%s: got %+v, want its response", command, m)
	}
	return m
}

func (w *wire) mustFail(command string, args any, want string) {
	w.t.Helper()
	if m := w.call(command, args); m.Success || m.Message != want {
		w.t.Errorf("%s: success=%v message %q; want failure %q", command, m.Success, m.Message, want)
	}
}

func (w *wire) must(command string, args any) message {
	w.t.Helper()
	m := w.call(command, args)
	if !m.Success {
		w.t.Fatalf("%s failed: %s", command, m.Message)
	}
	return m
}

func answer(body any) Handler {
	return func(context.Context, *Request) (any, error) { return body, nil }
}

func TestDispatchByCommand(t *testing.T) {
	w := serveConfig(t, Config{Name: "test adapter", Handlers: map[string]Handler{
		"echo": func(_ context.Context, req *Request) (any, error) {
			var args struct{ Text string }
			if err := req.Args(&args); err != nil {
				return nil, err
			}
			return map[string]string{"said": args.Text}, nil
		},
		"refuse": func(context.Context, *Request) (any, error) { return nil, errors.New("not now") },
	}})
	if m := w.must("echo", map[string]string{"text": "hello"}); string(m.Body) != `{"said":"hello"}` {
		t.Errorf("echo's body: %s", m.Body)
	}
	w.mustFail("refuse", nil, "not now")
	w.mustFail("frobnicate", nil, "unrecognized request: frobnicate")
	w.mustFail("echo", "not an object", "bad arguments for echo: json: cannot unmarshal string into Go value of type struct { Text string }")
}

func TestUnrecognizedWordedByTheServer(t *testing.T) {
	w := serveConfig(t, Config{Name: "test mirror", Unrecognized: func(command string) error {
		return fmt.Errorf("%s is not supported by the test mirror", command)
	}})
	w.mustFail("frobnicate", nil, "frobnicate is not supported by the test mirror")
}

func TestGating(t *testing.T) {
	started := false
	w := serveConfig(t, Config{
		Name:            "test adapter",
		InitializeFirst: true,
		NeedsProgram:    map[string]bool{"stackTrace": true},
		Started:         func() bool { return started },
		Handlers: map[string]Handler{
			"initialize": answer(nil),
			"launch":     func(context.Context, *Request) (any, error) { started = true; return nil, nil },
			"threads":    answer(nil),
			"stackTrace": answer(nil),
			"disconnect": answer(nil),
		},
	})
	w.mustFail("threads", nil, "threads before initialize: the first request must be initialize")
	w.must("disconnect", nil)
	w.must("initialize", nil)
	w.mustFail("initialize", nil, "initialize was already received")
	w.must("threads", nil)
	w.mustFail("stackTrace", nil, "stackTrace before launch or attach")
	w.must("launch", nil)
	w.must("stackTrace", nil)
}

func TestAdmitRefusesFirst(t *testing.T) {
	admitted := false
	w := serveConfig(t, Config{
		Name:            "test mirror",
		InitializeFirst: true,
		Admit: func(req *Request) error {
			if !admitted && req.Command != "attach" {
				return errors.New("attach first")
			}
			admitted = true
			return nil
		},
		Handlers: map[string]Handler{"attach": answer(nil)},
	})
	w.mustFail("frobnicate", nil, "attach first")
	w.mustFail("frobnicate", nil, "attach first")
	w.mustFail("attach", nil, "attach before initialize: the first request must be initialize")
	w.mustFail("frobnicate", nil, "unrecognized request: frobnicate")
}

// TestAfterReplyOrder: what a handler queues is written after its
// response, in the order queued, and before the next request is read; a
// failed request's hooks are dropped; a deferred request's run.
func TestAfterReplyOrder(t *testing.T) {
	var s *Server
	var deferred *Request
	w := serveOnPipe(t, func(end io.ReadWriteCloser) *Server {
		s = New(end, Config{Name: "test adapter", Handlers: map[string]Handler{
			"initialize": func(context.Context, *Request) (any, error) {
				s.AfterReply(func() { s.Event("initialized", nil) })
				s.AfterReply(func() { s.Event("second", nil) })
				return nil, nil
			},
			"launch": func(_ context.Context, req *Request) (any, error) {
				deferred = req
				s.AfterReply(func() { s.Event("waiting", nil) })
				return nil, ErrDeferred
			},
			"configurationDone": func(context.Context, *Request) (any, error) {
				s.AfterReply(func() { s.Reply(deferred, nil) })
				return nil, nil
			},
			"fail": func(context.Context, *Request) (any, error) {
				s.AfterReply(func() { s.Event("dropped", nil) })
				return nil, errors.New("failed")
			},
		}})
		return s
	})

	w.must("initialize", nil)
	for _, want := range []string{"initialized", "second"} {
		if m := w.next(); m.Type != "event" || m.Event != want {
			t.Fatalf("after initialize's response: %+v, want the %s event", m, want)
		}
	}
	w.mustFail("fail", nil, "failed")
	// The failed request's hook, had it run, would come before this.
	w.send("launch", nil)
	if m := w.next(); m.Type != "event" || m.Event != "waiting" {
		t.Fatalf("after the deferred launch: %+v, want the waiting event (and no response)", m)
	}
	launchSeq := w.seq
	w.must("configurationDone", nil)
	if m := w.next(); m.Type != "response" || m.Command != "launch" || m.RequestSeq != launchSeq {
		t.Fatalf("after configurationDone's response: %+v, want launch's", m)
	}
}

// TestPanicFailsOnlyThatRequest: a panicking handler is answered with an
// error naming the panic, its stack goes to the error log, and the next
// request is served. A panicking after-reply hook is logged alike.
func TestPanicFailsOnlyThatRequest(t *testing.T) {
	var logs syncBuffer
	var s *Server
	w := serveOnPipe(t, func(end io.ReadWriteCloser) *Server {
		s = New(end, Config{Name: "test adapter", Log: slog.New(slog.NewTextHandler(&logs, nil)), Handlers: map[string]Handler{
			"boom":    func(context.Context, *Request) (any, error) { panic("handler bug") },
			"threads": answer(map[string]any{"threads": []any{}}),
			"hook": func(context.Context, *Request) (any, error) {
				s.AfterReply(func() { panic("hook bug") })
				return nil, nil
			},
		}})
		return s
	})

	w.mustFail("boom", nil, "internal error in the test adapter while handling boom: handler bug")
	w.must("threads", nil)
	w.must("hook", nil)
	w.must("threads", nil)
	l := logs.String()
	if !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "dapserver_test.go") {
		t.Errorf("the panic's stack is not in the error log:\n%s", l)
	}
	if !strings.Contains(l, "hook bug") {
		t.Errorf("the hook's panic is not logged:\n%s", l)
	}
}

// TestStartOnPipe: the Connection keeps what the adapter filled in, its
// Transport reaches the server, and Cleanup returns only once serve has.
func TestStartOnPipe(t *testing.T) {
	serveReturned := false
	conn := StartOnPipe(adapter.Connection{Request: "launch", AdapterID: "test", Command: []string{"(built-in)"}}, func(end io.ReadWriteCloser) {
		New(end, Config{Name: "test adapter", Handlers: map[string]Handler{"threads": answer(nil)}}).Serve(context.Background())
		serveReturned = true
	})
	if conn.Request != "launch" || conn.AdapterID != "test" || len(conn.Command) != 1 {
		t.Errorf("the Connection lost its fields: %+v", conn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := dap.NewClient(conn.Transport, dap.Options{})
	if err := c.Call(ctx, "threads", nil, nil); err != nil {
		t.Fatalf("threads over the pipe: %v", err)
	}
	conn.Cleanup()
	if !serveReturned {
		t.Error("Cleanup returned before serve did")
	}
	c.Close()
}

// syncBuffer is a bytes.Buffer safe for the server's goroutine to write
// while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
