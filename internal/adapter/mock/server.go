package mock

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
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

	*dap.ServerConn // responses and events, one at a time, in seq order

	// Owned by the serve goroutine.
	initialized   bool
	configured    bool
	prog          *program
	stopOnEntry   bool
	pendingLaunch *request // launch waiting for configurationDone
	started       bool
	killed        bool
	closing       bool // disconnect answered: stop serving
	handles       map[int]*handle
	nextRef       int
	nextBPID      int
	after         []func() // run once the current response is written
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
	return &server{
		conn:       conn,
		ServerConn: dap.NewServerConn(conn, "mock adapter", log),
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
}

// request is an incoming DAP request, its arguments decoded by its handler.
type request = dap.IncomingRequest

// errDeferred is returned by a handler that answers later (launch waiting
// for configurationDone).
var errDeferred = errors.New("response deferred")

type handlerFunc func(*server, *request) (any, error)

var handlers = map[string]handlerFunc{
	"initialize":              (*server).initialize,
	"launch":                  (*server).launch,
	"attach":                  (*server).launch,
	"configurationDone":       (*server).configurationDone,
	"disconnect":              (*server).disconnect,
	"terminate":               (*server).terminate,
	"setBreakpoints":          (*server).setBreakpoints,
	"setFunctionBreakpoints":  (*server).setFunctionBreakpoints,
	"setExceptionBreakpoints": (*server).setExceptionBreakpoints,
	"threads":                 (*server).threads,
	"stackTrace":              (*server).stackTrace,
	"scopes":                  (*server).scopes,
	"variables":               (*server).variables,
	"evaluate":                (*server).evaluate,
	"setVariable":             (*server).setVariable,
	"exceptionInfo":           (*server).exceptionInfo,
	"continue":                func(s *server, r *request) (any, error) { return s.resumeWith(r, stepNone) },
	"next":                    func(s *server, r *request) (any, error) { return s.resumeWith(r, stepOver) },
	"stepIn":                  func(s *server, r *request) (any, error) { return s.resumeWith(r, stepInto) },
	"stepOut":                 func(s *server, r *request) (any, error) { return s.resumeWith(r, stepOut) },
	"pause":                   (*server).pause,
}

// serve answers requests until the connection ends or disconnect, then
// ends the program and waits for it.
func (s *server) serve() {
	defer s.shutdown()
	r := bufio.NewReader(s.conn)
	for !s.closing {
		req, err := s.ReadRequest(r)
		if err != nil {
			s.log.Debug("mock adapter: connection ended", "err", err)
			return
		}
		s.dispatch(req)
	}
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

func (s *server) dispatch(req *request) {
	h, ok := handlers[req.Command]
	var body any
	var err error
	switch {
	case !ok:
		err = fmt.Errorf("unrecognized request: %s", req.Command)
	case !s.initialized && req.Command != "initialize" && req.Command != "disconnect":
		err = fmt.Errorf("%s before initialize: the first request must be initialize", req.Command)
	default:
		body, err = s.Handle(req, func() (any, error) { return h(s, req) })
	}
	switch {
	case errors.Is(err, errDeferred):
	case err != nil:
		s.Fail(req, err.Error())
	default:
		s.Reply(req, body)
	}
	after := s.after
	s.after = nil
	for _, f := range after {
		f()
	}
}

func (s *server) setState(st runState) {
	s.mu.Lock()
	s.state = st
	s.mu.Unlock()
}

func (s *server) initialize(*request) (any, error) {
	if s.initialized {
		return nil, errors.New("initialize was already received")
	}
	s.initialized = true
	if !s.hs.initializedAfterLaunch {
		s.after = append(s.after, func() { s.Event("initialized", nil) })
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
		s.after = append(s.after, func() { s.Event("initialized", nil) })
	}
	if s.configured {
		s.after = append(s.after, s.startProgram)
	} else if !s.hs.immediateLaunch {
		s.pendingLaunch = req
		return nil, errDeferred
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
	src, err := os.ReadFile(path)
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
		s.after = append(s.after, func() {
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
	s.closing = true
	return nil, nil
}

func (s *server) terminate(*request) (any, error) {
	s.kill()
	if !s.endReported {
		s.endReported = true
		s.after = append(s.after, func() { s.Event("terminated", nil) })
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
