package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// Exception break modes accepted by StartSpec.BreakOnExceptions.
const (
	BreakUncaught = "uncaught"
	BreakAll      = "all"
	BreakNone     = "none"
	// BreakUserUnhandled also stops on exceptions that leave the user's
	// code into a library that catches them (a test runner catching a
	// failed assertion), where the adapter can tell (debugpy's
	// userUnhandled); elsewhere it is uncaught.
	BreakUserUnhandled = "userUnhandled"
)

// WaitOptions say whether a run-control call waits for the next stop, and
// for how long.
type WaitOptions struct {
	Wait    bool
	Timeout time.Duration
}

// DefaultWaitTimeout bounds a run-control call that waits for a stop.
const DefaultWaitTimeout = 30 * time.Second

func (w WaitOptions) timeout() time.Duration {
	if w.Timeout <= 0 {
		return DefaultWaitTimeout
	}
	return w.Timeout
}

// LaunchSpec is what start_debugging asks for.
type LaunchSpec struct {
	Program           string
	Args              []string
	Cwd               string
	Env               map[string]string
	StopOnEntry       bool
	BreakOnExceptions string
	DapLaunchArgs     map[string]any
	// ExecutablePath overrides the session's runtime for this launch, and
	// ExecutableReason says why it was chosen (adapter.LaunchConfig).
	ExecutablePath   string
	ExecutableReason string
	// PathMappings pair the agent's source roots with the roots the
	// program reports (see pathmap.go).
	PathMappings []PathMapping
	// Stdin is text the program reads as its standard input, StdinFile a
	// file it reads instead (at most one of them). A restart feeds the
	// same input again.
	Stdin     *string
	StdinFile string
}

// maxStdinText bounds the input an agent gives as text; a larger input
// goes in a file (StdinFile).
const maxStdinText = 1 << 20

// AttachSpec is what attach_to_process asks for.
type AttachSpec struct {
	Host              string
	Port              int
	ProcessID         int
	SourcePaths       []string
	StopOnEntry       bool
	BreakOnExceptions string
	Extra             map[string]any
	Timeout           time.Duration
	// PathMappings are as in LaunchSpec.
	PathMappings []PathMapping
}

type startSpec struct {
	launch *LaunchSpec
	attach *AttachSpec
	// built is what the launch found of a build in another directory
	// (builtelsewhere.go).
	built *builtElsewhere
}

// pathMappings are the launch's (with those found for a program built
// elsewhere) or the attach's.
func (s *startSpec) pathMappings() []PathMapping {
	switch {
	case s == nil:
		return nil
	case s.launch != nil:
		if s.built != nil {
			return append(slices.Clone(s.launch.PathMappings), s.built.mappings...)
		}
		return s.launch.PathMappings
	case s.attach != nil:
		return s.attach.PathMappings
	}
	return nil
}

// StartResult is the outcome of a start, attach or restart.
type StartResult struct {
	Snapshot *Snapshot
	// Arguments are the launch or attach request's, as sent to the adapter.
	Arguments map[string]any
	// BreakpointsApplied counts the agent's breakpoints sent during the
	// handshake (the server's own are not the agent's business).
	BreakpointsApplied int
	// Runtime is the adapter's Connection.Runtime.
	Runtime string
}

func (s *Session) beginStartLocked() error {
	switch s.state {
	case StateCreated, StateStopped, StateError:
		return nil
	case StateInitializing:
		return errorf("wait_for_stop waits for it to be ready", "the session is already starting a program")
	}
	return errorf("use restart_debugging to start over, or close_debug_session", "the session is already debugging a program (state %s)", s.state)
}

