package java

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

const (
	// connectTimeout bounds connecting to the agent and its handshake.
	connectTimeout = 10 * time.Second
	// requestTimeout bounds the JDWP work of one DAP request.
	requestTimeout = 30 * time.Second
	// vmStartTimeout bounds the wait for the VM_START event of a launch.
	vmStartTimeout = 10 * time.Second
	// programLoadTimeout bounds configurationDone's wait for the first
	// class of the program (see awaitProgram); past it the program runs
	// on, unwatched. A source launch compiles the file first.
	programLoadTimeout = 20 * time.Second
)

// server is the DAP side of the adapter. Requests are handled one at a
// time on the serve goroutine; JDWP events are handled on the event
// goroutine (eventLoop), which the serve goroutine starts and waits for.
// Both share the debuggee state under mu.
type server struct {
	conn io.ReadWriteCloser
	log  *slog.Logger

	// Server dispatches requests and writes responses and events.
	*dapserver.Server

	// Owned by the serve goroutine.
	closing    atomic.Bool // disconnect answered; read by the event loop too
	configured bool
	loopDone   chan struct{} // closed when the event loop ends
	ctx        context.Context
	cancel     context.CancelFunc

	// Set by launch or attach before the event loop starts; read-only
	// after.
	vm       *jdwp.Conn
	jvm      *jvm // nil when attached
	attached bool
	// attachStop: an attach shows the JVM paused once configured.
	attachStop bool
	source     *sourceMap
	vmStart    chan struct{} // closed by the event loop on VM_START
	entry      string        // main class to stop at on entry, when asked
	// frameworkCatchers are the packages of a test framework that runs
	// the program (launch's testFrameworkPackages).
	frameworkCatchers []string

	// loaded is closed by the event loop when the first class of the
	// program's own is prepared, the answer to request loadReq
	// (awaitProgram).
	loaded  chan struct{}
	loadReq atomic.Int32
	// firstStop is closed when the first stop is shown.
	firstStop     chan struct{}
	firstStopOnce sync.Once

	types *typeCache
	objs  *objectCache
	bps   *breakpoints

	endOnce sync.Once
	// bg counts the stops' prefetches, which shutdown waits for.
	bg sync.WaitGroup
	// returns says whether the VM reports method return values (JDWP
	// 1.6 and later); set on the serve goroutine at the first step out.
	returns       bool
	returnsProbed bool
	// invokeGen counts method invocations: each runs the thread, which
	// invalidates its frame ids.
	invokeGen atomic.Uint64
	// invokeMu makes invocations take turns: a thread runs one at a time,
	// and values are rendered concurrently.
	invokeMu sync.Mutex

	mu      sync.Mutex // guards what follows
	paused  bool
	cur     *stop   // the stop being shown, while paused
	pending []*stop // stops that happened while another was shown
	stepReq int32   // the single-step request in flight, 0 when none
	// stepNote is the stop description of that step when it is not the
	// one asked for (a step out of JDK code, see step).
	stepNote string
	// ret watches for the return value of the method a step out leaves.
	ret     *returnWatch
	ended   bool
	threads *threadTable
	handles *handleTable
}

func newServer(conn io.ReadWriteCloser, log *slog.Logger) *server {
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{
		conn:      conn,
		log:       log,
		ctx:       ctx,
		cancel:    cancel,
		vmStart:   make(chan struct{}),
		loaded:    make(chan struct{}),
		firstStop: make(chan struct{}),
		threads:   newThreadTable(),
		handles:   newHandleTable(),
	}
	s.Server = dapserver.New(conn, dapserver.Config{
		Name:            "java adapter",
		Log:             log,
		Handlers:        s.handlers(),
		InitializeFirst: true,
		Timeout:         timeoutOf,
	})
	return s
}

// request is an incoming DAP request.
type request = dapserver.Request

