package server

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type startArgs struct {
	SessionID  string   `json:"sessionId,omitempty"`
	ScriptPath string   `json:"scriptPath,omitempty" jsonschema:"the program (absolute or relative to the server's cwd); Java: also .class, .jar, main class"`
	Args       []string `json:"args,omitempty" jsonschema:"the program's arguments"`
	Cwd        string   `json:"cwd,omitempty" jsonschema:"working directory (default: the script's)"`
	Env        EnvVars  `json:"env,omitempty" jsonschema:"environment variables to add, as KEY=VALUE"`
	inputArgs
	StopOnEntry         *bool        `json:"stopOnEntry,omitempty" jsonschema:"pause at the program's first line"`
	BreakOnExceptions   string       `json:"breakOnExceptions,omitempty" jsonschema:"uncaught (default), all, or none"`
	DapLaunchArgs       JSONObject   `json:"dapLaunchArgs,omitempty" jsonschema:"a JSON object of fields for the adapter's launch request, e.g. {\"justMyCode\": false} (Java: mainClass, classPaths, vmArgs)"`
	AdapterLaunchConfig JSONObject   `json:"adapterLaunchConfig,omitempty" jsonschema:"as dapLaunchArgs"`
	DryRunSpawn         bool         `json:"dryRunSpawn,omitempty" jsonschema:"start nothing: return the adapter command and launch request"`
	WaitForStop         *bool        `json:"waitForStop,omitempty" jsonschema:"answer with the first stop or the end (default true)"`
	Timeout             Int          `json:"timeout,omitempty" jsonschema:"ms to wait for the first stop (default 30000)"`
	PathMappings        pathMappings `json:"pathMappings,omitempty" jsonschema:"roots your copy and the program name differently"`
	StopAt              *stopAtArgs  `json:"stopAt,omitempty" jsonschema:"run the recording's program again to this event"`
	lookArgs
	shapeArgs
}

// dryRunNote is data.message of a dry run. Its first sentence is the
// reference's, which its clients (and its own tests) look for; there is no
// proxy here, as the rest says.
const dryRunNote = "Dry run spawn command logged by proxy. (The reference's words, kept for its clients: here the server logs the command, and data.adapterCommand has it.)"

type runData struct {
	Reason                string            `json:"reason,omitempty"`
	StopOnEntrySuccessful *bool             `json:"stopOnEntrySuccessful,omitempty"`
	BreakpointsReapplied  *int              `json:"breakpointsReapplied,omitempty"`
	StopReason            string            `json:"stopReason,omitempty"`
	Location              *session.Location `json:"location,omitempty"`
	AttachConfig          map[string]any    `json:"attachConfig,omitempty"`
	LaunchRequest         map[string]any    `json:"launchRequest,omitempty"`
	AdapterCommand        []string          `json:"adapterCommand,omitempty"`
	// DryRun: nothing was started (dryRunSpawn).
	DryRun bool `json:"dryRun,omitempty"`
	// Message is the dry run's note in the reference's words, which its
	// clients match.
	Message string `json:"message,omitempty"`
	// Runtime names the interpreter or runtime that runs the program and
	// why it was chosen.
	Runtime string `json:"runtime,omitempty"`
	// OutputReset: the output of earlier runs was cleared (restart), and
	// get_output from 0 reads this run's.
	OutputReset bool `json:"outputReset,omitempty"`
	// StopAt: the recorded event the run went to (stopAt).
	StopAt *stopAtNote `json:"stopAt,omitempty"`
}

// runResult is the answer of every run-control tool: a message and the
// stop snapshot (state, where, why, locals, new output, exit code).
type runResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	// SessionID is the session start_debugging {language} created, and
	// ReconnectKey the key that takes it back after a reconnect (HTTP), as
	// create_debug_session gives.
	SessionID    string `json:"sessionId,omitempty"`
	ReconnectKey string `json:"reconnectKey,omitempty"`
	session.Snapshot
	// Trace holds the values start_debugging's print probes recorded.
	Trace   []traceTable `json:"trace,omitempty"`
	Data    *runData     `json:"data,omitempty"`
	Warning string       `json:"warning,omitempty"`
	Budget  *budgetNote  `json:"budget,omitempty"`
}

