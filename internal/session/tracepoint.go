package session

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-dap"
)

// Tracepoints are breakpoints with expressions to collect and no stop that
// reaches the agent. Where the adapter interpolates {expression} in log
// messages (the DAP rule, which debugpy, Delve and lldb-dap follow), the
// tracepoint is sent as a logpoint whose message carries a marker and the
// values, and the program never stops; the output event is taken out of the
// program's output and into the trace buffer. Elsewhere it is an ordinary
// breakpoint that the session answers itself: evaluate, record, continue.

// Trace modes, as list_breakpoints shows them.
const (
	TraceByLogpoint = "logpoint"
	TraceByStopping = "stop-evaluate-continue"
)

// traceMarker starts a tracepoint's log message; \x1e and \x1f (record and
// unit separators) do not occur in program output or in values.
const (
	traceMarker = "\x1emcp-trace:"
	traceSep    = "\x1f"
)

// logpointForm writes a collected expression as a logpoint message
// interpolates it, so that the value reads as the debugger shows it.
type logpointForm func(expression string) string

// logpointTraces returns how tracepoints ride on logpoints here, or nil
// when they cannot.
func (r *connection) logpointTraces() logpointForm {
	if !r.caps.SupportsLogPoints {
		return nil
	}
	if form := r.conn.Quirks.LogpointExpression; form != nil {
		return form
	}
	return func(expression string) string { return expression }
}

// traceLogMessage is the logpoint message that reports a tracepoint's values.
func traceLogMessage(bp *Breakpoint, form logpointForm) string {
	var b strings.Builder
	b.WriteString(traceMarker)
	b.WriteString(strconv.Itoa(bp.ID))
	for _, e := range bp.Collect {
		b.WriteString(traceSep + "{" + form(e) + "}")
	}
	return b.String()
}

// traceFromOutput takes tracepoint reports out of a piece of output,
// records them, and returns the rest of the output.
func (s *Session) traceFromOutput(text string) string {
	if !strings.Contains(text, traceMarker) {
		return text
	}
	var rest strings.Builder
	for line := range strings.SplitAfterSeq(text, "\n") {
		i := strings.Index(line, traceMarker)
		if i < 0 {
			rest.WriteString(line)
			continue
		}
		// The whole line is the logpoint's, with any prefix the adapter
		// puts before the message (Delve's "> [Go 1]: ";
		// docs/adapter-quirks.md, delve-18).
		s.recordLogpointHit(strings.TrimRight(line[i+len(traceMarker):], "\r\n"))
	}
	return rest.String()
}

// recordLogpointHit records one tracepoint report: "ID\x1fv1\x1fv2…".
func (s *Session) recordLogpointHit(report string) {
	fields := strings.Split(report, traceSep)
	id, err := strconv.Atoi(fields[0])
	if err != nil {
		return
	}
	s.mu.Lock()
	bp := s.bps.lineByID(id)
	if bp == nil || (bp.MaxHits > 0 && bp.Hits >= bp.MaxHits) {
		// Removed, or past maxHits before the removal reached the adapter.
		s.mu.Unlock()
		return
	}
	bp.Hits++
	if s.r != nil {
		s.r.markHitsLocked(id)
	}
	e := TraceEntry{Kind: TraceHit, BreakpointID: id, File: bp.File, Line: bp.Line}
	var count func(string) (int, bool)
	if s.r != nil {
		count = s.r.conn.Quirks.ElementCount
	}
	holds := false
	for i, name := range bp.Collect {
		v := TraceValue{Name: name}
		if i+1 < len(fields) {
			v.Value, _, _ = shapeValue(name, fields[i+1], 0, snapshotValueLen)
			if n, ok := countOf(count, fields[i+1]); ok && n > 0 && !bp.holdsContainers {
				bp.holdsContainers, holds = true, true
			}
		} else {
			v.Error = "no value reported"
		}
		e.Values = append(e.Values, v)
	}
	done := bp.MaxHits > 0 && bp.Hits == bp.MaxHits
	s.mu.Unlock()
	s.trace.Add(e)
	if holds {
		s.trace.Add(TraceEntry{Kind: TraceNote, BreakpointID: id, Note: fmt.Sprintf("tracepoint %d collects a container that this debugger's logpoints show by its size alone: from the next run on (restart_debugging) it stops, evaluates and continues at its line, to show the first elements", id)})
	}
	if done {
		s.retireTracepoint(id)
	}
}

// countOf applies an adapter's ElementCount, if it has one.
func countOf(count func(string) (int, bool), value string) (int, bool) {
	if count == nil {
		return 0, false
	}
	return count(value)
}

// retireTracepoint removes a tracepoint that reached maxHits, on a
// goroutine of its own (this runs on the event loop, which must not wait
// for the adapter's answer to events it has yet to read). The goroutine
// ends within removeTimeout.
func (s *Session) retireTracepoint(id int) {
	s.trace.Add(TraceEntry{Kind: TraceNote, BreakpointID: id, Note: fmt.Sprintf("tracepoint %d reached maxHits and was removed", id)})
	go s.removeTemporary(context.Background(), id)
}

