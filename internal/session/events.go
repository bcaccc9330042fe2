package session

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// eventLoop applies the adapter's events to the session. It runs on its own
// goroutine, owned by the run, and ends when the connection does (the
// client closes Events then). It may issue requests, since responses are
// read by the client's reader goroutine, not here.
func (s *Session) eventLoop(r *connection) {
	defer close(r.done)
	for ev := range r.client.Events() {
		s.handleEvent(r, ev)
	}
	s.connectionEnded(r)
}

func (s *Session) handleEvent(r *connection, ev dapc.Event) {
	switch ev.Name {
	case "initialized":
		r.initOnce.Do(func() { close(r.initialized) })
	case "output":
		var b dap.OutputEventBody
		if json.Unmarshal(ev.Body, &b) != nil {
			return
		}
		if b.Category == "telemetry" || (r.conn.Quirks.IsNoise != nil && r.conn.Quirks.IsNoise(b.Category, b.Output)) {
			return
		}
		if b.Category == "" {
			b.Category = "console"
		}
		text := s.traceFromOutput(b.Output)
		// lldb-dap ends lines with \r\n; agents and tests expect \n
		// (docs/adapter-quirks.md, lldb-5).
		s.out.Append(b.Category, strings.ReplaceAll(text, "\r\n", "\n"))
	case "stopped":
		var b dap.StoppedEventBody
		if err := json.Unmarshal(ev.Body, &b); err != nil {
			s.log.Warn("undecodable stopped event", "err", err)
			return
		}
		s.stopped(r, b, ev.Stamp)
	case "continued":
		var b dap.ContinuedEventBody
		_ = json.Unmarshal(ev.Body, &b)
		s.mu.Lock()
		if s.r == r && s.state == StatePaused {
			s.stop = nil
			s.setStateLocked(StateRunning, "continued")
		}
		s.mu.Unlock()
	case "exited":
		var b dap.ExitedEventBody
		if json.Unmarshal(ev.Body, &b) != nil {
			return
		}
		s.exitedEventCode(r, b.ExitCode)
	case "process":
		r.watchProcessEvent(ev.Body)
	case "terminated":
		// Adapters without exited events (the built-in ones) leave how the
		// program ended to its watcher.
		e, ended := r.debuggeeEndingSoon()
		s.mu.Lock()
		if ended && s.r == r {
			s.recordEndingLocked(e)
		}
		if s.r == r && s.state != StateStopped && s.state != StateError {
			s.programEndedLocked(r, s.endCauseLocked())
		}
		s.mu.Unlock()
		// The adapter is done with this program: say goodbye so it exits,
		// without holding up the events still queued behind this one.
		go r.shutdown(false)
	case "breakpoint":
		var b dap.BreakpointEventBody
		if json.Unmarshal(ev.Body, &b) != nil {
			return
		}
		s.mu.Lock()
		if s.r == r {
			s.bps.updateFromEvent(b.Breakpoint)
		}
		s.mu.Unlock()
	default:
		// module, loadedSource, thread, capabilities, and events
		// we do not know (debugpy's debugpySockets): nothing to do.
		s.log.Debug("event skipped", "event", ev.Name)
		r.passEvent(ev)
	}
}

// stopped takes a stop through its stages: classify what the adapter
// said (pure), resolve it against the session (our breakpoint ids, the
// thread), offer it to the interceptors (stops the session answers itself,
// which the agent never sees), and apply the rest: the session is paused
// there, and what its snapshot will show is fetched so that the agent's
// next call finds it ready. Each stage takes s.mu itself and drops the
// stop when the connection is no longer the session's.
func (s *Session) stopped(r *connection, b dap.StoppedEventBody, at time.Time) {
	st := classifyStop(b, r.conn.Quirks, at)
	if !s.resolveStop(r, st, b) {
		return
	}
	for _, intercept := range []func(*connection, *Stop) bool{
		s.interceptSamePass,
		s.interceptRecording,
		s.interceptTracedCall,
		s.interceptTracedReturn,
		s.interceptTracepoints,
		s.interceptRepeatedStep,
	} {
		if intercept(r, st) {
			return
		}
	}
	s.applyStop(r, st)
}

// classifyStop is the stop an adapter's stopped event reports, with the
// adapter's quirks applied to its reason.
func classifyStop(b dap.StoppedEventBody, q adapter.Quirks, at time.Time) *Stop {
	reason, description := b.Reason, b.Description
	if fix := q.StopReason; fix != nil {
		reason, description = fix(b.Reason, b.Description)
	}
	return &Stop{
		Reason:            reason,
		Description:       description,
		Text:              b.Text,
		ThreadID:          b.ThreadId,
		AllThreadsStopped: b.AllThreadsStopped,
		Time:              at,
		ready:             make(chan struct{}),
		// The adapter's exceptionInfo describes the stop it reported, not
		// the one the quirk made of it.
		noExceptionInfo: reason != b.Reason,
	}
}

// resolveStop names the breakpoints hit by our ids (a breakpoint's stop
// then says which kind), and the thread when the adapter named none. It
// reports false when r is no longer the session's connection.
func (s *Session) resolveStop(r *connection, st *Stop, b dap.StoppedEventBody) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r != r {
		return false
	}
	for _, id := range b.HitBreakpointIds {
		if ours := s.bps.byAdapterID(id); ours != 0 {
			st.HitBreakpointIDs = append(st.HitBreakpointIDs, ours)
		}
	}
	r.markHitsLocked(st.HitBreakpointIDs...)
	st.Reason = s.bps.hitReason(st.Reason, st.HitBreakpointIDs)
	if st.Reason != b.Reason {
		st.RawReason = b.Reason
	}
	if st.ThreadID == 0 && s.last != nil {
		st.ThreadID = s.last.ThreadID
	}
	if st.ThreadID == 0 {
		// A stop on no particular thread (Delve pausing a thread that
		// runs no goroutine; docs/adapter-quirks.md, delve-20): show
		// the first thread the adapter lists. Asking here is safe:
		// responses are read by the client's own goroutine.
		s.mu.Unlock()
		st.ThreadID = firstThread(r)
		s.mu.Lock()
	}
	return s.r == r
}