// shapeArgs are the answer-shaping arguments of every tool that returns a
// stop snapshot. The instructions describe them once, for all those tools.
type shapeArgs struct {
	ChangesOnly bool `json:"changesOnly,omitempty" jsonschema:"only the locals that changed"`
	MaxBytes    Int  `json:"maxBytes,omitempty" jsonschema:"answer size cap (default 8000)"`
}

// shape applies changesOnly and the byte budget.
func (res *runResult) shape(a shapeArgs) *runResult {
	if a.ChangesOnly {
		onlyChanges(&res.Snapshot)
	}
	res.fit(budgetOf(a.MaxBytes))
	return res
}

type attachArgs struct {
	SessionID         string       `json:"sessionId"`
	Host              string       `json:"host,omitempty" jsonschema:"the debug server's host (default 127.0.0.1)"`
	Port              Int          `json:"port,omitempty" jsonschema:"the debug server's port"`
	ProcessID         Int          `json:"processId,omitempty" jsonschema:"a local process to attach to, where the adapter can"`
	Timeout           Int          `json:"timeout,omitempty" jsonschema:"ms to wait (default 30000)"`
	SourcePaths       []string     `json:"sourcePaths,omitempty" jsonschema:"source roots of the remote program"`
	StopOnEntry       *bool        `json:"stopOnEntry,omitempty" jsonschema:"pause once attached (default true, unless waitForStop is given)"`
	JustMyCode        *bool        `json:"justMyCode,omitempty" jsonschema:"skip library code when stepping"`
	BreakOnExceptions string       `json:"breakOnExceptions,omitempty" jsonschema:"uncaught (default), all, or none"`
	AdapterConfig     JSONObject   `json:"adapterConfig,omitempty" jsonschema:"a JSON object of fields for the adapter's attach request"`
	WaitForStop       *bool        `json:"waitForStop,omitempty" jsonschema:"true: run on and wait for the first stop; false: run on and return"`
	PathMappings      pathMappings `json:"pathMappings,omitempty" jsonschema:"roots your copy and the program name differently"`
}

// pathMappings is the pathMappings argument of start_debugging and
// attach_to_process.
type pathMappings []session.PathMapping

// resolve checks the pairs and makes each localRoot absolute, as other
// paths are, against the server's working directory.
func (p pathMappings) resolve(s *Server) ([]session.PathMapping, error) {
	if err := session.CheckPathMappings(p); err != nil {
		return nil, userError("pass pathMappings as [{localRoot: \"/home/me/proj\", remoteRoot: \"/app\"}]: localRoot is your copy, remoteRoot the same files as the program sees them", "%v", err)
	}
	var out []session.PathMapping
	for _, m := range p {
		out = append(out, session.PathMapping{LocalRoot: s.absPath(m.LocalRoot), RemoteRoot: m.RemoteRoot})
	}
	return out, nil
}

type detachArgs struct {
	SessionID        string `json:"sessionId"`
	TerminateProcess bool   `json:"terminateProcess,omitempty" jsonschema:"also end the program (default: leave it running)"`
}

type stateResult struct {
	Success bool   `json:"success"`
	State   string `json:"state"`
	Message string `json:"message"`
}

type runControlArgs struct {
	SessionID   string `json:"sessionId"`
	ThreadID    Int    `json:"threadId,omitempty" jsonschema:"default: the thread that stopped"`
	WaitForStop *bool  `json:"waitForStop,omitempty" jsonschema:"return the next stop's snapshot (default true)"`
	Timeout     Int    `json:"timeout,omitempty" jsonschema:"ms to wait for the stop (default 30000)"`
	shapeArgs
}

type waitArgs struct {
	SessionID string `json:"sessionId"`
	Timeout   Int    `json:"timeout,omitempty" jsonschema:"ms to wait (default 30000)"`
	shapeArgs
}

