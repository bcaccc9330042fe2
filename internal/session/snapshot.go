package session

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// Stop is one stop of the program and what was fetched for it.
type Stop struct {
	Reason string
	// RawReason is the adapter's own reason when Reason says it otherwise
	// (a quirk's correction, or a hit of function breakpoints only).
	RawReason         string
	Description       string
	Text              string
	ThreadID          int
	AllThreadsStopped bool
	HitBreakpointIDs  []int
	Time              time.Time

	ready chan struct{} // closed when the prefetch is done

	noExceptionInfo bool // the adapter's exceptionInfo would not match Reason

	frames     []dap.StackFrame
	top        int  // index in frames of the frame the snapshot shows
	depth      int  // frames on the stack, as far as the adapter tells
	depthKnown bool // depth is the count, not a guess (see stopKey)
	framesErr  error
	scopes     []dap.Scope
	localsRef  int
	localsName string
	locals     []dap.Variable
	localsErr  error
	exception  *ExceptionInfo

	watches    []WatchValue
	rawMu      sync.Mutex
	rawWatches map[int]string // whole watch values by index, for changes
	changed    []Change       // against the previous stop in the same frame
	added      []string       // locals and watches that stop did not have
	compared   bool           // there was such a stop
	partial    bool           // only the stack was fetched (run.stackOnly)

	// countedMu guards counted: the stack depths counted for pages of
	// get_stack_trace, by thread, so that only a stop's first page pays.
	countedMu sync.Mutex
	counted   map[int]int
}

// prefetchFrames is how many frames are fetched at stop time: enough for a
// snapshot and most get_stack_trace calls, cheap for every adapter.
const prefetchFrames = 20

// prefetchTimeout bounds the work done for one stop.
const prefetchTimeout = 10 * time.Second

// prefetch fetches the stack, the top frame's locals and the exception of a
// stop while the agent has not yet asked for them. Owned by the stop; it
// ends within prefetchTimeout.
func (s *Session) prefetch(r *connection, st *Stop) {
	defer close(st.ready)
	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	defer cancel()
	var wg sync.WaitGroup
	if st.Reason == "exception" && !st.noExceptionInfo && r.caps.SupportsExceptionInfoRequest && r.conn.Quirks.Supports("exceptionInfo") {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var body dap.ExceptionInfoResponseBody
			if err := r.call(ctx, "exceptionInfo", map[string]any{"threadId": st.ThreadID}, &body); err == nil {
				st.exception = exceptionFromDAP(body, r.conn.Quirks)
				st.exception.StackTrace = compactTrace(st.exception.StackTrace, s.opts.PathBase, exceptionHeadlines(st.exception)...)
			}
		}()
	}
	defer wg.Wait()

	s.mu.Lock()
	stackOnly := r.stackOnly
	s.mu.Unlock()
	s.fetchStack(ctx, r, st)
	if stackOnly {
		st.partial = true
		return
	}
	s.fetchFrameData(ctx, r, st)
}

// fetchFrameData fetches, for the frame a stop shows, its locals and the
// watches' values, and notes what changed since the last stop there.
func (s *Session) fetchFrameData(ctx context.Context, r *connection, st *Stop) {
	if len(st.frames) > 0 {
		fetchLocals(ctx, r, st)
	}
	s.mu.Lock()
	watches := append([]Watch(nil), s.watches...)
	s.mu.Unlock()
	if len(watches) > 0 {
		st.watches = evalWatches(ctx, r, st, watches)
	}
	if !st.depthKnown && len(st.frames) > 0 && r.conn.Quirks.TotalFramesEstimated {
		// Only changes need the exact depth (stopKey).
		st.depth, st.depthKnown = countFrames(ctx, r, st.ThreadID, len(st.frames), st.depth)
	}
	s.noteChanges(st)
}

// fetchStack fetches the stack of a stop and picks the frame its snapshot
// shows.
func (s *Session) fetchStack(ctx context.Context, r *connection, st *Stop) {
	var stack dap.StackTraceResponseBody
	st.framesErr = r.call(ctx, "stackTrace", map[string]any{"threadId": st.ThreadID, "startFrame": 0, "levels": prefetchFrames}, &stack)
	if st.framesErr != nil || len(stack.StackFrames) == 0 {
		return
	}
	st.frames = stack.StackFrames
	st.depth = stackDepth(stack)
	st.depthKnown = len(st.frames) < prefetchFrames || (stack.TotalFrames >= len(st.frames) && !r.conn.Quirks.TotalFramesEstimated)
	renameFrames(st.frames, r.conn.Quirks)
	if st.Reason == "exception" {
		st.top = raisingFrame(st.frames, r.conn.Quirks)
	}
}