// Start launches a program and, when wait.Wait, waits for its first stop or
// its end.
func (s *Session) Start(ctx context.Context, spec LaunchSpec, wait WaitOptions) (*StartResult, error) {
	if err := s.checkProgram(spec); err != nil {
		return nil, err
	}
	if err := refuseMarkOverride(spec.DapLaunchArgs); err != nil {
		return nil, err
	}
	if err := s.resolveStdin(&spec); err != nil {
		return nil, err
	}
	built := s.findBuildPaths(spec.Program, spec.PathMappings)
	s.mu.Lock()
	if err := s.beginStartLocked(); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	s.spec = &startSpec{launch: &spec, built: built}
	last := s.r
	s.mu.Unlock()
	if last != nil {
		// The last run's adapter may still be exiting after its program's
		// end; its connection ending later would be taken for this run's.
		last.shutdown(true)
	}

	cfg := s.launchConfig(spec)
	mark := proc.RunMark(fmt.Sprintf("%s.%d", s.ID, s.launches.Add(1)))
	cfg.Env = maps.Clone(cfg.Env)
	if cfg.Env == nil {
		cfg.Env = map[string]string{}
	}
	cfg.Env[proc.MarkVar] = mark
	return s.connect(ctx, "launch", mark, func(ctx context.Context) (*adapter.Connection, error) {
		return s.adapter.Launch(ctx, cfg)
	}, spec.BreakOnExceptions, spec.StopOnEntry, wait)
}

// refuseMarkOverride refuses launch arguments whose "env" (a map, or a
// list of "NAME=value" as lldb-dap takes) sets proc.MarkVar: the mark is
// how close finds every process of the run (one that left its process
// group, one whose adapter died), and one the agent chose would let them
// outlive the session. The agent's env argument cannot: the mark is set
// over it.
func refuseMarkOverride(launchArgs map[string]any) error {
	set := false
	switch env := launchArgs["env"].(type) {
	case map[string]any:
		_, set = env[proc.MarkVar]
	case map[string]string:
		_, set = env[proc.MarkVar]
	case []any:
		for _, e := range env {
			if s, ok := e.(string); ok && strings.HasPrefix(s, proc.MarkVar+"=") {
				set = true
			}
		}
	}
	if set {
		return errorf("leave "+proc.MarkVar+" out of dapLaunchArgs.env", "%s is the server's own mark on the program's processes, by which closing the session ends them all; it cannot be set", proc.MarkVar)
	}
	return nil
}

// checkProgram refuses a program that is no file, unless the adapter
// takes it as a name (adapter.ProgramNamer) or the launch arguments name
// the program instead (adapter.LaunchArgsNamer).
func (s *Session) checkProgram(spec LaunchSpec) error {
	program := spec.Program
	if program == "" && s.ProgramInLaunchArgs(spec.DapLaunchArgs) != "" {
		return nil
	}
	if _, err := os.Stat(program); err == nil {
		return nil
	}
	if n, ok := s.adapter.(adapter.ProgramNamer); ok && n.NamesProgram(program) {
		return nil
	}
	return errorf("check the path; relative paths resolve against the server's working directory", "script not found: %s", program)
}

func (s *Session) launchConfig(spec LaunchSpec) adapter.LaunchConfig {
	exe, why := s.opts.ExecutablePath, ""
	if spec.ExecutablePath != "" {
		exe, why = spec.ExecutablePath, spec.ExecutableReason
	}
	return adapter.LaunchConfig{
		Program:           spec.Program,
		Args:              spec.Args,
		Cwd:               spec.Cwd,
		Env:               spec.Env,
		StopOnEntry:       spec.StopOnEntry,
		ExecutablePath:    exe,
		ExecutableReason:  why,
		Extra:             merge(s.opts.AdapterConfig, spec.DapLaunchArgs),
		Logger:            s.log,
		BreakOnExceptions: spec.BreakOnExceptions,
		PathMappings:      spec.PathMappings,
		StdinFile:         spec.StdinFile,
	}
}

// resolveStdin turns the spec's input into the file the program reads
// (StdinFile).
func (s *Session) resolveStdin(spec *LaunchSpec) error {
	file, err := s.StdinFile(spec.Stdin, spec.StdinFile)
	if err != nil {
		return err
	}
	spec.StdinFile, spec.Stdin = file, nil
	return nil
}