func (s *Server) addRunTools() {
	addTool(s, "start_debugging",
		"Launch the program under the debugger; answers with its first stop (breakpoint, exception, entry) or end. With language and probes, one call looks at a running program instead of adding a print.",
		s.startDebugging)
	addTool(s, "restart_debugging",
		"End the program and start it again the same way, breakpoints kept. Returns the first stop's snapshot.",
		s.restartDebugging)
	addTool(s, "attach_to_process",
		"Attach to a running program: a debug server at host:port (e.g. python -m debugpy --listen 5678), or a local processId where the adapter can.",
		s.attachToProcess)
	addTool(s, "detach_from_process",
		"Detach from the program; it keeps running unless terminateProcess.",
		s.detachFromProcess)
	for _, rc := range []struct{ name, kind, desc string }{
		{"step_over", session.StepOver, "Run the current line, stepping over calls, and return the snapshot of where it stops."},
		{"step_into", session.StepInto, "Step into the call on the current line and return the snapshot of where it stops."},
		{"step_out", session.StepOut, "Run until the current function returns and return the snapshot of where it stops."},
		{"continue_execution", session.Continue, "Continue to the next breakpoint, exception or the end, and return that stop's snapshot (waits up to timeout; waitForStop:false returns at once)."},
	} {
		addTool(s, rc.name, rc.desc, func(ctx context.Context, a *runControlArgs) (*runResult, error) {
			return s.resume(ctx, rc.kind, a)
		})
	}
	addTool(s, "pause_execution",
		"Pause the running program and return the snapshot of where it stopped.",
		s.pauseExecution)
	addTool(s, "wait_for_stop",
		"Wait until the running program stops or ends (up to timeout) and return the snapshot; at once if it is already paused or ended.",
		s.waitForStop)
}

func waitOpts(wait *bool, timeout Int) session.WaitOptions {
	return session.WaitOptions{Wait: wait == nil || *wait, Timeout: millis(timeout)}
}

func (s *Server) startDebugging(ctx context.Context, a *startArgs) (*runResult, error) {
	lk, err := s.openLook(ctx, a)
	if err != nil {
		return nil, err
	}
	res, err := s.launch(ctx, a)
	return lk.finish(ctx, res, err)
}

// launch is start_debugging once its session and probes are set.
func (s *Server) launch(ctx context.Context, a *startArgs) (*runResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.ScriptPath == "" && a.StopAt == nil && sess.ProgramInLaunchArgs(a.AdapterLaunchConfig, a.DapLaunchArgs) == "" {
		return nil, userError("pass scriptPath, the program to debug (or name it in dapLaunchArgs: a Python module, a Java mainClass)", "scriptPath is required")
	}
	breakOn, err := breakMode(a.BreakOnExceptions)
	if err != nil {
		return nil, err
	}
	mappings, err := a.PathMappings.resolve(s)
	if err != nil {
		return nil, err
	}
	extra := map[string]any{}
	maps.Copy(extra, a.AdapterLaunchConfig)
	maps.Copy(extra, a.DapLaunchArgs)
	stopOnEntry := false
	if v, ok := extra["stopOnEntry"].(bool); ok {
		stopOnEntry = v
	}
	if a.StopOnEntry != nil {
		stopOnEntry = *a.StopOnEntry
	}
	delete(extra, "stopOnEntry")
	spec := session.LaunchSpec{
		Program:           s.programPath(a.ScriptPath),
		Args:              a.Args,
		Env:               a.Env,
		StopOnEntry:       stopOnEntry,
		BreakOnExceptions: breakOn,
		DapLaunchArgs:     extra,
		PathMappings:      mappings,
		Stdin:             a.Stdin,
		StdinFile:         s.stdinFilePath(a.StdinFile),
	}
	if a.Cwd != "" {
		spec.Cwd = s.absPath(a.Cwd)
	}
	if a.StopAt != nil {
		return s.startAt(ctx, sess, a, spec)
	}
	if a.DryRunSpawn {
		plan, err := sess.PlanLaunch(ctx, spec)
		if err != nil {
			return nil, err
		}
		s.log.Info("dry run: the adapter command that would start", "session", sess.ID, "command", plan.Command)
		return &runResult{
			Success:  true,
			Message:  "Dry run: nothing was started. data shows the adapter command and the launch request.",
			Snapshot: session.Snapshot{State: sess.State()},
			Data: &runData{DryRun: true, AdapterCommand: plan.Command, LaunchRequest: plan.Arguments, Runtime: plan.Runtime,
				Message: dryRunNote},
		}, nil
	}
	started, err := sess.Start(ctx, spec, waitOpts(a.WaitForStop, a.Timeout))
	if err != nil {
		return nil, err
	}
	res := runResultOf(started.Snapshot, "Started "+filepath.Base(spec.Program)+".")
	res.sayDeadlock(ctx, sess)
	res.Data = &runData{Reason: res.StopReason, Runtime: started.Runtime}
	if stopOnEntry {
		ok := res.StopReason == "entry" || res.StopReason == "step" || (res.State == session.StatePaused && res.StopReason != "exception")
		res.Data.StopOnEntrySuccessful = &ok
	}
	res.Warning = unverifiedWarning(sess)
	return res.shape(a.shapeArgs), nil
}