// stackDepth is how deep the stack of a first page of prefetchFrames frames
// is, as far as the adapter says (TotalFramesEstimated: maybe a guess).
func stackDepth(stack dap.StackTraceResponseBody) int {
	depth := len(stack.StackFrames)
	if depth == prefetchFrames && stack.TotalFrames > depth {
		depth = stack.TotalFrames
	}
	return depth
}

// maxCountedFrames bounds the stack countFrames walks.
const maxCountedFrames = 1000

// countFrames counts a thread's frames where the adapter only guesses
// totalFrames for a stack it did not walk to the bottom: it fetches the
// frames after the first fetched ones, and fewer than asked for means the
// bottom was reached (DAP's rule, which the guessing adapters keep). guess
// is returned, unknown, for a stack deeper than maxCountedFrames.
func countFrames(ctx context.Context, r *connection, threadID, fetched, guess int) (int, bool) {
	var stack dap.StackTraceResponseBody
	levels := maxCountedFrames - fetched
	err := r.call(ctx, "stackTrace", map[string]any{"threadId": threadID, "startFrame": fetched, "levels": levels}, &stack)
	if err != nil || len(stack.StackFrames) >= levels {
		return guess, false
	}
	return fetched + len(stack.StackFrames), true
}

// fetchLocals fetches the scopes and locals of the frame a stop shows.
func fetchLocals(ctx context.Context, r *connection, st *Stop) {
	scopes, err := fetchScopes(ctx, r, st.frames[st.top].Id)
	if err != nil {
		st.localsErr = err
		return
	}
	st.scopes = scopes
	sc := localsScope(scopes)
	if sc == nil {
		return
	}
	st.localsRef, st.localsName = sc.VariablesReference, sc.Name
	st.locals, st.localsErr = fetchVariables(ctx, r, sc.VariablesReference, 0, 0)
	inlineAll(ctx, r, st.locals)
}

// raisingFrame is the frame an exception was raised in: the first one the
// adapter does not mark as runtime internals ("subtle", "deemphasize", or
// adapter.Quirks.InternalFrame). A Go panic stops inside
// runtime.fatalpanic, two frames below the panic call; a Rust panic or a C
// abort() deep in libc and std; an agent wants the call. Frames without
// source are skipped only when the adapter names internals this way, so
// that adapters without the quirk keep showing the very top. 0 when every
// frame is marked.
func raisingFrame(frames []dap.StackFrame, q adapter.Quirks) int {
	for i, f := range frames {
		if f.PresentationHint == "subtle" || f.PresentationHint == "deemphasize" {
			continue
		}
		if q.InternalFrame != nil {
			path := ""
			if f.Source != nil {
				path = f.Source.Path
			}
			if path == "" || q.Internal(f.Name, path) {
				continue
			}
		}
		return i
	}
	return 0
}

func fetchScopes(ctx context.Context, r *connection, frameID int) ([]dap.Scope, error) {
	var body dap.ScopesResponseBody
	if err := r.call(ctx, "scopes", map[string]any{"frameId": frameID}, &body); err != nil {
		return nil, err
	}
	return body.Scopes, nil
}

func fetchVariables(ctx context.Context, r *connection, ref, start, count int) ([]dap.Variable, error) {
	args := map[string]any{"variablesReference": ref}
	if start > 0 || count > 0 {
		// DAP pages only indexed children (Delve ignores start and count
		// without the filter: docs/adapter-quirks.md, delve-15).
		args["filter"] = "indexed"
		args["start"] = start
		if count > 0 {
			args["count"] = count
		}
	}
	var body dap.VariablesResponseBody
	if err := r.call(ctx, "variables", args, &body); err != nil {
		return nil, err
	}
	return body.Variables, nil
}

// localsScope picks the scope that holds the frame's locals: the one the
// adapter marks as locals, else one named like it, else the first cheap one.
// Registers and other expensive scopes are never picked.
// docs/adapter-quirks.md: lldb-12.
func localsScope(scopes []dap.Scope) *dap.Scope {
	for i := range scopes {
		if scopes[i].PresentationHint == "locals" {
			return &scopes[i]
		}
	}
	for i := range scopes {
		if strings.HasPrefix(strings.ToLower(scopes[i].Name), "local") {
			return &scopes[i]
		}
	}
	for i := range scopes {
		if !scopes[i].Expensive && !strings.EqualFold(scopes[i].Name, "registers") {
			return &scopes[i]
		}
	}
	return nil
}

