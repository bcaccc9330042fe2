package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// pauseState is the current stop: the inspector's pause and the DAP frames
// made of it. Its handles (frames, scopes, values) live in server.handles
// until the program resumes.
type pauseState struct {
	ev        cdp.Paused
	frames    []godap.StackFrame
	exception *cdp.RemoteObject
	uncaught  bool
	// returnValue is what returnOf returned, when the stop ends a step
	// out of it (returns.go).
	returnValue *cdp.RemoteObject
	returnOf    string
}

// frameHandle is a frame id's target; call is nil for async frames, which
// have a position but no scopes.
type frameHandle struct {
	call *cdp.CallFrame
}

// clearPauseLocked forgets the stop and every handle made for it.
func (s *server) clearPauseLocked() {
	s.pause = nil
	clear(s.handles)
}

func (s *server) newHandleLocked(h any) int {
	s.nextHandle++
	s.handles[s.nextHandle] = h
	return s.nextHandle
}

// paused decides what an inspector pause means: a stop to report, or one
// the adapter resumes from itself (the entry pause, a script about to run
// whose breakpoints were just bound, a hit count not reached yet, an
// exception inside Node's own code).
// docs/adapter-quirks.md: node-4.
func (s *server) paused(p cdp.Paused) {
	s.log.Debug("node adapter: paused", "reason", p.Reason, "hit", p.HitBreakpoints, "data", string(p.Data))
	p.Reason, p.Data = pauseReason(p)
	switch p.Reason {
	case "Break on start":
		if s.opts.stopOnEntry {
			s.reportStop(p, "entry", "Stopped on entry", "", nil)
			return
		}
		s.resumeQuietly()
		return
	case "instrumentation":
		s.resumeQuietly()
		return
	}
	if s.continueReturnCapture(p) {
		return
	}
	s.mu.Lock()
	stepping, pauseRequested := s.stepping, s.pauseRequested
	var hitIDs []int
	anyHit, onlyFunctions := false, true
	counted := map[int]bool{}
	for _, id := range p.HitBreakpoints {
		bp := s.byCDP[id]
		// One breakpoint may be bound twice at the same place (a file
		// under two paths): count it once.
		if bp == nil || counted[bp.id] {
			continue
		}
		counted[bp.id] = true
		anyHit = true
		bp.hits++
		if bp.hit.Match(bp.hits) {
			hitIDs = append(hitIDs, bp.id)
			onlyFunctions = onlyFunctions && bp.fn != nil
		}
	}
	internalTop := len(p.CallFrames) > 0 && s.isInternalLocked(p.CallFrames[0].Location.ScriptID)
	s.mu.Unlock()

	switch {
	case p.Reason == "exception" || p.Reason == "promiseRejection":
		var exc struct {
			cdp.RemoteObject
			Uncaught bool `json:"uncaught"`
		}
		_ = json.Unmarshal(p.Data, &exc)
		if !exc.Uncaught && internalTop && s.opts.justMyCode && s.exceptionMode() != userUnhandled {
			// Node's module loader throws and catches as it works.
			s.resumeQuietly()
			return
		}
		if !exc.Uncaught && s.exceptionMode() == userUnhandled && !s.thrownByUserCode(p) {
			s.resumeQuietly()
			return
		}
		desc, text := exceptionText(&exc.RemoteObject)
		s.reportStop(p, "exception", desc, text, nil)
	case stepping:
		s.reportStop(p, "step", "", "", nil)
	case len(hitIDs) > 0 && onlyFunctions:
		s.reportStop(p, "function breakpoint", "", "", hitIDs)
	case len(hitIDs) > 0:
		s.reportStop(p, "breakpoint", "", "", hitIDs)
	case anyHit && !pauseRequested:
		s.resumeQuietly()
	case pauseRequested && internalTop && s.opts.justMyCode:
		s.leaveInternals(p)
	case pauseRequested:
		s.reportStop(p, "pause", "Paused", "", nil)
	default:
		s.reportStop(p, "breakpoint", "Paused on a debugger statement", "", nil)
	}
}