// continuingLocked reports whether the program was let run by a continue
// (or by the launch): only then may a stop be one the session answers
// itself. s.mu is held.
func continuingLocked(r *connection) bool {
	return r.resuming == Continue || r.resuming == ""
}

// interceptTracedCall answers the stop at the entry of a function that
// trace_function traces.
func (s *Session) interceptTracedCall(r *connection, st *Stop) bool {
	s.mu.Lock()
	if !continuingLocked(r) {
		s.mu.Unlock()
		return false
	}
	fb := s.tracedCallLocked(r, st)
	gone := s.r != r
	s.mu.Unlock()
	if fb != nil {
		s.traceCall(r, st, fb)
	}
	return fb != nil || gone
}

// interceptTracedReturn answers the stop that ends a traced call's step
// out.
func (s *Session) interceptTracedReturn(r *connection, st *Stop) bool {
	s.mu.Lock()
	if !continuingLocked(r) || len(r.returns) == 0 || s.r != r {
		gone := s.r != r
		s.mu.Unlock()
		return gone
	}
	// Releases s.mu.
	return s.traceReturnLocked(r, st)
}

// interceptTracepoints answers the stop at a tracepoint (or an emulated
// logpoint) that is for nothing else: record and continue.
func (s *Session) interceptTracepoints(r *connection, st *Stop) bool {
	s.mu.Lock()
	if !continuingLocked(r) || s.r != r {
		gone := s.r != r
		s.mu.Unlock()
		return gone
	}
	// May release s.mu to ask the adapter where the stop is.
	tps := s.tracepointsHitLocked(r, st)
	for _, bp := range tps {
		r.markHitsLocked(bp.ID)
	}
	gone := s.r != r
	s.mu.Unlock()
	if tps != nil {
		s.traceAndContinue(r, st, tps)
	}
	return tps != nil || gone
}

// interceptRepeatedStep steps on from a stop at another location of the
// breakpoint on the line a step started from (see steprepeat.go).
func (s *Session) interceptRepeatedStep(r *connection, st *Stop) bool {
	s.mu.Lock()
	if s.r != r {
		s.mu.Unlock()
		return true
	}
	o := s.hitsOriginLineLocked(r, st)
	kind := r.resuming
	s.mu.Unlock()
	return o != nil && s.repeatStep(r, st, o, kind)
}

// applyStop pauses the session at the stop and fetches what its snapshot
// will show.
func (s *Session) applyStop(r *connection, st *Stop) {
	s.mu.Lock()
	if s.r != r {
		s.mu.Unlock()
		return
	}
	if r.resuming != Continue && r.resuming != "" && st.Reason != "step" {
		r.stepInterrupted = true
	}
	s.stop, s.last = st, st
	s.setStateLocked(StatePaused, st.Reason)
	s.mu.Unlock()
	// Fetched here, not on a goroutine of its own: one hand-off less on
	// every stop, and later events simply wait in the client's queue.
	s.prefetch(r, st)
	s.markHitAtStop(r, st)
}

// firstThread is the first thread the adapter lists, 0 if none.
func firstThread(r *connection) int {
	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	defer cancel()
	threads, err := r.threads(ctx)
	if err != nil || len(threads) == 0 {
		return 0
	}
	return threads[0].Id
}

// connectionEnded handles the end of the adapter connection: an orderly
// end if the program had terminated (or the adapter ends that way), a
// crash otherwise.
func (s *Session) connectionEnded(r *connection) {
	// An adapter without exited events may know the code from its own
	// process; ask before taking the lock, since it may wait a little for
	// the process to finish exiting.
	var code *int
	if r.conn.ExitCode != nil && !r.closing.Load() {
		if c, ok := r.conn.ExitCode(); ok {
			code = &c
		}
	}
	e, ended := r.debuggeeEnding()
	s.mu.Lock()
	if ended && s.r == r {
		s.recordEndingLocked(e)
	}
	if code != nil && s.r == r && s.exitCode == nil && s.signal == "" {
		s.exitCode = code
	}
	if s.r == r && s.state != StateStopped && s.state != StateError {
		s.stop = nil
		switch {
		case r.closing.Load():
			s.setStateLocked(StateStopped, "disconnected from the debug adapter")
		case r.conn.Quirks.NoTerminatedEvent:
			s.programEndedLocked(r, s.endCauseLocked())
		default:
			s.setStateLocked(StateError, fmt.Sprintf("the debug adapter ended unexpectedly (%v)", r.client.Err()))
		}
	}
	s.mu.Unlock()
	go r.cleanup()
}

// copyOutput records a stream of program output, line by line, until it
// ends, and closes it when it can be closed.
func copyOutput(rd io.Reader, out *OutputBuffer, category string) {
	if c, ok := rd.(io.Closer); ok {
		defer c.Close()
	}
	br := bufio.NewReader(rd)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			out.Append(category, strings.ReplaceAll(line, "\r\n", "\n"))
		}
		if err != nil {
			return
		}
	}
}