// ExceptionInfo describes the exception a program stopped on.
type ExceptionInfo struct {
	ExceptionID string `json:"exceptionId,omitempty"`
	Description string `json:"description,omitempty"`
	// BreakMode (always, unhandled) restates the agent's own
	// breakOnExceptions in a snapshot; list_debug_sessions' lastStop
	// carries it, as the reference's clients read it there.
	BreakMode string `json:"-"`
	// FullTypeName (java.lang.IllegalStateException) is said by the
	// exceptionId already; only lastStop repeats it, for the reference's
	// clients.
	FullTypeName string `json:"-"`
	TypeName     string `json:"typeName,omitempty"`
	Message      string `json:"message,omitempty"`
	StackTrace   string `json:"stackTrace,omitempty"`
	// Hint says what the exception means when the session knows more
	// than the program: input read past its end when none was given.
	Hint string `json:"hint,omitempty"`
}

func exceptionFromDAP(b dap.ExceptionInfoResponseBody, q adapter.Quirks) *ExceptionInfo {
	id := b.ExceptionId
	if q.ExceptionID != nil {
		id = q.ExceptionID(id)
	}
	info := &ExceptionInfo{ExceptionID: id, Description: b.Description, BreakMode: string(b.BreakMode)}
	if b.Details != nil {
		info.TypeName = b.Details.TypeName
		info.FullTypeName = b.Details.FullTypeName
		info.Message = b.Details.Message
		info.StackTrace, _ = Cut(b.Details.StackTrace, 4*MaxValueLen)
	}
	return info
}

// Location is where the program stopped.
type Location struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line"`
	Column   int    `json:"column,omitempty"`
	Function string `json:"function,omitempty"`
	// Remote: the file is the program's (it runs elsewhere: a container,
	// another host) and the agent has no copy at this path; the context
	// shown is the adapter's copy where it serves one.
	Remote bool `json:"remote,omitempty"`
	// SourceNote says why a remote file's lines are not shown.
	SourceNote string `json:"sourceNote,omitempty"`
}

// Snapshot is everything an agent wants to know after a run-control call,
// in one answer.
type Snapshot struct {
	State            State          `json:"state"`
	StateReason      string         `json:"stateReason,omitempty"`
	StopReason       string         `json:"stopReason,omitempty"`
	Description      string         `json:"description,omitempty"`
	ThreadID         int            `json:"threadId,omitempty"`
	HitBreakpointIDs []int          `json:"hitBreakpointIds,omitempty"`
	Location         *Location      `json:"location,omitempty"`
	Context          *SourceContext `json:"context,omitempty"`
	Locals           []Variable     `json:"locals,omitempty"`
	LocalsNote       string         `json:"localsNote,omitempty"`
	Exception        *ExceptionInfo `json:"exception,omitempty"`
	Watches          []WatchValue   `json:"watches,omitempty"`
	// Unchanged names the locals left out because the previous answer
	// that stopped in this frame showed them with this value and
	// reference.
	Unchanged []string `json:"unchanged,omitempty"`
	Changed   []Change `json:"changed,omitempty"`
	// New names the locals the earlier stop did not have; answers leave
	// it out, as every local they show is either new or in Changed.
	New []string `json:"-"`
	// Compared: there was an earlier stop in the same frame to compare
	// with, so Changed and New are meaningful (empty means nothing changed).
	Compared bool `json:"-"`
	// Output is what the program wrote since the previous snapshot, as
	// stored; answers show it as OutputText.
	Output     []OutputEntry `json:"-"`
	OutputText string        `json:"output,omitempty"`
	OutputNote string        `json:"outputNote,omitempty"`
	ExitCode   *int          `json:"exitCode,omitempty"`
	// Signal names the signal that killed the program ("SIGKILL").
	Signal string `json:"signal,omitempty"`
	// NeverHit, when the program has ended, names the breakpoints that
	// never stopped during the run, in one line.
	NeverHit string `json:"neverHit,omitempty"`
	TimedOut bool   `json:"timedOut,omitempty"`
	// PathNote, in the answer of the launch that made them, names the
	// build's directories the session mapped to the agent's copy by itself
	// (builtelsewhere.go): the agent's breakpoints bind there, and its
	// paths are shown for the build's.
	PathNote string `json:"pathNote,omitempty"`

	// internalHits are the server's own breakpoints the stop is for, kept
	// out of HitBreakpointIDs (run_to asks whether its target was hit).
	internalHits []int
}