// leaveInternals moves a requested pause that landed in Node's own code,
// where a stop shows no stack under justMyCode, to the user's code. Called
// from the user's (console.log loading a builtin): step out, a frame at a
// time. With no user frame below (the event loop running timers, the
// module loader): step on until a call into the user's code (a timer's
// callback), since stepping into a blackboxed function goes on to the
// user's code it calls. Past the steps' bound the program runs on and
// requestPause asks again, except on its last attempt, which shows the
// pause where it is.
func (s *server) leaveInternals(p cdp.Paused) {
	step, limit := "Debugger.stepInto", maxInternalSteps
	if s.hasUserFrame(p) {
		step, limit = "Debugger.stepOut", maxPauseRetries
	}
	s.mu.Lock()
	last := s.lastPauseAttempt
	s.leaving = s.pauseRetries < limit
	s.mu.Unlock()
	switch {
	case s.pauseRetries < limit:
		s.pauseRetries++
		ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
		defer cancel()
		if err := s.cdp.Call(ctx, step, nil, nil); err != nil {
			s.reportStop(p, "pause", "Paused", "", nil)
		}
	case last:
		s.reportStop(p, "pause", "Paused", "", nil)
	default:
		s.pauseRetries = 0
		s.resumeQuietly()
	}
}

// pauseReason is the reason of a pause that decides what it means, with
// its data: the main one of an "ambiguous" pause, and "other" for the end
// of a step. V8 12 (Node 22.23.3) names the pause that ends a step "step",
// and one where a step meets a breakpoint "ambiguous" with reasons [step,
// other]; V8 11 (Node 20.20.2) calls both "other". What such a pause means
// comes from the adapter's own stepping state and the breakpoints hit, so
// both read as "other", as under Node 20.
// docs/adapter-quirks.md: node-19.
func pauseReason(p cdp.Paused) (string, json.RawMessage) {
	reason, data := p.Reason, p.Data
	if reason == "ambiguous" {
		reason, data = mainReason(p)
	}
	if reason == "step" {
		reason = "other"
	}
	return reason, data
}

// mainReason picks, of the reasons of a pause that has several (a
// breakpoint where the program also breaks on start, throws, or a step
// ends), the one that decides what the pause means, with its data.
func mainReason(p cdp.Paused) (string, json.RawMessage) {
	var d struct {
		Reasons []struct {
			Reason  string          `json:"reason"`
			AuxData json.RawMessage `json:"auxData"`
		} `json:"reasons"`
	}
	_ = json.Unmarshal(p.Data, &d)
	rank := func(reason string) int {
		switch reason {
		case "Break on start":
			return 3
		case "other", "step", "instrumentation":
			if reason != "instrumentation" && len(p.HitBreakpoints) > 0 {
				return 1
			}
			return 0
		}
		return 2
	}
	best, data := "other", json.RawMessage(nil)
	bestRank := -1
	for _, r := range d.Reasons {
		if rk := rank(r.Reason); rk > bestRank {
			best, data, bestRank = r.Reason, r.AuxData, rk
		}
	}
	return best, data
}

// maxPauseRetries bounds the steps out of Node's internals called from the
// user's code (one frame each: console.log loading a builtin module is a
// dozen deep); after them the pause is shown where it is.
const maxPauseRetries = 40

// maxInternalSteps bounds the steps taken to move a requested pause from
// Node's own code to the user's; after them the program runs on until the
// pause is asked again.
const maxInternalSteps = 300

// hasUserFrame reports whether some frame of the pause runs the user's code.
func (s *server) hasUserFrame(p cdp.Paused) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range p.CallFrames {
		if !s.isInternalLocked(f.Location.ScriptID) {
			return true
		}
	}
	return false
}

// isInternalLocked reports whether a script is Node's own or a package's.
func (s *server) isInternalLocked(scriptID string) bool {
	sc := s.scripts[scriptID]
	return sc == nil || sc.internal() || strings.Contains(sc.path, "/node_modules/")
}

// exceptionText is an exception's one-line description and message.
func exceptionText(o *cdp.RemoteObject) (desc, text string) {
	if o.Type == "" {
		return "Paused on exception", ""
	}
	if o.Subtype == "error" || o.ClassName != "" && o.Type == "object" {
		first, _, _ := strings.Cut(o.Description, "\n")
		return first, first
	}
	v, _, _ := formatValue(o)
	return "Uncaught " + v, v
}

// resumeQuietly resumes without telling the client, which never saw the
// pause.
func (s *server) resumeQuietly() {
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	if err := s.cdp.Call(ctx, "Debugger.resume", nil, nil); err != nil {
		s.log.Debug("node adapter: resume", "err", err)
	}
}

