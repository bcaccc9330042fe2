package mock

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"sync"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// handshake is the order in which the server answers the launch handshake,
// so that the engine can be tested against each real adapter's order.
type handshake struct {
	// immediateLaunch answers launch at once (lldb-dap 19) instead of
	// after configurationDone (debugpy, Delve).
	immediateLaunch bool
	// initializedAfterLaunch holds the initialized event until launch has
	// arrived (Delve) instead of sending it after the initialize response.
	initializedAfterLaunch bool
	// refuseBreakpoints, when set, fails every setBreakpoints with this
	// message, as rdbg 1.6 does for a path it does not map.
	refuseBreakpoints string
}

// handshakeFrom reads the handshake options from launch or attach
// arguments. The server needs them before the launch request arrives (the
// initialized event may precede it), hence when the Connection is made.
func handshakeFrom(args map[string]any) (handshake, error) {
	var hs handshake
	switch v := args["launchResponse"]; v {
	case nil, "afterConfigurationDone":
	case "immediate":
		hs.immediateLaunch = true
	default:
		return hs, fmt.Errorf(`mock: launchResponse must be "immediate" or "afterConfigurationDone", not %v`, v)
	}
	if v, ok := args["initializedAfterLaunch"]; ok {
		b, ok := v.(bool)
		if !ok {
			return hs, fmt.Errorf("mock: initializedAfterLaunch must be true or false, not %v", v)
		}
		hs.initializedAfterLaunch = b
	}
	if v, ok := args["refuseBreakpoints"]; ok {
		msg, ok := v.(string)
		if !ok || msg == "" {
			return hs, fmt.Errorf("mock: refuseBreakpoints must be the refusal's message, not %v", v)
		}
		hs.refuseBreakpoints = msg
	}
	return hs, nil
}

type runState int

const (
	notStarted runState = iota
	running
	paused
	ended
)

// server is the fake adapter's DAP side. Requests are handled one at a time
// on the serve goroutine; the program runs on a goroutine of its own
// (runProgram), which the serve goroutine starts and always waits for.
type server struct {
	conn io.ReadWriteCloser
	hs   handshake
	log  *slog.Logger

	// Server dispatches requests and writes responses and events.
	*dapserver.Server

	// Owned by the serve goroutine.
	configured    bool
	prog          *program
	stopOnEntry   bool
	pendingLaunch *request // launch waiting for configurationDone
	started       bool
	killed        bool
	handles       map[int]*handle
	nextRef       int
	nextBPID      int
	// endReported is set by runProgram, before threadDone is closed, when
	// it sent exited and terminated itself.
	endReported bool

	quit       chan struct{} // closed to end the program
	resume     chan struct{} // wakes the stopped program
	wake       chan struct{} // interrupts a sleep for a pause request
	threadDone chan struct{} // closed when runProgram returns

	mu sync.Mutex // guards what follows, shared with the program's goroutine
	// state is written by the serve goroutine except for paused (the
	// program stopping) and ended (the program finishing).
	state          runState
	pauseRequested bool
	pendingEntry   bool
	step           step
	lineBPs        map[string]*bpSet[int]
	funcBPs        *bpSet[string]
	exc            excFilters
	stop           *stopState
	nextFrameID    int
}

func newServer(conn io.ReadWriteCloser, hs handshake, log *slog.Logger) *server {
	s := &server{
		conn:       conn,
		hs:         hs,
		log:        log,
		handles:    map[int]*handle{},
		quit:       make(chan struct{}),
		resume:     make(chan struct{}),
		wake:       make(chan struct{}, 1),
		threadDone: make(chan struct{}),
		lineBPs:    map[string]*bpSet[int]{},
		funcBPs:    newBPSet[string](),
	}
	s.Server = dapserver.New(conn, dapserver.Config{
		Name:            "mock adapter",
		Log:             log,
		Handlers:        s.handlers(),
		InitializeFirst: true,
	})
	return s
}

// request is an incoming DAP request, its arguments decoded by its handler.
type request = dapserver.Request

// handlers is the server's handler table. A handler that answers later
// (launch waiting for configurationDone) returns dapserver.ErrDeferred.
func (s *server) handlers() map[string]dapserver.Handler {
	return map[string]dapserver.Handler{
		"initialize":              dapserver.WithoutContext(s.initialize),
		"launch":                  dapserver.WithoutContext(s.launch),
		"attach":                  dapserver.WithoutContext(s.launch),
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
		"continue":                dapserver.WithoutContext(func(r *request) (any, error) { return s.resumeWith(r, stepNone) }),
		"next":                    dapserver.WithoutContext(func(r *request) (any, error) { return s.resumeWith(r, stepOver) }),
		"stepIn":                  dapserver.WithoutContext(func(r *request) (any, error) { return s.resumeWith(r, stepInto) }),
		"stepOut":                 dapserver.WithoutContext(func(r *request) (any, error) { return s.resumeWith(r, stepOut) }),
		"pause":                   dapserver.WithoutContext(s.pause),
	}
}