// StdinFile is the file a program given text (or a file) as its standard
// input reads: text is written to a file of the session's (removed when
// it closes), a file is checked to be a regular file one can read. ""
// when neither was given. Launches that are not start_debugging's (a test
// run, a recording) pass it on in their own requests.
func (s *Session) StdinFile(text *string, file string) (string, error) {
	switch {
	case text != nil && file != "":
		return "", errorf("pass stdin (the text) or stdinFile (a file), not both", "both stdin and stdinFile were given")
	case file != "":
		st, err := os.Stat(file)
		if err != nil {
			return "", errorf("pass the path of an existing file to stdinFile", "stdinFile: %v", err)
		}
		if !st.Mode().IsRegular() {
			return "", errorf("stdinFile must be a regular file; for a device or a pipe, copy what the program should read into a file", "stdinFile %s is not a regular file", file)
		}
		return file, nil
	case text == nil:
		return "", nil
	case len(*text) > maxStdinText:
		return "", errorf("put a large input in a file and pass stdinFile", "stdin is %d bytes; at most %d as text", len(*text), maxStdinText)
	}
	return s.inputs.write(*text)
}

// PlanLaunch returns what Start would run and send, starting nothing.
func (s *Session) PlanLaunch(ctx context.Context, spec LaunchSpec) (*adapter.Connection, error) {
	if err := s.checkProgram(spec); err != nil {
		return nil, err
	}
	cfg := s.launchConfig(spec)
	cfg.DryRun = true
	conn, err := s.adapter.Launch(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if conn.Transport != nil {
		conn.Transport.Close()
		if conn.Cleanup != nil {
			conn.Cleanup()
		}
		return nil, errorf("start without dryRunSpawn", "the %s adapter cannot do dry runs", s.Language.ID)
	}
	// As the reference server does: a session that only planned a launch
	// is stopped, and start_debugging may run it for real.
	s.mu.Lock()
	if s.state == StateCreated {
		s.setStateLocked(StateStopped, "dry run: nothing was started")
	}
	s.mu.Unlock()
	return conn, nil
}

// Attach connects to a running program.
func (s *Session) Attach(ctx context.Context, spec AttachSpec, wait WaitOptions) (*StartResult, error) {
	s.mu.Lock()
	if err := s.beginStartLocked(); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	s.spec = &startSpec{attach: &spec}
	s.mu.Unlock()
	cfg := adapter.AttachConfig{
		Host:              spec.Host,
		Port:              spec.Port,
		ProcessID:         spec.ProcessID,
		SourcePaths:       spec.SourcePaths,
		StopOnEntry:       spec.StopOnEntry,
		ExecutablePath:    s.opts.ExecutablePath,
		Extra:             merge(s.opts.AdapterConfig, spec.Extra),
		Logger:            s.log,
		BreakOnExceptions: spec.BreakOnExceptions,
		PathMappings:      spec.PathMappings,
	}
	if cfg.Host == "" {
		cfg.Host = s.opts.Host
	}
	if cfg.Port == 0 {
		cfg.Port = s.opts.Port
	}
	return s.connect(ctx, "attach", "", func(ctx context.Context) (*adapter.Connection, error) {
		// The agent's timeout bounds reaching the program too, not only
		// the wait for its stop: with nothing listening, an adapter would
		// otherwise go on retrying for as long as its own bound allows.
		if wait.Timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, wait.Timeout)
			defer cancel()
		}
		return s.adapter.Attach(ctx, cfg)
	}, spec.BreakOnExceptions, spec.StopOnEntry, wait)
}