// reportStop records the stop, makes its frames, and sends stopped.
func (s *server) reportStop(p cdp.Paused, reason, desc, text string, hitIDs []int) {
	s.mu.Lock()
	s.clearPauseLocked()
	st := &pauseState{ev: p}
	for i := range p.CallFrames {
		cf := &p.CallFrames[i]
		id := s.newHandleLocked(&frameHandle{call: cf})
		st.frames = append(st.frames, s.dapFrameLocked(id, cf.FunctionName, cf.Location.ScriptID, cf.Location.LineNumber, cf.Location.ColumnNumber))
	}
	// Async parents: where each awaiting caller waits, under a label.
	for at, n := p.AsyncStackTrace, 0; at != nil && n < 32; at, n = at.Parent, n+1 {
		if len(at.CallFrames) == 0 {
			continue
		}
		label := at.Description
		if label == "" {
			label = "async"
		}
		st.frames = append(st.frames, godap.StackFrame{Id: s.newHandleLocked(&frameHandle{}), Name: "[" + label + "]", PresentationHint: "label"})
		for _, rf := range at.CallFrames {
			id := s.newHandleLocked(&frameHandle{})
			st.frames = append(st.frames, s.dapFrameLocked(id, rf.FunctionName, rf.ScriptID, rf.LineNumber, rf.ColumnNumber))
		}
	}
	if reason == "exception" {
		var exc struct {
			cdp.RemoteObject
			Uncaught bool `json:"uncaught"`
		}
		if json.Unmarshal(p.Data, &exc) == nil {
			st.exception, st.uncaught = &exc.RemoteObject, exc.Uncaught
		}
	}
	var remove []string
	st.returnValue, st.returnOf, remove = s.endReturnCaptureLocked()
	s.pause = st
	s.stepping, s.pauseRequested, s.pauseRetries, s.leaving = false, false, 0, false
	s.mu.Unlock()
	for _, id := range remove {
		_, _ = s.cdp.Send("Debugger.removeBreakpoint", map[string]any{"breakpointId": id})
	}
	select {
	case s.stopped <- struct{}{}:
	default:
	}
	s.Event("stopped", godap.StoppedEventBody{
		Reason: reason, Description: desc, Text: text, ThreadId: mainThread,
		AllThreadsStopped: true, HitBreakpointIds: hitIDs,
	})
}

// dapFrameLocked makes a DAP frame of a position, mapped to its original
// source when the script has a source map.
func (s *server) dapFrameLocked(id int, name, scriptID string, line, col int) godap.StackFrame {
	if name == "" {
		name = "(anonymous)"
	}
	f := godap.StackFrame{Id: id, Name: name, Line: line + 1, Column: col + 1}
	sc := s.scripts[scriptID]
	switch {
	case sc == nil:
		f.PresentationHint = "subtle"
	case sc.sm != nil:
		if path, l, c, ok := sc.sm.original(line, col); ok {
			f.Source = &godap.Source{Name: filepath.Base(path), Path: path}
			f.Line, f.Column = l+1, c+1
			break
		}
		f.Source = &godap.Source{Name: filepath.Base(sc.path), Path: sc.path}
	case sc.path != "":
		f.Source = &godap.Source{Name: filepath.Base(sc.path), Path: sc.path}
		if strings.Contains(sc.path, "/node_modules/") {
			f.PresentationHint = "subtle"
		}
	default:
		// Node's internals: no file to show.
		f.Source = &godap.Source{Name: sc.url}
		f.PresentationHint = "subtle"
	}
	return f
}