// Snapshot limits: a snapshot is read by a model, so it stays small; the
// inspection tools give everything.
const (
	snapshotLocals      = 25
	snapshotValueLen    = 256
	snapshotOutput      = 40
	snapshotContextSide = 1
)

// waitSnapshot waits until the session has changed since gen and is no
// longer running or starting, or until timeout; then builds the snapshot.
// It never holds the session lock while waiting.
func (s *Session) waitSnapshot(ctx context.Context, since uint64, timeout time.Duration) (*Snapshot, error) {
	settled, err := s.waitSettled(ctx, since, timeout)
	if err != nil {
		return nil, err
	}
	snap := s.snapshotNow(ctx)
	snap.TimedOut = !settled
	return snap, nil
}

// waitSettled waits until the session has changed since gen and is no
// longer running or starting (true), or until timeout (false).
func (s *Session) waitSettled(ctx context.Context, since uint64, timeout time.Duration) (bool, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	tick, progress, stopTicks := progressTicker(ctx)
	defer stopTicks()
	start := time.Now()
	for {
		s.mu.Lock()
		settled := s.gen > since && s.state != StateRunning && s.state != StateInitializing
		ch := s.changed
		s.mu.Unlock()
		if settled {
			return true, nil
		}
		select {
		case <-ch:
		case <-tick:
			progress(time.Since(start), timeout)
		case <-timer.C:
			return false, nil
		case <-ctx.Done():
			// The program runs on (or stays stopped): a cancelled wait
			// leaves the session as it is.
			return false, fmt.Errorf("waiting for the program to stop: %w", ctx.Err())
		}
	}
}

// WaitForStop returns the current stop at once if paused, the end if the
// program ended, or waits up to timeout for the next stop.
func (s *Session) WaitForStop(ctx context.Context, timeout time.Duration) (*Snapshot, error) {
	s.checkDebuggee()
	s.mu.Lock()
	state, gen := s.state, s.gen
	s.mu.Unlock()
	switch state {
	case StateCreated:
		return nil, errorf("call start_debugging first", "nothing to wait for: the session has not started a program")
	case StateRunning, StateInitializing:
		if timeout <= 0 {
			timeout = DefaultWaitTimeout
		}
		return s.waitSnapshot(ctx, gen, timeout)
	}
	return s.snapshotNow(ctx), nil
}

// endGrace is how long a snapshot of an ended program waits for the exit
// code, which some adapters send just after terminated.
const endGrace = 250 * time.Millisecond

// snapshotNow builds the snapshot of the current state.
func (s *Session) snapshotNow(ctx context.Context) *Snapshot {
	s.mu.Lock()
	st, state := s.stop, s.state
	if state == StateStopped && s.exitCode == nil && s.signal == "" && s.r != nil && !s.r.ended() {
		r := s.r
		s.mu.Unlock()
		select {
		case <-r.done:
		case <-time.After(endGrace):
		case <-ctx.Done():
		}
		s.mu.Lock()
	}
	snap := &Snapshot{State: s.state, ExitCode: s.exitCode, Signal: s.signal}
	if s.state == StateStopped {
		s.endUnseen = false
	}
	if s.state == StateError || s.state == StateStopped {
		snap.StateReason = s.history[len(s.history)-1].Cause
	}
	if s.state == StateStopped && s.r != nil {
		snap.NeverHit = s.neverHitLocked(s.r)
	}
	s.mu.Unlock()

	if state == StatePaused && st != nil {
		s.fillStop(ctx, snap, st)
	}
	s.fillOutput(snap)
	return snap
}

