package node

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// mainThread is the one DAP thread: the program's main JavaScript thread.
const mainThread = 1

// endWait bounds the wait for node to exit and its pipes to drain once the
// inspector connection has closed.
const endWait = 5 * time.Second

// server is the adapter's DAP side for one client. Requests are handled one
// at a time on the serve goroutine; inspector events on the event goroutine
// (eventLoop); program output on one goroutine per pipe. The serve
// goroutine owns the others and waits for them before it returns.
type server struct {
	conn io.ReadWriteCloser
	log  *slog.Logger

	// Server dispatches requests and writes responses and events.
	*dapserver.Server

	// Owned by the serve goroutine.
	started        bool // launch or attach succeeded
	programStopped bool // stopProgram has run

	// Set once by launch or attach, before the event loop starts.
	cdp        *cdp.Client
	proc       *proc.Process // nil when attached
	attached   bool
	opts       runOptions
	outputs    sync.WaitGroup // pipe readers
	eventsDone chan struct{}  // closed when eventLoop returns
	stopped    chan struct{}  // signalled (buffer 1) by every reported stop

	// stripsTypes (set by launch): the launched node runs the program's
	// .ts files as written (Node's type stripping, 22.6+), so breakpoints
	// in them bind by their own lines; otherwise a .ts file is compiled to
	// JavaScript and its breakpoints bind through source maps.
	stripsTypes bool
	// os is the system node runs on: how its file: URLs are written and
	// whether paths compare case-insensitively.
	os platform.OS

	closing atomic.Bool // disconnect or terminate in progress: report no end

	mu      sync.Mutex // guards what follows
	scripts map[string]*script
	bps     map[string][]*breakpoint // by the client's source path
	byCDP   map[string]*breakpoint
	nextBP  int
	funcBPs []*funcBreakpoint
	// root is where compiled output is searched for source maps (the
	// launched program's project); compiled is what was found, read on
	// the first breakpoint in a compiled source.
	root          string
	compiled      []compiledScript
	scanned       bool
	instrumenting bool
	// files are the program's JavaScript files (filesScanned once), where
	// function breakpoints look for declarations before the files load.
	files          []string
	filesScanned   bool
	pause          *pauseState
	capture        *returnCapture // a step out catching a return value
	handles        map[int]any
	nextHandle     int
	stepping       bool
	pauseRequested bool
	pauseRetries   int // used by the event goroutine only
	// leaving: leaveInternals is stepping a requested pause out of
	// Node's code; lastPauseAttempt: requestPause sent its last pause.
	leaving, lastPauseAttempt bool
	defaultContext            int
	excState                  string
}

// runOptions are the launch or attach options that shape debugging.
type runOptions struct {
	stopOnEntry bool
	// justMyCode skips node_modules and Node's internals when stepping.
	justMyCode bool
}

func newServer(conn io.ReadWriteCloser, log *slog.Logger) *server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &server{
		conn:       conn,
		log:        log,
		scripts:    map[string]*script{},
		bps:        map[string][]*breakpoint{},
		byCDP:      map[string]*breakpoint{},
		handles:    map[int]any{},
		eventsDone: make(chan struct{}),
		stopped:    make(chan struct{}, 1),
		excState:   "none",
		os:         platform.Current(),
	}
	s.Server = dapserver.New(conn, dapserver.Config{
		Name:            "node adapter",
		Log:             log,
		Handlers:        s.handlers(),
		InitializeFirst: true,
		NeedsProgram:    needsProgram,
		Started:         func() bool { return s.started },
	})
	return s
}

// request is an incoming DAP request.
type request = dapserver.Request