// serve answers requests until the connection ends or disconnect, then
// ends the program and waits for it.
func (s *server) serve() {
	defer s.shutdown()
	s.Serve(context.Background())
}

func (s *server) shutdown() {
	s.kill()
	s.conn.Close()
}

// kill ends the program, if it runs, and waits until it has.
func (s *server) kill() {
	if !s.killed {
		s.killed = true
		close(s.quit)
	}
	if s.started {
		<-s.threadDone
	}
	s.setState(ended)
}

func (s *server) setState(st runState) {
	s.mu.Lock()
	s.state = st
	s.mu.Unlock()
}

func (s *server) initialize(*request) (any, error) {
	if !s.hs.initializedAfterLaunch {
		s.AfterReply(func() { s.Event("initialized", nil) })
	}
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
		ExceptionBreakpointFilters: []godap.ExceptionBreakpointsFilter{
			{Filter: "uncaught", Label: "Uncaught exceptions", Default: true},
			{Filter: "all", Label: "All exceptions"},
		},
	}, nil
}

// launch serves launch and attach alike: both name the program to run.
func (s *server) launch(req *request) (any, error) {
	if s.prog != nil {
		return nil, errors.New("the program was already launched")
	}
	var args struct {
		Program     string `json:"program"`
		Cwd         string `json:"cwd"`
		StopOnEntry bool   `json:"stopOnEntry"`
	}
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	prog, err := loadProgram(args.Program, args.Cwd)
	if err != nil {
		return nil, err
	}
	s.prog, s.stopOnEntry = prog, args.StopOnEntry
	if s.hs.initializedAfterLaunch {
		s.AfterReply(func() { s.Event("initialized", nil) })
	}
	if s.configured {
		s.AfterReply(s.startProgram)
	} else if !s.hs.immediateLaunch {
		s.pendingLaunch = req
		return nil, dapserver.ErrDeferred
	}
	return nil, nil
}

func loadProgram(path, cwd string) (*program, error) {
	if path == "" {
		return nil, errors.New(`no program to run: set "program" to the path of a .mock file`)
	}
	if !filepath.IsAbs(path) {
		abs, err := filepath.Abs(filepath.Join(cwd, path))
		if err != nil {
			return nil, fmt.Errorf("program path %s: %v", path, err)
		}
		path = abs
	}
	path = filepath.Clean(path)
	src, err := userfile.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("program not found: %s", path)
	case err != nil:
		return nil, fmt.Errorf("cannot read program %s: %v", path, err)
	}
	return parseProgram(path, src)
}

func (s *server) configurationDone(*request) (any, error) {
	if s.configured {
		return nil, errors.New("configurationDone was already received")
	}
	s.configured = true
	if s.prog != nil {
		s.AfterReply(func() {
			if s.pendingLaunch != nil {
				s.Reply(s.pendingLaunch, nil)
				s.pendingLaunch = nil
			}
			s.startProgram()
		})
	}
	return nil, nil
}

func (s *server) startProgram() {
	if s.killed {
		return
	}
	globals := newDict()
	t := &thread{prog: s.prog, globals: globals, stack: []*frame{{locals: globals}}, hooks: s}
	s.mu.Lock()
	s.state = running
	s.pendingEntry = s.stopOnEntry
	s.mu.Unlock()
	s.started = true
	go s.runProgram(t)
}

// runProgram runs on the program's goroutine until the program ends.
func (s *server) runProgram(t *thread) {
	defer close(s.threadDone)
	err := t.run()
	code := 0
	var r *raised
	var exit *exitSignal
	switch {
	case err == nil:
	case errors.As(err, &r):
		s.Output("stderr", "Traceback: "+r.msg+"\n")
		code = 1
	case errors.As(err, &exit):
		code = exit.code
	case errors.Is(err, errCrash):
		s.setState(ended)
		s.conn.Close()
		return
	default:
		// Ended by the debugger, which reports the end itself.
		s.setState(ended)
		return
	}
	s.setState(ended)
	s.Event("exited", godap.ExitedEventBody{ExitCode: code})
	s.Event("terminated", nil)
	s.endReported = true
}

// disconnect always ends the program: it runs inside the adapter and
// cannot outlive it, whatever terminateDebuggee says.
func (s *server) disconnect(*request) (any, error) {
	s.kill()
	s.End()
	return nil, nil
}

func (s *server) terminate(*request) (any, error) {
	s.kill()
	if !s.endReported {
		s.endReported = true
		s.AfterReply(func() { s.Event("terminated", nil) })
	}
	return nil, nil
}

func (s *server) threads(*request) (any, error) {
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	threads := []godap.Thread{}
	if st == running || st == paused {
		threads = append(threads, godap.Thread{Id: 1, Name: "main"})
	}
	return godap.ThreadsResponseBody{Threads: threads}, nil
}