// Restart ends the current program and starts it again the same way,
// re-applying every breakpoint.
func (s *Session) Restart(ctx context.Context, input RestartInput, wait WaitOptions) (*StartResult, error) {
	s.mu.Lock()
	spec, r := s.spec, s.r
	s.mu.Unlock()
	if spec == nil {
		return nil, errorf("call start_debugging first", "nothing to restart: the session has not started a program")
	}
	if spec.attach != nil {
		// Attaching again would not restart anything: the program was
		// started by someone else, and only they can start it anew.
		return nil, errorf("restart the program the way it was started, then attach_to_process again (detach_from_process first)",
			"cannot restart an attached program: this session attached to it and did not start it")
	}
	if r != nil {
		r.shutdown(true)
	}
	s.mu.Lock()
	s.setStateLocked(StateStopped, "restarting")
	s.exitCode = nil
	s.mu.Unlock()
	s.out.Reset()
	launch := *spec.launch
	if input.Stdin != nil || input.StdinFile != "" {
		launch.Stdin, launch.StdinFile = input.Stdin, input.StdinFile
	}
	return s.Start(ctx, launch, wait)
}

// RestartInput is the standard input a restart gives the program instead
// of the previous launch's; none keeps that one.
type RestartInput struct {
	Stdin     *string
	StdinFile string
}

func merge(base, over map[string]any) map[string]any {
	if len(base) == 0 && len(over) == 0 {
		return nil
	}
	out := maps.Clone(base)
	if out == nil {
		out = map[string]any{}
	}
	maps.Copy(out, over)
	return out
}