// handlers is the server's handler table. Its handlers bound their own
// waits on the inspector.
func (s *server) handlers() map[string]dapserver.Handler {
	return map[string]dapserver.Handler{
		"initialize":              dapserver.WithoutContext(s.initialize),
		"launch":                  dapserver.WithoutContext(s.thenInitialized(s.launch)),
		"attach":                  dapserver.WithoutContext(s.thenInitialized(s.attach)),
		"configurationDone":       dapserver.WithoutContext(s.configurationDone),
		"disconnect":              dapserver.WithoutContext(s.disconnect),
		"terminate":               dapserver.WithoutContext(s.terminate),
		"setBreakpoints":          dapserver.WithoutContext(s.setBreakpoints),
		"setFunctionBreakpoints":  dapserver.WithoutContext(s.setFunctionBreakpoints),
		"setExceptionBreakpoints": dapserver.WithoutContext(s.setExceptionBreakpoints),
		"threads":                 dapserver.WithoutContext(s.threads),
		"stackTrace":              dapserver.WithoutContext(s.stackTrace),
		"scopes":                  dapserver.WithoutContext(s.scopes),
		"variables":               dapserver.WithoutContext(s.variables),
		"evaluate":                dapserver.WithoutContext(s.evaluate),
		"setVariable":             dapserver.WithoutContext(s.setVariable),
		"exceptionInfo":           dapserver.WithoutContext(s.exceptionInfo),
		"continue":                dapserver.WithoutContext(func(r *request) (any, error) { return s.resume(r, "Debugger.resume") }),
		"next":                    dapserver.WithoutContext(func(r *request) (any, error) { return s.resume(r, "Debugger.stepOver") }),
		"stepIn":                  dapserver.WithoutContext(func(r *request) (any, error) { return s.resume(r, "Debugger.stepInto") }),
		"stepOut":                 dapserver.WithoutContext(func(r *request) (any, error) { return s.resume(r, "Debugger.stepOut") }),
		"pause":                   dapserver.WithoutContext(s.pauseProgram),
		"source":                  s.source,
	}
}

// serve answers requests until the connection ends or disconnect, then
// ends what it started and waits for it.
func (s *server) serve() {
	defer s.shutdown()
	s.Serve(context.Background())
}

// thenInitialized sends the initialized event once a launch or attach has
// been answered, not after initialize: the configuration requests it calls
// for (setFunctionBreakpoints, setExceptionBreakpoints) need the program
// that launch or attach connects to.
func (s *server) thenInitialized(start func(*request) (any, error)) func(*request) (any, error) {
	return func(req *request) (any, error) {
		body, err := start(req)
		if err == nil {
			s.AfterReply(func() { s.Event("initialized", nil) })
		}
		return body, err
	}
}

// needsProgram lists the requests that need a launched or attached program.
var needsProgram = map[string]bool{
	"configurationDone": true, "setFunctionBreakpoints": true,
	"setExceptionBreakpoints": true, "stackTrace": true, "scopes": true, "variables": true,
	"evaluate": true, "setVariable": true, "exceptionInfo": true, "continue": true,
	"next": true, "stepIn": true, "stepOut": true, "pause": true,
}

// shutdown ends the program (when launched) and every goroutine.
func (s *server) shutdown() {
	s.closing.Store(true)
	s.stopProgram(true)
	s.conn.Close()
}

// stopProgram closes the inspector connection (killing node first when we
// launched it and terminate is set) and waits for the event loop and the
// output readers to end.
func (s *server) stopProgram(terminate bool) {
	if !s.started || s.programStopped {
		return
	}
	s.programStopped = true
	killed := s.proc != nil && terminate
	if killed {
		s.proc.Kill()
	}
	s.cdp.Close()
	<-s.eventsDone
	s.outputs.Wait()
	// Kill walks /proc for the process's children (~1.5 ms a time): once.
	if s.proc != nil && !killed {
		s.proc.Kill()
	}
}

func (s *server) initialize(*request) (any, error) {
	return godap.Capabilities{
		SupportsConfigurationDoneRequest:  true,
		SupportsConditionalBreakpoints:    true,
		SupportsHitConditionalBreakpoints: true,
		SupportsLogPoints:                 true,
		SupportsFunctionBreakpoints:       true,
		SupportsSetVariable:               true,
		SupportsExceptionInfoRequest:      true,
		SupportsTerminateRequest:          true,
		SupportsEvaluateForHovers:         true,
		SupportTerminateDebuggee:          true,
		ExceptionBreakpointFilters: []godap.ExceptionBreakpointsFilter{
			{Filter: "uncaught", Label: "Uncaught exceptions", Default: true},
			{Filter: "all", Label: "All exceptions"},
			{Filter: userUnhandled, Label: "User-unhandled exceptions", Description: "Also exceptions thrown by your code (or a failed node:assert assertion in it) that leave it into Node's code or a package, which catches them: a test runner catching a failed assertion"},
		},
	}, nil
}

