// Package dapserver is the skeleton of the DAP servers built into this
// binary (the mock, Node and JVM adapters, and the mirror an IDE attaches
// to): a handler table keyed by command, the gating of requests that come
// too early, work queued to run once a response is out, per-request panic
// recovery, and an in-memory pipe that hands a server to the session as an
// adapter.Connection.
//
// It is a package of its own, not part of internal/dap, because
// internal/adapter imports internal/dap (the client) and the pipe starter
// returns an adapter.Connection; internal/dap keeps the wire-level pieces
// both sides share (frames, ServerConn, IncomingRequest).
package dapserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// Request is an incoming DAP request, its arguments decoded by its handler.
type Request = dap.IncomingRequest

// Handler answers one request: its body becomes the response's body (nil
// for none), an error a failed response carrying the error's text. ctx
// derives from Serve's and ends at the request's timeout (Config.Timeout).
type Handler func(ctx context.Context, req *Request) (any, error)

// WithoutContext makes a Handler of a handler that bounds its own waits.
func WithoutContext(h func(*Request) (any, error)) Handler {
	return func(_ context.Context, req *Request) (any, error) { return h(req) }
}

// ErrDeferred is returned by a handler that answers later, with Reply or
// Fail (a launch answered only after configurationDone).
var ErrDeferred = errors.New("response deferred")

// Config describes one server.
type Config struct {
	// Name names the server in error messages and log lines ("node
	// adapter").
	Name string
	Log  *slog.Logger
	// Handlers is the handler table; a command it lacks is refused, with
	// the error Unrecognized returns when set ("unrecognized request: X"
	// otherwise).
	Handlers     map[string]Handler
	Unrecognized func(command string) error
	// InitializeFirst refuses every request but initialize and disconnect
	// until initialize has been answered, and a second initialize.
	InitializeFirst bool
	// NeedsProgram lists the commands refused while Started says the
	// program has not been launched or attached yet.
	NeedsProgram map[string]bool
	Started      func() bool
	// Admit, when set, is asked about every request before its handler;
	// an error refuses the request with its text.
	Admit func(req *Request) error
	// Timeout, when set, bounds each request's context.
	Timeout func(req *Request) time.Duration
}

// Server serves one DAP client: requests one at a time, in order, on the
// goroutine that calls Serve. The embedded ServerConn writes responses and
// events and is safe to use from any goroutine.
type Server struct {
	*dap.ServerConn
	// Handlers is the table Serve dispatches on; tests replace an entry
	// to inject a fault.
	Handlers map[string]Handler

	conn        io.ReadWriteCloser
	cfg         Config
	log         *slog.Logger
	initialized bool
	ended       bool
	after       []func()
}

// New returns a server of cfg that reads requests from conn and writes to
// it.
func New(conn io.ReadWriteCloser, cfg Config) *Server {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{
		ServerConn: dap.NewServerConn(conn, cfg.Name, log),
		Handlers:   cfg.Handlers,
		conn:       conn,
		cfg:        cfg,
		log:        log,
	}
}

// Serve answers requests until the connection ends or a handler calls End;
// each request's context derives from ctx.
func (s *Server) Serve(ctx context.Context) {
	r := bufio.NewReader(s.conn)
	for !s.ended {
		req, err := s.ReadRequest(r)
		if err != nil {
			s.log.Debug(s.cfg.Name+": connection ended", "err", err)
			return
		}
		s.dispatch(ctx, req)
	}
}

// End stops Serve once the current request is answered (disconnect).
func (s *Server) End() { s.ended = true }

// AfterReply queues f to run, on the serving goroutine, right after the
// current request's response is written (an event that must follow it,
// such as initialized after initialize). A failed request drops what it
// queued; a deferred one runs it.
func (s *Server) AfterReply(f func()) { s.after = append(s.after, f) }

func (s *Server) dispatch(ctx context.Context, req *Request) {
	body, err := s.answer(ctx, req)
	after := s.after
	s.after = nil
	switch {
	case errors.Is(err, ErrDeferred):
	case err != nil:
		s.Fail(req, err.Error())
		return
	default:
		s.Reply(req, body)
		if req.Command == "initialize" {
			s.initialized = true
		}
	}
	for _, f := range after {
		s.runHook(req, f)
	}
}

// answer gates req, then runs its handler.
func (s *Server) answer(ctx context.Context, req *Request) (any, error) {
	h, err := s.handler(req)
	if err != nil {
		return nil, err
	}
	if s.cfg.Timeout != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout(req))
		defer cancel()
	}
	return s.recovered(ctx, req, h)
}

// handler is req's handler, or why req is refused: not admitted, not
// known, or too early.
func (s *Server) handler(req *Request) (Handler, error) {
	if s.cfg.Admit != nil {
		if err := s.cfg.Admit(req); err != nil {
			return nil, err
		}
	}
	h, ok := s.Handlers[req.Command]
	switch {
	case !ok && s.cfg.Unrecognized != nil:
		return nil, s.cfg.Unrecognized(req.Command)
	case !ok:
		return nil, fmt.Errorf("unrecognized request: %s", req.Command)
	case !s.cfg.InitializeFirst:
	case req.Command == "initialize" && s.initialized:
		return nil, errors.New("initialize was already received")
	case !s.initialized && req.Command != "initialize" && req.Command != "disconnect":
		return nil, fmt.Errorf("%s before initialize: the first request must be initialize", req.Command)
	}
	if s.cfg.NeedsProgram[req.Command] && !s.cfg.Started() {
		return nil, fmt.Errorf("%s before launch or attach", req.Command)
	}
	return h, nil
}

// recovered runs h; a panic in it becomes the request's error, its stack
// logged. The built-in adapters run inside the server process, so a panic
// let through would end every session of every client.
func (s *Server) recovered(ctx context.Context, req *Request, h Handler) (body any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error(s.cfg.Name+": request handler panicked", "command", req.Command, "panic", r, "stack", string(debug.Stack()))
			body, err = nil, fmt.Errorf("internal error in the %s while handling %s: %v", s.cfg.Name, req.Command, r)
		}
	}()
	return h(ctx, req)
}

// runHook runs f, one of req's after-reply hooks; a panic in it is logged
// and goes no further, for the reason recovered gives.
func (s *Server) runHook(req *Request, f func()) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error(s.cfg.Name+": after-reply hook panicked", "command", req.Command, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	f()
}