// tracepointsHitLocked returns the tracepoints (and emulated logpoints) a
// stop is for, when it is for nothing else (the session answers such stops
// itself). Adapters that do not say which breakpoints were hit (rdbg) are
// asked where the stop is, with s.mu released meanwhile; the caller checks
// s.r again. s.mu is held.
func (s *Session) tracepointsHitLocked(r *connection, st *Stop) []*Breakpoint {
	if st.Reason != "breakpoint" {
		return nil
	}
	emulated := r.emulatesLogpoints()
	if len(st.HitBreakpointIDs) == 0 {
		if !s.bps.hasSessionAnswered(emulated) {
			return nil
		}
		s.mu.Unlock()
		file, line := topLocation(r, st.ThreadID)
		s.mu.Lock()
		for _, bp := range s.bps.linesAt(file) {
			if bp.Line == line && bp.answeredBySession(emulated) {
				return []*Breakpoint{bp}
			}
		}
		return nil
	}
	var tps []*Breakpoint
	for _, id := range st.HitBreakpointIDs {
		bp := s.bps.lineByID(id)
		if bp == nil || !bp.answeredBySession(emulated) {
			return nil
		}
		tps = append(tps, bp)
	}
	return tps
}

// topLocation is the source path and line of a thread's top frame.
func topLocation(r *connection, threadID int) (string, int) {
	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	defer cancel()
	f, err := topFrame(ctx, r, threadID)
	if err != nil || f.Source == nil {
		return "", f.Line
	}
	return f.Source.Path, f.Line
}

// topFrame is a thread's top frame, its name as the session shows it.
func topFrame(ctx context.Context, r *connection, threadID int) (dap.StackFrame, error) {
	var stack dap.StackTraceResponseBody
	if err := r.call(ctx, "stackTrace", map[string]any{"threadId": threadID, "startFrame": 0, "levels": 1}, &stack); err != nil {
		return dap.StackFrame{}, err
	}
	if len(stack.StackFrames) == 0 {
		return dap.StackFrame{}, errors.New("no stack")
	}
	renameFrames(stack.StackFrames, r.conn.Quirks)
	return stack.StackFrames[0], nil
}

// traceAndContinue answers a stop at tracepoints for an adapter without
// interpolating logpoints: collect the values in the top frame, record
// them, and continue; at emulated logpoints, write their messages to the
// output. It runs on the event loop; the stop never reaches the agent.
func (s *Session) traceAndContinue(r *connection, st *Stop, tps []*Breakpoint) {
	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	defer cancel()
	top, err := topFrame(ctx, r, st.ThreadID)
	var frame *dap.StackFrame
	if err == nil {
		frame = &top
	}
	var retire []int
	for _, bp := range tps {
		s.mu.Lock()
		message := bp.LogMessage
		logpoint := bp.isLogpoint()
		s.mu.Unlock()
		if logpoint {
			s.writeLogpoint(ctx, r, frame, message, err)
			continue
		}
		s.mu.Lock()
		over := bp.MaxHits > 0 && bp.Hits >= bp.MaxHits
		if !over {
			bp.Hits++
		}
		collect := append([]string(nil), bp.Collect...)
		done := bp.MaxHits > 0 && bp.Hits == bp.MaxHits && !over
		s.mu.Unlock()
		if over {
			continue
		}
		e := TraceEntry{Kind: TraceHit, Time: st.Time, BreakpointID: bp.ID, File: bp.File, Line: bp.Line, ThreadID: st.ThreadID}
		if frame != nil {
			e.Function = frame.Name
			e.Values = evalAll(ctx, r, frame.Id, collect)
		} else {
			e.Note = fmt.Sprintf("no stack frame to evaluate in: %v", err)
		}
		e.CostMs = float64(time.Since(st.Time).Microseconds()) / 1000
		s.trace.Add(e)
		if done {
			retire = append(retire, bp.ID)
		}
	}
	if err := r.call(ctx, "continue", map[string]any{"threadId": st.ThreadID}, nil); err != nil {
		s.log.Warn("continuing after a tracepoint", "err", err)
	}
	for _, id := range retire {
		s.retireTracepoint(id)
	}
}

// evalAll evaluates expressions in a frame, all at once; a failure becomes
// the value's Error.
func evalAll(ctx context.Context, r *connection, frameID int, exprs []string) []TraceValue {
	out := make([]TraceValue, len(exprs))
	for i, e := range r.evaluateAll(ctx, frameID, exprs) {
		out[i].Name = exprs[i]
		if e.err != nil {
			out[i].Error = e.err.Error()
			continue
		}
		out[i].Value, _, _ = shapeValue(exprs[i], e.body.Result, e.body.VariablesReference, snapshotValueLen)
	}
	return out
}