func (s *Session) fillStop(ctx context.Context, snap *Snapshot, st *Stop) {
	select {
	case <-st.ready:
	case <-ctx.Done():
		return
	}
	snap.StopReason = st.Reason
	snap.Description = st.Description
	if snap.Description == "" {
		snap.Description = st.Text
	}
	snap.ThreadID = st.ThreadID
	snap.HitBreakpointIDs, snap.internalHits = splitHits(st.HitBreakpointIDs)
	snap.Exception = st.exception
	snap.Watches, snap.Changed, snap.New, snap.Compared = st.watches, st.changed, st.added, st.compared
	if snap.Exception == nil && st.Reason == "exception" && (st.Text != "" || st.Description != "") {
		snap.Exception = &ExceptionInfo{Description: st.Description, Message: st.Text}
	}
	if hint := s.noInputHint(snap.Exception); hint != "" {
		// A copy: the stop's exception is shared by its answers.
		e := *snap.Exception
		e.Hint = hint
		snap.Exception = &e
	}
	// A second answer about the same stop (wait_for_stop again) shows it
	// whole: the agent asks because it lost it.
	s.mu.Lock()
	again := s.shownStop == st
	if prev := s.shownStop; prev != nil && prev != st && prev.ThreadID == st.ThreadID && st.Reason != "pause" {
		// The thread the previous stop named: steps and inspection
		// default to it. A pause names the thread it happened to catch.
		snap.ThreadID = 0
	}
	s.shownStop = st
	r := s.r
	s.mu.Unlock()
	if len(st.frames) > 0 {
		snap.Location = locationOf(st)
		if l := snap.Location; r != nil {
			c, remote, err := r.frameContext(ctx, st.frames[st.top], snapshotContextSide)
			l.Remote = remote
			if remote && err != nil {
				l.SourceNote = "no copy here, and the adapter serves none; pathMappings can map its root to your copy"
			}
			if err == nil {
				lines := withoutBlankLines(c.Surrounding)
				if unseen := s.showedSource(l.File, lines, true); !again {
					// lineContent says the current line.
					lines = slices.DeleteFunc(unseen, func(l SourceLine) bool { return l.Current })
				}
				c.Surrounding = lines
				snap.Context = &c
			}
		}
		snap.Exception = withoutShownFrame(snap.Exception, snap.Location)
	} else if st.framesErr != nil && st.Reason == "entry" {
		// Stopped before any code ran: some adapters (Delve) have no
		// stack to show yet, which is no error (docs/adapter-quirks.md,
		// delve-6).
		snap.LocalsNote = "stopped on entry: the program has not started its main thread (goroutine) yet, so there is no stack or locals; set breakpoints and continue"
	} else if st.framesErr != nil {
		snap.LocalsNote = "stack unavailable: " + st.framesErr.Error()
	}
	switch {
	case st.localsErr != nil:
		snap.LocalsNote = "locals unavailable: " + st.localsErr.Error()
	case len(st.locals) > 0:
		vars := filterSpecial(st.locals, false)
		for i, v := range vars {
			if i == snapshotLocals {
				snap.LocalsNote = fmt.Sprintf("showing %d of %d locals; get_local_variables lists all", snapshotLocals, len(vars))
				break
			}
			local := fromDAP(v, snapshotValueLen)
			if saysItsType(local, s.Language.PlainTypes) {
				local.Type = ""
			}
			snap.Locals = append(snap.Locals, local)
		}
		if shown, unchanged := s.showedLocals(stopKey(st), snap.Locals); !again {
			snap.Locals, snap.Unchanged = shown, unchanged
		}
	}
}

// noInputHint is the hint for an exception that says the program read
// past the end of its standard input (Quirks.ReadPastInput), when the
// launch gave it none: it read an empty /dev/null, not what a terminal
// would have waited for. "" otherwise.
func (s *Session) noInputHint(e *ExceptionInfo) string {
	if e == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r == nil || s.r.conn.Quirks.ReadPastInput == nil || s.spec == nil || s.spec.launch == nil || s.spec.launch.StdinFile != "" {
		return ""
	}
	id := e.ExceptionID
	if id == "" {
		id = e.TypeName
	}
	if !s.r.conn.Quirks.ReadPastInput(id, e.Message+" "+e.Description) {
		return ""
	}
	return "the program read its standard input, and none was given (it reads an empty input): pass stdin (text) or stdinFile to restart_debugging or start_debugging"
}

// showedLocals records the locals an answer shows at a stop in the frame
// key names, and returns those the agent has not read there yet, and the
// names of the ones it has: the same value and variablesReference as the
// previous answer in this frame showed, so that the reference the agent
// holds still opens it. A return value is always shown: each return is
// news, even of the value the previous one had. "" (a frame without a
// known depth) keeps them all.
func (s *Session) showedLocals(key string, locals []Variable) (shown []Variable, unchanged []string) {
	if key == "" {
		return locals, nil
	}
	now := make(map[string]Variable, len(locals))
	// Two answers may be built for one stop at once (a continue that
	// waits and a pause): the maps are read and filled under the lock.
	s.mu.Lock()
	defer s.mu.Unlock()
	before := s.shownLocals[key]
	if s.shownLocals == nil {
		s.shownLocals = map[string]map[string]Variable{}
	}
	s.shownLocals[key] = now
	for _, v := range locals {
		now[v.Name] = v
		if was, ok := before[v.Name]; ok && !v.Truncated && !isReturnValue(v.Name) && was.Value == v.Value && was.VariablesReference == v.VariablesReference {
			unchanged = append(unchanged, v.Name)
			continue
		}
		shown = append(shown, v)
	}
	return shown, unchanged
}