// connectInspector enables the domains the adapter uses, in one burst
// (the inspector handles them in order), and starts the event loop.
func (s *server) connectInspector(ctx context.Context, c *cdp.Client) error {
	s.cdp = c
	calls := []struct {
		method string
		params any
	}{
		{"Runtime.enable", nil},
		{"Debugger.enable", map[string]any{"maxScriptsCacheSize": 10 << 20}},
		{"Debugger.setAsyncCallStackDepth", map[string]any{"maxDepth": 32}},
	}
	if s.opts.justMyCode {
		calls = append(calls, struct {
			method string
			params any
		}{"Debugger.setBlackboxPatterns", map[string]any{"patterns": blackboxPatterns}})
	}
	var pending []*cdp.Pending
	for _, call := range calls {
		p, err := c.Send(call.method, call.params)
		if err != nil {
			return err
		}
		pending = append(pending, p)
	}
	for _, p := range pending {
		if err := p.Wait(ctx, nil); err != nil {
			return fmt.Errorf("set up the inspector: %w", err)
		}
	}
	// Worker threads are only noted (workerNoted); an inspector without
	// the NodeWorker domain just says no.
	if _, err := c.Send("NodeWorker.enable", map[string]any{"waitForDebuggerOnStart": false}); err != nil {
		return err
	}
	s.started = true
	go s.eventLoop()
	return nil
}

// blackboxPatterns are the scripts stepping skips under justMyCode.
var blackboxPatterns = []string{"^node:", "/node_modules/"}

func (s *server) configurationDone(*request) (any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	if err := s.cdp.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil); err != nil {
		return nil, fmt.Errorf("start the program: %w", err)
	}
	if s.attached && s.opts.stopOnEntry {
		s.mu.Lock()
		s.pauseRequested = true
		s.mu.Unlock()
		// A pause asked for while node is still starting up is now and
		// then acknowledged and never taken: ask again until it stops.
		// The goroutine ends with the stop, the connection or its
		// attempts.
		go func() {
			if err := s.requestPause(); err != nil {
				s.log.Warn("node adapter: pause after attaching", "err", err)
			}
		}()
	}
	return nil, nil
}

// disconnect ends the session: a launched program is killed; an attached
// one is left running (its breakpoints removed) unless terminateDebuggee.
func (s *server) disconnect(req *request) (any, error) {
	var args struct {
		TerminateDebuggee *bool `json:"terminateDebuggee"`
	}
	_ = req.Args(&args)
	s.End()
	s.closing.Store(true)
	if !s.started {
		return nil, nil
	}
	terminate := !s.attached || args.TerminateDebuggee != nil && *args.TerminateDebuggee
	// Left running, the program is released by closing the connection
	// alone: node ends the session, which removes its breakpoints and
	// resumes. Debugger.disable first resumed it while the connection was
	// still open, and a program that then ended at once crashed node 20
	// (SIGSEGV in about one detach in six).
	if s.attached && terminate {
		// No answer comes: the process is gone first.
		_, _ = s.cdp.Send("Runtime.evaluate", map[string]any{"expression": "process.exit()"})
	}
	s.stopProgram(terminate)
	return nil, nil
}

func (s *server) terminate(*request) (any, error) {
	if !s.started {
		return nil, nil
	}
	if s.proc == nil {
		_, _ = s.cdp.Send("Runtime.evaluate", map[string]any{"expression": "process.exit()"})
		return nil, nil
	}
	// The event loop reports the end once node is gone.
	s.proc.Kill()
	return nil, nil
}

func (s *server) threads(*request) (any, error) {
	threads := []godap.Thread{}
	if s.started {
		select {
		case <-s.eventsDone:
		default:
			threads = append(threads, godap.Thread{Id: mainThread, Name: "main"})
		}
	}
	return godap.ThreadsResponseBody{Threads: threads}, nil
}