// handlers is the server's handler table.
func (s *server) handlers() map[string]dapserver.Handler {
	return map[string]dapserver.Handler{
		"initialize":              s.initialize,
		"launch":                  s.launch,
		"attach":                  s.attach,
		"configurationDone":       s.configurationDone,
		"disconnect":              s.disconnect,
		"terminate":               s.terminate,
		"setBreakpoints":          s.setBreakpoints,
		"setFunctionBreakpoints":  s.setFunctionBreakpoints,
		"setExceptionBreakpoints": s.setExceptionBreakpoints,
		"threads":                 s.threadsRequest,
		"stackTrace":              s.stackTrace,
		"scopes":                  s.scopes,
		"variables":               s.variables,
		"evaluate":                s.evaluate,
		"exceptionInfo":           s.exceptionInfo,
		"continue":                s.continueRequest,
		"next":                    func(ctx context.Context, r *request) (any, error) { return s.step(ctx, r, jdwp.StepOver) },
		"stepIn":                  func(ctx context.Context, r *request) (any, error) { return s.step(ctx, r, jdwp.StepInto) },
		"stepOut":                 func(ctx context.Context, r *request) (any, error) { return s.step(ctx, r, jdwp.StepOut) },
		"pause":                   s.pause,
		"redefineClasses":         s.redefineClasses,
	}
}

// serve answers requests until the client goes or disconnects, then ends
// what was started and waits for it.
func (s *server) serve(ctx context.Context) {
	defer s.shutdown()
	stop := context.AfterFunc(ctx, s.cancel)
	defer stop()
	s.Serve(s.ctx)
}

// maxRequestTimeout bounds the longer time a request may ask for.
const maxRequestTimeout = 10 * time.Minute

// timeoutOf is how long a request may take: requestTimeout, or for
// redefineClasses (of many classes, say) the longer timeout (ms) it asks.
func timeoutOf(req *request) time.Duration {
	var args adapter.RedefineClassesArgs
	if req.Command != adapter.RedefineClassesCommand || req.Args(&args) != nil || args.Timeout <= 0 {
		return requestTimeout
	}
	return min(max(time.Duration(args.Timeout)*time.Millisecond, requestTimeout), maxRequestTimeout)
}

// shutdown ends the debuggee (a launched JVM is killed, an attached one
// released) and waits for the event loop.
func (s *server) shutdown() {
	s.cancel()
	if s.vm != nil {
		if s.attached {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_ = s.vm.Dispose(ctx)
			cancel()
		}
		if s.jvm != nil {
			s.jvm.p.Kill()
		}
		s.vm.Close()
		<-s.loopDone
		s.bg.Wait()
	}
	if s.jvm != nil {
		s.jvm.close()
	}
	s.conn.Close()
}

func (s *server) initialize(context.Context, *request) (any, error) {
	return godap.Capabilities{
		SupportsConfigurationDoneRequest:  true,
		SupportsConditionalBreakpoints:    true,
		SupportsHitConditionalBreakpoints: true,
		SupportsLogPoints:                 true,
		SupportsFunctionBreakpoints:       true,
		SupportsExceptionInfoRequest:      true,
		SupportsTerminateRequest:          true,
		SupportsEvaluateForHovers:         true,
		SupportsDelayedStackTraceLoading:  true,
		ExceptionBreakpointFilters: []godap.ExceptionBreakpointsFilter{
			{Filter: "uncaught", Label: "Uncaught exceptions", Default: true},
			{Filter: "all", Label: "All exceptions (caught too)"},
		},
	}, nil
}

func (s *server) launch(ctx context.Context, req *request) (any, error) {
	if s.vm != nil {
		return nil, errors.New("already launched or attached")
	}
	var args map[string]any
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	lc, err := parseLaunch(args)
	if err != nil {
		return nil, err
	}
	if err := lc.resolveMain(); err != nil {
		return nil, err
	}
	if lc.Cwd == "" && lc.Program != "" {
		lc.Cwd = dirOf(lc.Program)
	}
	j, err := spawnJVM(ctx, lc, s.Output)
	if err != nil {
		return nil, err
	}
	vm, err := s.connect(ctx, net.JoinHostPort("127.0.0.1", strconv.Itoa(j.port)))
	if err != nil {
		j.close()
		return nil, err
	}
	s.jvm = j
	// The DAP process event tells a client which process to watch.
	s.Event("process", map[string]any{"name": lc.Program, "systemProcessId": j.p.Pid(), "isLocalProcess": true, "startMethod": "launch"})
	s.source = newSourceMap(lc)
	s.frameworkCatchers = lc.TestFrameworkPackages
	if lc.StopOnEntry {
		s.entry = lc.entryClass()
	}
	s.start(vm)
	select {
	case <-s.vmStart:
	case <-time.After(vmStartTimeout):
		return nil, errors.New("the JVM sent no VM_START event after the debugger connected")
	}
	s.AfterReply(func() { s.Event("initialized", nil) })
	return nil, nil
}