// fillOutput adds the output produced since the previous snapshot.
func (s *Session) fillOutput(snap *Snapshot) {
	s.mu.Lock()
	since := s.snapCursor
	s.mu.Unlock()
	page := s.out.FinishedSince(since, 0)
	entries := page.Entries
	if len(entries) > snapshotOutput {
		snap.OutputNote = fmt.Sprintf("%d earlier output entries not shown; get_output with since=%d reads them", len(entries)-snapshotOutput, since)
		entries = entries[len(entries)-snapshotOutput:]
	}
	if page.Dropped > 0 {
		dropped := fmt.Sprintf("%d output entries were dropped from the buffer", page.Dropped)
		if snap.OutputNote != "" {
			dropped = snap.OutputNote + "; " + dropped
		}
		snap.OutputNote = dropped
	}
	snap.Output = entries
	s.mu.Lock()
	if page.NextSince > s.snapCursor {
		s.snapCursor = page.NextSince
	}
	s.mu.Unlock()
}

// filterSpecial hides interpreter internals (Python's dunders, debugpy's
// "special variables" groups, rdbg's %self) unless asked for.
func filterSpecial(vars []dap.Variable, include bool) []dap.Variable {
	if include {
		return vars
	}
	out := make([]dap.Variable, 0, len(vars))
	for _, v := range vars {
		if isSpecial(v) {
			continue
		}
		out = append(out, v)
	}
	return out
}

func isSpecial(v dap.Variable) bool {
	n := v.Name
	if strings.HasPrefix(n, "__") && strings.HasSuffix(n, "__") {
		return true
	}
	switch n {
	case "special variables", "function variables", "class variables", "protected variables":
		return true
	case "%self":
		// rdbg's receiver, listed first among every frame's locals
		// (docs/adapter-quirks.md: rdbg-19); `self` evaluates to it.
		return true
	}
	return v.PresentationHint != nil && v.PresentationHint.Kind == "virtual" && strings.HasSuffix(n, "variables")
}

// showedSource records that an answer shows lines of file, and returns
// those the agent has not read recently (see shownSource). A stop counts
// (stop); set_breakpoint's window does not.
func (s *Session) showedSource(file string, lines []SourceLine, stop bool) []SourceLine {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shown == nil {
		s.shown = shownSource{}
	}
	if stop {
		s.shownStops++
		s.shown.forget(s.shownStops)
	}
	unseen := s.shown.unseen(file, lines, s.shownStops)
	s.shown.add(file, lines, s.shownStops)
	return unseen
}

// withoutBlankLines drops the blank lines of a snapshot's source window:
// they show nothing (each line keeps its number, so the gap still shows),
// and every snapshot carries the window.
func withoutBlankLines(lines []SourceLine) []SourceLine {
	return slices.DeleteFunc(lines, func(l SourceLine) bool { return !l.Current && strings.TrimSpace(l.Content) == "" })
}

// withoutShownFrame is e without its stack trace's first frame when that is
// the frame the snapshot shows (location and source line say it already):
// the trace then starts at the caller.
func withoutShownFrame(e *ExceptionInfo, l *Location) *ExceptionInfo {
	if e == nil || l == nil || l.File == "" || l.Function == "" {
		return e
	}
	header, trace := "", e.StackTrace
	if strings.HasPrefix(trace, "(in ") {
		// sayDirOnce's line, which stays.
		h, t, _ := strings.Cut(trace, "\n")
		header, trace = h+"\n", t
	}
	first, rest, ok := strings.Cut(trace, "\n")
	if !ok || !strings.Contains(first, filepath.Base(l.File)+":"+strconv.Itoa(l.Line)) || !strings.Contains(first, l.Function) {
		return e
	}
	trimmed := *e
	trimmed.StackTrace = header + rest
	return &trimmed
}

// saysItsType reports whether a local's value already says its type: a
// type whose values the language writes unmistakably (plain), or a value
// that begins with its type's name (Delve's "[]int len: 3, …", "main.Point
// {X: 1}").
func saysItsType(v Variable, plain []string) bool {
	return v.Type != "" && (slices.Contains(plain, v.Type) || strings.HasPrefix(v.Value, v.Type))
}