// resume continues or steps (method is the inspector's command). The
// stop is forgotten before the command goes out: the next pause may be
// reported before its answer is read.
func (s *server) resume(_ *request, method string) (any, error) {
	s.mu.Lock()
	if s.pause == nil {
		s.mu.Unlock()
		return nil, errors.New("the program is not paused")
	}
	if method == "Debugger.stepOut" && len(s.pause.ev.CallFrames) > 0 {
		top, depth := s.pause.ev.CallFrames[0], len(s.pause.ev.CallFrames)
		s.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
		s.prepareReturnCapture(ctx, top, depth)
		cancel()
		s.mu.Lock()
		if s.pause == nil {
			s.mu.Unlock()
			return nil, errors.New("the program is not paused")
		}
	}
	old, oldHandles := s.pause, make(map[int]any, len(s.handles))
	for k, v := range s.handles {
		oldHandles[k] = v
	}
	s.clearPauseLocked()
	s.stepping = method != "Debugger.resume"
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	if err := s.cdp.Call(ctx, method, nil, nil); err != nil {
		s.mu.Lock()
		if s.pause == nil {
			s.pause, s.handles, s.stepping = old, oldHandles, false
		}
		_, _, remove := s.endReturnCaptureLocked()
		s.mu.Unlock()
		for _, id := range remove {
			_, _ = s.cdp.Send("Debugger.removeBreakpoint", map[string]any{"breakpointId": id})
		}
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if method == "Debugger.resume" {
		return godap.ContinueResponseBody{AllThreadsContinued: true}, nil
	}
	return nil, nil
}

func (s *server) pauseProgram(*request) (any, error) {
	s.mu.Lock()
	if s.pause != nil {
		s.mu.Unlock()
		return nil, nil
	}
	s.pauseRequested = true
	s.mu.Unlock()
	select {
	case <-s.stopped:
	default:
	}
	return nil, s.requestPause()
}

// requestPause asks the inspector to pause until the program stops, for a
// bounded time.
// docs/adapter-quirks.md: node-16.
func (s *server) requestPause() error {
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	// The inspector acknowledges a pause that, now and then, never comes
	// (a tight loop entered through blackboxed code, measured on Node
	// 20): ask again until the program stops, for a bounded time.
	defer func() {
		s.mu.Lock()
		s.lastPauseAttempt = false
		s.mu.Unlock()
	}()
	for attempt := range pauseAttempts {
		s.mu.Lock()
		wanted, leaving := s.pauseRequested, s.leaving
		s.lastPauseAttempt = attempt == pauseAttempts-1
		s.mu.Unlock()
		if !wanted {
			// Stopped (a stop clears the request), or resumed since.
			return nil
		}
		// While leaveInternals steps to the user's code, a pause would
		// land in the internals again: only wait.
		if !leaving {
			if err := s.cdp.Call(ctx, "Debugger.pause", nil, nil); err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					// The program runs on without servicing the inspector
					// (launchFlags: Node 22 in a top-level loop).
					return fmt.Errorf("node did not answer the pause within %s: the program keeps running where the inspector cannot interrupt it (Node 22 in a loop of a script's top-level code, unless node runs with --no-use-osr, as launched sessions do): %w", cdp.DefaultTimeout, err)
				}
				return fmt.Errorf("pause: %w", err)
			}
		}
		select {
		case <-s.stopped:
			return nil
		case <-s.eventsDone:
			return nil
		case <-time.After(pauseRetryEvery):
		}
	}
	return nil
}

// pauseAttempts and pauseRetryEvery bound the pause requests sent for one
// DAP pause.
const (
	pauseAttempts   = 10
	pauseRetryEvery = 200 * time.Millisecond
)

func (s *server) exceptionInfo(*request) (any, error) {
	s.mu.Lock()
	st := s.pause
	s.mu.Unlock()
	if st == nil || st.exception == nil {
		return nil, errors.New("not stopped on an exception")
	}
	o := st.exception
	desc, msg := exceptionText(o)
	typeName := o.ClassName
	if typeName == "" {
		typeName = o.Type
	}
	if o.Subtype == "error" {
		msg = errorMessage(o.Description, typeName)
	} else if rest, ok := strings.CutPrefix(msg, typeName+": "); ok {
		msg = rest
	}
	mode := godap.ExceptionBreakMode("always")
	if st.uncaught {
		mode = "unhandled"
	}
	return godap.ExceptionInfoResponseBody{
		ExceptionId: typeName,
		Description: desc,
		BreakMode:   mode,
		Details:     &godap.ExceptionDetails{Message: msg, TypeName: typeName, StackTrace: o.Description},
	}, nil
}

// errorMessage is an Error's message read from its stack text: what comes
// before the first frame line, without the "Name [code]: " prefix. It
// keeps every line (an assertion's message ends with its diff).
func errorMessage(stack, typeName string) string {
	head := stack
	if i := strings.Index(head, "\n    at "); i >= 0 {
		head = head[:i]
	}
	if rest, ok := strings.CutPrefix(head, typeName); ok {
		if strings.HasPrefix(rest, " [") {
			if j := strings.Index(rest, "]"); j > 0 {
				rest = rest[j+1:]
			}
		}
		if msg, ok := strings.CutPrefix(rest, ": "); ok {
			head = msg
		}
	}
	return strings.TrimSpace(head)
}
