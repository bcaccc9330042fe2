package session

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// RunToTarget is where run_to runs to: a line of File (by number, or by
// Statement, a content anchor), or the entry of Function.
type RunToTarget struct {
	File      string
	Line      int
	Statement string
	Function  string
}

// RunToResult is the stop run_to ended on, and whether it is the target.
type RunToResult struct {
	Snapshot *Snapshot
	// Reached is false when something else stopped the program first (a
	// breakpoint, an exception, the end) or the wait timed out.
	Reached bool
	// Target names the target as resolved ("orders.py:42", "weigh()").
	Target string
}

// removeTimeout bounds the removal of a temporary breakpoint, which must
// happen even when the call that placed it was cancelled.
const removeTimeout = 5 * time.Second

// RunTo places a temporary breakpoint on the target, continues (or, if the
// program is already running, waits), and removes the breakpoint whatever
// happens. A breakpoint already on the target is used and kept.
func (s *Session) RunTo(ctx context.Context, t RunToTarget, threadID int, timeout time.Duration) (*RunToResult, error) {
	s.mu.Lock()
	state := s.state
	if state != StatePaused && state != StateRunning {
		_, _, err := s.requirePausedLocked("run to a line")
		s.mu.Unlock()
		return nil, err
	}
	s.mu.Unlock()

	res := &RunToResult{}
	var tempID int
	var line int
	if t.Function != "" {
		fb, existing, err := s.addFunctionBreakpoint(ctx, &FunctionBreakpoint{FunctionName: t.Function, internal: true})
		if err != nil {
			return nil, err
		}
		res.Target = t.Function + "()"
		if !existing {
			tempID = fb.ID
		}
	} else {
		set, err := s.SetBreakpoint(ctx, LineBreakpointRequest{File: t.File, Line: t.Line, Statement: t.Statement, NearLine: t.Line, Temporary: true})
		if err != nil {
			return nil, err
		}
		line = set.Breakpoint.Line
		res.Target = fmt.Sprintf("%s:%d", filepath.Base(t.File), line)
		if !set.Existing {
			tempID = set.Breakpoint.ID
		}
	}
	if tempID != 0 {
		defer s.removeTemporary(ctx, tempID)
	}

	var snap *Snapshot
	var err error
	if state == StatePaused {
		snap, err = s.Resume(ctx, Continue, threadID, WaitOptions{Wait: true, Timeout: timeout})
	} else {
		snap, err = s.WaitForStop(ctx, timeout)
	}
	if err != nil {
		return nil, err
	}
	res.Snapshot = snap
	if snap.State == StatePaused && snap.Location != nil {
		l := snap.Location
		res.Reached = (tempID != 0 && slices.Contains(snap.internalHits, tempID)) ||
			(t.Function == "" && samePath(s.bps.os, l.File, t.File) && l.Line == line) ||
			(t.Function != "" && functionMatches(l.Function, t.Function))
	}
	return res, nil
}

// removeTemporary removes a breakpoint run_to placed (or a tracepoint or
// trace that is done), on a context of its own: a cancelled call still
// cleans up.
func (s *Session) removeTemporary(ctx context.Context, id int) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), removeTimeout)
	defer cancel()
	if _, err := s.RemoveBreakpoints(ctx, RemoveMatch{ID: id}); err != nil {
		s.log.Warn("removing a temporary breakpoint", "id", id, "err", err)
	}
}

// functionMatches accepts a frame name that is the function or ends with it
// after a package or class qualifier ("main.weigh", "Order.total").
func functionMatches(frame, fn string) bool {
	frame = strings.TrimSuffix(frame, "()")
	return frame == fn || strings.HasSuffix(frame, "."+fn) || strings.HasSuffix(frame, "::"+fn)
}