func (s *server) attach(ctx context.Context, req *request) (any, error) {
	if s.vm != nil {
		return nil, errors.New("already launched or attached")
	}
	var args struct {
		HostName    string   `json:"hostName"`
		Host        string   `json:"host"`
		Port        any      `json:"port"`
		SourcePaths []string `json:"sourcePaths"`
		StopOnEntry bool     `json:"stopOnEntry"`
	}
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	host := args.HostName
	if host == "" {
		host = args.Host
	}
	if host == "" {
		host = "127.0.0.1"
	}
	port := fmt.Sprint(args.Port)
	if n, err := strconv.Atoi(port); err != nil || n <= 0 {
		return nil, fmt.Errorf("attach needs the JDWP port of the JVM, got %v", args.Port)
	}
	vm, err := s.connect(ctx, net.JoinHostPort(host, port))
	if err != nil {
		return nil, err
	}
	s.attached = true
	s.attachStop = args.StopOnEntry
	s.source = newSourceMap(&launchConfig{SourcePaths: args.SourcePaths})
	s.start(vm)
	s.AfterReply(func() { s.Event("initialized", nil) })
	return nil, nil
}

// connect dials the agent and shakes hands.
func (s *server) connect(ctx context.Context, addr string) (*jdwp.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	var opts jdwp.Options
	vm, err := dialQuickAck(ctx, addr, &opts)
	if err != nil {
		return nil, err
	}
	return vm, nil
}

// dialQuickAck connects with TCP_QUICKACK re-armed after every read, so
// that a reply the VM writes in two segments is never held by a delayed
// ACK.
// docs/adapter-quirks.md: jvm-1.
func dialQuickAck(ctx context.Context, addr string, opts *jdwp.Options) (*jdwp.Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connect to the JVM's debug agent at %s: %w", addr, err)
	}
	if quickAck {
		opts.AfterRead = adapter.QuickAck(nc)
	}
	vm, err := jdwp.New(ctx, nc, *opts)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("JDWP handshake with %s: %w", addr, err)
	}
	return vm, nil
}

// quickAck says whether TCP_QUICKACK is re-armed; see dialQuickAck.
var quickAck = true

// start begins serving the VM: caches, breakpoints, the event loop.
func (s *server) start(vm *jdwp.Conn) {
	s.vm = vm
	s.types = newTypeCache(vm)
	s.objs = newObjectCache()
	s.bps = newBreakpoints(s)
	s.loopDone = make(chan struct{})
	go func() {
		defer close(s.loopDone)
		s.eventLoop()
	}()
}

func (s *server) configurationDone(ctx context.Context, _ *request) (any, error) {
	if s.configured {
		return nil, errors.New("configurationDone was already received")
	}
	s.configured = true
	if s.vm == nil {
		return nil, nil
	}
	if s.entry != "" {
		if err := s.bps.setEntry(ctx, s.entry); err != nil {
			s.log.Debug("java adapter: entry breakpoint", "err", err)
		}
	}
	if s.attached {
		return s.afterAttach(ctx)
	}
	watching := s.watchFirstClass(ctx)
	if err := s.vm.Resume(ctx); err != nil {
		return nil, fmt.Errorf("start the program: %w", err)
	}
	if !watching {
		return nil, nil
	}
	return nil, s.awaitProgram(ctx)
}

// watchFirstClass asks for one event, suspending nothing, when the first
// class outside the JDK is prepared: the JVM's launcher has found and
// loaded the program's main class (or the source launcher compiled it).
func (s *server) watchFirstClass(ctx context.Context) bool {
	var mods []jdwp.Modifier
	for _, p := range jdkPrefixes {
		mods = append(mods, jdwp.ClassExclude(p+"*"))
	}
	// Modifiers filter in order: the count, last, counts only the classes
	// the exclusions let through.
	mods = append(mods, jdwp.CountModifier(1))
	id, err := s.vm.SetEvent(ctx, jdwp.EventClassPrepare, jdwp.SuspendNone, mods...)
	if err != nil {
		s.log.Debug("java adapter: watch for the program's first class", "err", err)
		return false
	}
	s.loadReq.Store(id)
	return true
}