// connect starts the adapter and runs the DAP handshake in the order every
// real adapter tolerates: initialize; launch/attach sent without waiting
// for its answer (Delve only sends initialized after it, lldb-dap and
// debugpy only answer it after configurationDone); wait for initialized or
// a failed launch; breakpoints, exception filters, configurationDone; then
// the launch answer. mark is the launched program's proc.MarkVar value
// ("" for an attach): the run's cleanup ends every process carrying it.
// docs/adapter-quirks.md: delve-2, delve-5, lldb-1, debugpy-7.
func (s *Session) connect(ctx context.Context, kind, mark string, start func(context.Context) (*adapter.Connection, error), breakOn string, stopOnEntry bool, wait WaitOptions) (*StartResult, error) {
	s.mu.Lock()
	s.setStateLocked(StateInitializing, kind)
	s.exitCode = nil
	s.signal = ""
	s.endUnseen = false
	s.stop = nil
	// A new run: its first stops have nothing to compare with.
	s.lastValues, s.shownLocals = nil, nil
	since := s.gen
	launchOutput := s.out.Cursor()
	// Nor is earlier output this run's: what a recorded run or an ended
	// one printed stays readable with get_output, but an answer of this
	// run shows only what this run printed.
	s.snapCursor = max(s.snapCursor, launchOutput)
	mappings := s.spec.pathMappings()
	var built *builtElsewhere
	if s.spec != nil {
		built = s.spec.built
	}
	s.mu.Unlock()

	fail := func(err error) (*StartResult, error) {
		s.mu.Lock()
		s.setStateLocked(StateError, err.Error())
		s.mu.Unlock()
		return nil, err
	}

	conn, err := start(ctx)
	if err != nil {
		var ue *adapter.UnavailableError
		if errors.As(err, &ue) {
			s.mu.Lock()
			s.setStateLocked(StateCreated, "adapter unavailable")
			s.mu.Unlock()
			return nil, &Error{Msg: err.Error(), Hint: "install it, then call start_debugging again: " + ue.InstallHint, Err: err}
		}
		var be *adapter.BuildError
		if errors.As(err, &be) {
			return fail(&Error{Msg: err.Error(), Hint: "fix the program and call start_debugging again", Err: err})
		}
		return fail(&Error{Msg: fmt.Sprintf("could not start the %s debug adapter: %v", s.Language.ID, err), Hint: "run `mcp-debugger doctor` to check the adapter", Err: err})
	}
	timeout := conn.LaunchTimeout
	if timeout <= 0 {
		timeout = DefaultHandshakeTimeout
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	r := &connection{s: s, conn: conn, mark: mark, initialized: make(chan struct{}), done: make(chan struct{})}
	transport := conn.Transport
	if r.paths = newPathMap(mappings); r.paths != nil && !conn.MapsPaths {
		transport = newMappedTransport(transport, r.paths)
	}
	r.client = dapc.NewClient(transport, dapc.Options{Logger: s.log, Reverse: r.reverse, AfterRead: conn.AfterRead})
	s.mu.Lock()
	s.r = r
	s.mu.Unlock()
	go s.eventLoop(r)
	// Output the adapter reads from pipes rather than sending as events;
	// each copier ends when the adapter closes its stream (Cleanup).
	for _, o := range conn.Output {
		go copyOutput(o.Reader, s.out, o.Category)
	}

	abort := func(err error) (*StartResult, error) {
		r.shutdown(true)
		text := s.outputSince(launchOutput)
		if explained := explainedFailure(conn, err, text); explained != nil {
			return fail(explained)
		}
		if text != "" && !strings.Contains(err.Error(), strings.TrimSpace(text)) {
			err = &Error{Msg: fmt.Sprintf("%v\nadapter output:\n%s", err, text), Hint: hintOf(err), Err: err}
		}
		return fail(err)
	}

	initArgs := map[string]any{
		"clientID": "mcp-debugger", "clientName": "mcp-debugger", "adapterID": conn.AdapterID,
		"locale": "en-US", "pathFormat": "path", "linesStartAt1": true, "columnsStartAt1": true,
		"supportsVariableType": true, "supportsVariablePaging": true, "supportsRunInTerminalRequest": true,
		"supportsMemoryReferences": true, "supportsStartDebuggingRequest": conn.Reverse != nil,
	}
	if err := r.client.Call(hctx, "initialize", initArgs, &r.caps); err != nil {
		return abort(fmt.Errorf("initialize: %w", err))
	}
	pending, err := r.client.Send(conn.Request, conn.Arguments)
	if err != nil {
		return abort(err)
	}
	launchDone := make(chan error, 1)
	go func() { launchDone <- pending.Wait(hctx, nil) }()

	var launchErr error
	launchAnswered := false
	select {
	case <-r.initialized:
	case launchErr = <-launchDone:
		launchAnswered = true
		if launchErr == nil {
			select {
			case <-r.initialized:
			case <-r.done:
				return abort(s.endedError(r, kind))
			case <-hctx.Done():
				return abort(fmt.Errorf("%s: the debug adapter never sent initialized: %w", kind, hctx.Err()))
			}
		}
	case <-r.done:
		return abort(s.endedError(r, kind))
	case <-hctx.Done():
		return abort(fmt.Errorf("%s: the debug adapter never sent initialized: %w", kind, hctx.Err()))
	}
	if launchErr != nil {
		return abort(launchFailure(kind, launchErr))
	}

	applied, err := s.configure(hctx, r, breakOn)
	if err != nil {
		return abort(err)
	}
	s.mu.Lock()
	s.explainUnbound(built)
	s.mu.Unlock()
	if !launchAnswered {
		if err := <-launchDone; err != nil {
			return abort(launchFailure(kind, err))
		}
	}
	r.watchLaunchedDebuggee()
	s.mu.Lock()
	if s.state == StateInitializing && s.r == r {
		s.setStateLocked(StateRunning, kind+"ed")
	}
	s.mu.Unlock()
	if kind == "attach" && stopOnEntry && conn.Quirks.PauseAfterAttach {
		if err := r.call(hctx, "pause", map[string]any{"threadId": s.anyThread(hctx, r)}, nil); err != nil {
			return abort(fmt.Errorf("pause after attaching: %w", err))
		}
	}

	res := &StartResult{Arguments: conn.Arguments, BreakpointsApplied: applied, Runtime: conn.Runtime}
	if !wait.Wait && !stopOnEntry {
		res.Snapshot = s.snapshotNow(ctx)
		res.Snapshot.PathNote = built.note()
		return res, nil
	}
	snap, err := s.waitSnapshot(ctx, since, wait.timeout())
	if err != nil {
		return nil, err
	}
	snap.PathNote = built.note()
	res.Snapshot = snap
	return res, nil
}

func hintOf(err error) string {
	var se *Error
	if errors.As(err, &se) {
		return se.Hint
	}
	return ""
}

func launchFailure(kind string, err error) error {
	var re *dapc.ResponseError
	if errors.As(err, &re) {
		return &Error{Msg: fmt.Sprintf("the debug adapter refused to %s: %s", kind, re.Text()), Hint: "check scriptPath, args and dapLaunchArgs; get_output shows what the adapter printed", Err: err}
	}
	return err
}

// explainedFailure is the adapter's own explanation (conn.ExplainFailure)
// of its refusal err of the launch or attach, given the output it printed
// meanwhile; nil when it has none.
func explainedFailure(conn *adapter.Connection, err error, output string) error {
	var re *dapc.ResponseError
	if conn.ExplainFailure == nil || !errors.As(err, &re) {
		return nil
	}
	if msg, hint, ok := conn.ExplainFailure(re.Text() + "\n" + output); ok {
		return &Error{Msg: msg, Hint: hint, Err: err}
	}
	return nil
}

// endedError explains a connection that ended during the handshake.
func (s *Session) endedError(r *connection, kind string) error {
	return &Error{
		Msg:  fmt.Sprintf("the debug adapter exited during %s: %v", kind, r.client.Err()),
		Hint: "run `mcp-debugger doctor`; get_output shows what the adapter printed",
	}
}

// outputSince joins the output recorded after cursor.
func (s *Session) outputSince(cursor uint64) string {
	var b strings.Builder
	for _, e := range s.out.Since(cursor, 200).Entries {
		b.WriteString(e.Output)
	}
	return strings.TrimRight(b.String(), "\n")
}

// configure sends every breakpoint and the exception filters, pipelined,
// then configurationDone.
func (s *Session) configure(ctx context.Context, r *connection, breakOn string) (int, error) {
	type sent struct {
		p      *dapc.Pending
		apply  func(answer []dap.Breakpoint)
		refuse func(err error)
	}
	var reqs []sent
	s.mu.Lock()
	applied := 0
	lines := s.bps.lines()
	for _, file := range s.bps.sortedFiles() {
		bps := s.bps.files[file]
		p, err := r.client.Send("setBreakpoints", setBreakpointsArgs(file, bps, r.logpointTraces(), r.emulatesLogpoints()))
		if err != nil {
			s.mu.Unlock()
			return 0, err
		}
		applied += agentLines(bps)
		reqs = append(reqs, sent{p, func(a []dap.Breakpoint) { applyLines(bps, a) }, func(err error) { refuseLines(bps, err) }})
	}
	if fbs := s.bps.functions; len(fbs) > 0 && r.caps.SupportsFunctionBreakpoints && r.conn.Quirks.Supports("setFunctionBreakpoints") {
		p, err := r.client.Send("setFunctionBreakpoints", map[string]any{"breakpoints": functionBreakpoints(fbs, r.conn.Quirks)})
		if err != nil {
			s.mu.Unlock()
			return 0, err
		}
		applied += agentFunctions(fbs)
		reqs = append(reqs, sent{p, func(a []dap.Breakpoint) { applyFunctions(fbs, a) }, func(err error) { refuseFunctions(fbs, err) }})
	}
	s.mu.Unlock()

	filters := exceptionFilters(breakOn, r.caps.ExceptionBreakpointFilters)
	var exc *dapc.Pending
	if len(r.caps.ExceptionBreakpointFilters) > 0 {
		var err error
		if exc, err = r.client.Send("setExceptionBreakpoints", map[string]any{"filters": filters}); err != nil {
			return 0, err
		}
	}
	for _, q := range reqs {
		var body dap.SetBreakpointsResponseBody
		err := q.p.Wait(ctx, &body)
		s.mu.Lock()
		if err != nil {
			// The program starts anyway; the breakpoints say why they are
			// not in place (start_debugging's warning lists them).
			s.log.Warn("setting breakpoints", "err", err)
			q.refuse(err)
		} else {
			q.apply(body.Breakpoints)
		}
		s.mu.Unlock()
	}
	s.countLocations(ctx, r, lines)
	if exc != nil {
		if err := exc.Wait(ctx, nil); err != nil {
			s.log.Warn("setting exception filters", "err", err)
		}
	}
	if r.caps.SupportsConfigurationDoneRequest {
		if err := r.client.Call(ctx, "configurationDone", nil, nil); err != nil {
			// An adapter may answer it only once the program has begun,
			// and refuse it when the program could not (the JVM's own
			// launcher failing to load the main class).
			return 0, launchFailure("start the program", err)
		}
	}
	return applied, nil
}

// setBreakpointsArgs is a file's setBreakpoints request; logpoints, when
// set, sends tracepoints as logpoints (see tracepoint.go). s.mu is held.
func setBreakpointsArgs(file string, bps []*Breakpoint, logpoints logpointForm, emulatedLogpoints bool) map[string]any {
	return map[string]any{
		"source":         map[string]any{"path": file},
		"breakpoints":    sourceBreakpoints(bps, logpoints, emulatedLogpoints),
		"lines":          linesOf(bps),
		"sourceModified": false,
	}
}

func linesOf(bps []*Breakpoint) []int {
	out := make([]int, len(bps))
	for i, bp := range bps {
		out[i] = bp.sendLine
	}
	return out
}

// exceptionFilters maps our three modes onto the filters an adapter offers.
func exceptionFilters(mode string, offered []dap.ExceptionBreakpointsFilter) []string {
	has := func(pred func(id string) bool) []string {
		var ids []string
		for _, f := range offered {
			if pred(strings.ToLower(f.Filter)) {
				ids = append(ids, f.Filter)
			}
		}
		return ids
	}
	uncaught := has(func(id string) bool {
		return strings.Contains(id, "uncaught") || id == "unhandled" || id == "panic"
	})
	switch mode {
	case BreakNone:
		return []string{}
	case BreakUserUnhandled:
		return append(has(func(id string) bool { return id == "userunhandled" }), uncaught...)
	case BreakAll:
		all := has(func(id string) bool {
			return id == "all" || id == "raised" || id == "any" || strings.Contains(id, "throw") || strings.Contains(id, "uncaught") || id == "panic"
		})
		if len(all) > 0 {
			return all
		}
	}
	if len(uncaught) > 0 {
		return uncaught
	}
	defaults := []string{}
	for _, f := range offered {
		if f.Default {
			defaults = append(defaults, f.Filter)
		}
	}
	return defaults
}

// reverse answers the adapter's reverse requests: runInTerminal is served
// here (we spawn the program, in its own process group, and capture its
// output); anything else goes to the adapter package.
func (r *connection) reverse(ctx context.Context, req dapc.ReverseRequest) (any, error) {
	if req.Command != "runInTerminal" {
		if r.conn.Reverse != nil {
			return r.conn.Reverse(ctx, req)
		}
		return nil, fmt.Errorf("%s is not supported", req.Command)
	}
	var args dap.RunInTerminalRequestArguments
	if err := json.Unmarshal(req.Arguments, &args); err != nil {
		return nil, fmt.Errorf("runInTerminal arguments: %w", err)
	}
	if len(args.Args) == 0 {
		return nil, errors.New("runInTerminal without a command")
	}
	cmd := exec.Command(args.Args[0], args.Args[1:]...)
	cmd.Dir = args.Cwd
	cmd.Env = os.Environ()
	for k, v := range args.Env {
		if s, ok := v.(string); ok {
			cmd.Env = append(cmd.Env, k+"="+s)
		}
	}
	stdout, stderr, err := proc.OutputPipes(cmd)
	if err != nil {
		return nil, err
	}
	p, err := proc.Start(cmd)
	if err != nil {
		stdout.Close()
		stderr.Close()
		return nil, fmt.Errorf("runInTerminal: %w", err)
	}
	r.mu.Lock()
	r.terminals = append(r.terminals, p)
	r.mu.Unlock()
	go copyOutput(stdout, r.s.out, "stdout")
	go copyOutput(stderr, r.s.out, "stderr")
	return map[string]any{"processId": p.Pid()}, nil
}