// unverifiedWarning names the breakpoints the adapter has not bound once
// the program is launched (or relaunched).
func unverifiedWarning(sess *session.Session) string {
	lines, funcs := sess.Breakpoints("")
	var bad []string
	for _, bp := range lines {
		if !bp.Verified {
			note := fmt.Sprintf("%s:%d", filepath.Base(bp.File), bp.Line)
			if bp.Message != "" {
				note += " (" + bp.Message + ")"
			}
			bad = append(bad, note)
		}
	}
	for _, fb := range funcs {
		if !fb.Verified {
			note := fb.FunctionName + "()"
			if fb.Message != "" {
				note += " (" + fb.Message + ")"
			}
			bad = append(bad, note)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	return "breakpoints not bound at launch: " + strings.Join(bad, ", ")
}

func breakMode(v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", session.BreakUncaught:
		return session.BreakUncaught, nil
	case session.BreakAll, "raised":
		return session.BreakAll, nil
	case session.BreakNone, "never", "off":
		return session.BreakNone, nil
	}
	return "", userError("use uncaught, all or none", "breakOnExceptions %q is not one of uncaught, all, none", v)
}

// restartArgs are a run-control tool's, and the input that replaces the
// previous launch's.
type restartArgs struct {
	runControlArgs
	inputArgs
}

// inputArgs are the program's standard input, for the tools that launch
// one (a restart without them reads the last launch's again).
type inputArgs struct {
	Stdin     *string `json:"stdin,omitempty" jsonschema:"text to read as stdin"`
	StdinFile string  `json:"stdinFile,omitempty" jsonschema:"a file to read as stdin"`
}

// inputFile is the file in gives sess's program as its standard input
// (text is written to a file of the session's), "" for none.
func (s *Server) inputFile(sess *session.Session, in inputArgs) (string, error) {
	return sess.StdinFile(in.Stdin, s.stdinFilePath(in.StdinFile))
}

func (s *Server) restartDebugging(ctx context.Context, a *restartArgs) (*runResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	input := session.RestartInput{Stdin: a.Stdin, StdinFile: s.stdinFilePath(a.StdinFile)}
	started, err := sess.Restart(ctx, input, waitOpts(a.WaitForStop, a.Timeout))
	if err != nil {
		return nil, err
	}
	res := runResultOf(started.Snapshot, "Restarted.")
	n := started.BreakpointsApplied
	res.Data = &runData{Reason: res.StopReason, BreakpointsReapplied: &n, OutputReset: true, Runtime: started.Runtime}
	res.Warning = unverifiedWarning(sess)
	return res.shape(a.shapeArgs), nil
}

func (s *Server) attachToProcess(ctx context.Context, a *attachArgs) (*runResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.Port <= 0 && a.ProcessID <= 0 {
		return nil, userError("pass port (and host) of the program's debug server, or processId", "attach_to_process needs a port or a processId")
	}
	breakOn, err := breakMode(a.BreakOnExceptions)
	if err != nil {
		return nil, err
	}
	mappings, err := a.PathMappings.resolve(s)
	if err != nil {
		return nil, err
	}
	extra := maps.Clone(a.AdapterConfig)
	if a.JustMyCode != nil {
		if extra == nil {
			extra = map[string]any{}
		}
		extra["justMyCode"] = *a.JustMyCode
	}
	host := a.Host
	if host == "" && a.Port > 0 {
		host = "127.0.0.1"
	}
	var sourcePaths []string
	for _, p := range a.SourcePaths {
		sourcePaths = append(sourcePaths, s.absPath(p))
	}
	// Paused after attaching, unless told otherwise: the agent sets
	// breakpoints and looks around before the program goes on (what the
	// reference does, and its clients expect).
	stopOnEntry := a.WaitForStop == nil
	if a.StopOnEntry != nil {
		stopOnEntry = *a.StopOnEntry
	}
	waitForStop := a.WaitForStop != nil && *a.WaitForStop
	started, err := sess.Attach(ctx, session.AttachSpec{
		Host: host, Port: int(a.Port), ProcessID: int(a.ProcessID), SourcePaths: sourcePaths,
		StopOnEntry: stopOnEntry, BreakOnExceptions: breakOn, Extra: extra, PathMappings: mappings,
	}, session.WaitOptions{Wait: waitForStop, Timeout: millis(a.Timeout)})
	if err != nil {
		return nil, err
	}
	target := fmt.Sprintf("%s:%d", host, a.Port)
	if a.ProcessID > 0 {
		target = fmt.Sprintf("process %d", a.ProcessID)
	}
	res := runResultOf(started.Snapshot, "Attached to "+target+".")
	res.Data = &runData{AttachConfig: started.Arguments}
	res.Warning = sess.UnmappedNote(ctx, "")
	return res, nil
}

func (s *Server) detachFromProcess(_ context.Context, a *detachArgs) (*stateResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	terminated, err := sess.Detach(a.TerminateProcess)
	if err != nil {
		return nil, err
	}
	msg := "Detached; the program keeps running."
	switch {
	case terminated && !a.TerminateProcess:
		msg = "Detached and ended the program: this session launched it, and a session leaves no process behind. To leave a program running, start it yourself and attach_to_process."
	case terminated:
		msg = "Detached and terminated the program."
	}
	return &stateResult{Success: true, State: string(sess.State()), Message: msg}, nil
}

func (s *Server) resume(ctx context.Context, kind string, a *runControlArgs) (*runResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	snap, err := sess.Resume(ctx, kind, int(a.ThreadID), waitOpts(a.WaitForStop, a.Timeout))
	if err != nil {
		return nil, err
	}
	res := runResultOf(snap, "")
	res.sayDeadlock(ctx, sess)
	return res.shape(a.shapeArgs), nil
}

func (s *Server) pauseExecution(ctx context.Context, a *runControlArgs) (*runResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	snap, err := sess.Pause(ctx, int(a.ThreadID), waitOpts(a.WaitForStop, a.Timeout))
	if err != nil {
		return nil, err
	}
	res := runResultOf(snap, "")
	res.Data = &runData{StopReason: snap.StopReason, Location: snap.Location}
	switch {
	case snap.State == session.StatePaused:
		res.Message = strings.TrimSpace(res.Message + " " + pausedThreads(ctx, sess))
	case snap.TimedOut:
		res.Message = pauseNotTaken(sess)
	}
	return res.shape(a.shapeArgs), nil
}

func (s *Server) waitForStop(ctx context.Context, a *waitArgs) (*runResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	snap, err := sess.WaitForStop(ctx, millis(a.Timeout))
	if err != nil {
		return nil, err
	}
	return runResultOf(snap, "").shape(a.shapeArgs), nil
}

// runResultOf wraps a snapshot with a one-line summary an agent can act on.
func runResultOf(snap *session.Snapshot, prefix string) *runResult {
	return &runResult{Success: true, Message: strings.TrimSpace(prefix + " " + describe(snap)), Snapshot: *snap}
}

func describe(snap *session.Snapshot) string {
	switch snap.State {
	case session.StatePaused:
		// Where and why are the answer's location and stopReason; the
		// message repeats neither, but names an exception.
		why := ""
		if ex := snap.Exception; ex != nil {
			why = " (exception " + session.JoinDistinct(ex.ExceptionID, ex.Description, ex.Message) + ")"
		}
		if snap.Location == nil {
			return "Paused at an unknown location" + why + "."
		}
		return "Paused" + why + "."
	case session.StateRunning:
		if snap.TimedOut {
			return "Still running when the wait timed out; call wait_for_stop to keep waiting or pause_execution to stop it."
		}
		return "Running."
	case session.StateStopped:
		if snap.Signal != "" {
			return "The program was killed by " + snap.Signal + "."
		}
		if snap.ExitCode != nil {
			return fmt.Sprintf("The program exited with code %d.", *snap.ExitCode)
		}
		return "The program has ended (" + snap.StateReason + ")."
	case session.StateError:
		return "The session failed: " + snap.StateReason + "."
	}
	return "State: " + string(snap.State) + "."
}

// joinWarnings joins the non-empty warnings of one answer.
func joinWarnings(warnings ...string) string {
	return strings.Join(slices.DeleteFunc(warnings, func(w string) bool { return w == "" }), "; ")
}