// awaitProgram holds configurationDone's answer until the program's first
// class is loaded, or a stop is shown (requests about it wait behind this
// one: requests are served one at a time). A JVM that dies before that never ran the program: its
// launcher could not load the main class (NoClassDefFoundError for a class
// run under a name or class path that is not its own, a class file of a
// newer Java, a source file that did not compile), and the launch fails
// with the JVM's own words rather than looking like a program that ran
// and exited.
func (s *server) awaitProgram(ctx context.Context) error {
	timer := time.NewTimer(programLoadTimeout)
	defer timer.Stop()
	select {
	case <-s.loaded:
		return nil
	case <-s.firstStop:
		return nil
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return nil
	case <-s.jvm.p.Done():
	}
	select {
	case <-s.loaded:
		return nil
	default:
	}
	code, ok := s.jvm.exitCode()
	if !ok || code == 0 {
		return nil
	}
	text := s.jvm.stderrHead()
	if text == "" {
		text = "(nothing on stderr)"
	}
	if strings.Contains(text, "load main class") {
		return fmt.Errorf("the JVM exited (exit code %d) before loading any class of the program:\n%s\n%s", code, text, classPathAdvice)
	}
	return fmt.Errorf("the JVM exited (exit code %d) before loading any class of the program:\n%s", code, text)
}

// classPathAdvice says how a class in a package is run, after the
// launcher's "Could not find or load main class".
const classPathAdvice = `A class in a package runs by its full name from the root of its package directories: give scriptPath the .class file (its package is read from it), or scriptPath "pkg.Main" with dapLaunchArgs {"classPaths": ["ROOT"]} (or cwd ROOT), or dapLaunchArgs {"mainClass": "pkg.Main", "classPaths": [...]}.`

// afterAttach decides how an attached JVM goes on. With stopOnEntry it
// is shown paused, the way the reference's attach answers "paused": a JVM
// waiting at its start (suspend=y) stays there, one already running is
// suspended, and a continue starts it. Without, a JVM waiting at its start
// is resumed so that its breakpoints can be hit.
func (s *server) afterAttach(ctx context.Context) (any, error) {
	main, waiting, err := s.startSuspended(ctx)
	if err != nil {
		return nil, err
	}
	if !s.attachStop {
		if waiting {
			return nil, s.vm.Resume(ctx)
		}
		return nil, nil
	}
	reason := "entry"
	if !waiting {
		if err := s.vm.Suspend(ctx); err != nil {
			return nil, fmt.Errorf("pause after attaching: %w", err)
		}
		reason = "pause"
	}
	if main == 0 {
		if main, err = s.pauseThread(ctx); err != nil {
			return nil, err
		}
	}
	st := &stop{reason: reason, thread: main}
	if waiting {
		// Its main thread has no frame yet: say where it is instead.
		st.description = "the JVM waits at its start (suspend=y), before main; continue_execution runs the program"
	}
	s.AfterReply(func() { s.stopped(st) })
	return nil, nil
}

// startSuspended reports whether an attached JVM waits at its start
// (suspend=y: its main thread is suspended and nobody else did it), and
// that main thread.
func (s *server) startSuspended(ctx context.Context) (jdwp.ObjectID, bool, error) {
	ids, err := s.vm.AllThreads(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("list threads: %w", err)
	}
	for _, t := range ids {
		name, err := s.vm.ThreadName(ctx, t)
		if err != nil || name != "main" {
			continue
		}
		select {
		case <-s.vmStart:
			return t, true, nil
		default:
		}
		_, suspended, err := s.vm.ThreadStatus(ctx, t)
		return t, err == nil && suspended, nil
	}
	select {
	case <-s.vmStart:
		return 0, true, nil
	default:
	}
	return 0, false, nil
}

// disconnect ends the session: a launched JVM is killed, an attached one
// is released to run on (or killed when terminateDebuggee asks).
func (s *server) disconnect(ctx context.Context, req *request) (any, error) {
	var args struct {
		TerminateDebuggee *bool `json:"terminateDebuggee"`
	}
	_ = req.Args(&args)
	if s.vm != nil && s.attached && args.TerminateDebuggee != nil && *args.TerminateDebuggee {
		_ = s.vm.Exit(ctx, 1)
	}
	s.closing.Store(true)
	s.End()
	return nil, nil
}

func (s *server) terminate(ctx context.Context, _ *request) (any, error) {
	if s.vm == nil {
		return nil, nil
	}
	if err := s.vm.Exit(ctx, 1); err != nil && !errors.Is(err, jdwp.ErrClosed) {
		if s.jvm == nil {
			return nil, fmt.Errorf("end the JVM: %w", err)
		}
		s.jvm.p.Kill()
	}
	return nil, nil
}
