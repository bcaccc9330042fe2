package session

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Step kinds, named by their DAP requests.
const (
	Continue = "continue"
	StepOver = "next"
	StepInto = "stepIn"
	StepOut  = "stepOut"
)

var actionNames = map[string]string{
	Continue: "continue", StepOver: "step over", StepInto: "step into", StepOut: "step out",
}

// Resume continues or steps the program (kind is Continue, StepOver,
// StepInto or StepOut) on threadID (0: the thread that stopped), and with
// wait.Wait returns the snapshot of the next stop or of the end.
func (s *Session) Resume(ctx context.Context, kind string, threadID int, wait WaitOptions) (*Snapshot, error) {
	s.checkDebuggee()
	s.mu.Lock()
	unseen := s.state == StateStopped && s.endUnseen
	s.mu.Unlock()
	if unseen {
		// The program ended (killed while paused, say) since the last
		// answer: that end is this call's answer.
		return s.snapshotNow(ctx), nil
	}
	if !wait.Wait {
		if _, err := s.resume(ctx, kind, threadID); err != nil {
			return nil, err
		}
		return s.snapshotNow(ctx), nil
	}
	// The call's timeout bounds the request too, not only the wait after
	// it: an adapter that hangs (stopped, deadlocked) must not hold the
	// answer for the DAP default.
	deadline := time.Now().Add(wait.timeout())
	resumeCtx, cancel := context.WithDeadline(ctx, deadline)
	gen, err := s.resume(resumeCtx, kind, threadID)
	cancel()
	if err != nil {
		return nil, err
	}
	return s.waitSnapshot(ctx, gen, max(time.Until(deadline), 0))
}

// resume sends the run-control request and returns the generation a wait
// for the resulting stop must see pass.
func (s *Session) resume(ctx context.Context, kind string, threadID int) (uint64, error) {
	name, ok := actionNames[kind]
	if !ok {
		return 0, fmt.Errorf("unknown run-control request %q", kind)
	}
	s.mu.Lock()
	r, st, err := s.requirePausedLocked(name)
	if err != nil {
		s.mu.Unlock()
		return 0, err
	}
	if threadID == 0 {
		threadID = st.ThreadID
	}
	s.stop = nil
	s.setStateLocked(StateRunning, name)
	gen := s.gen
	r.resuming = kind
	r.stepFrom = originOf(st, kind)
	cleanPlans := kind == Continue && r.stepInterrupted
	r.stepInterrupted = r.stepInterrupted && kind != Continue
	s.mu.Unlock()

	args := map[string]any{"threadId": threadID}
	if kind != Continue {
		args["granularity"] = "line"
	}
	err = nil
	if hook := r.conn.Quirks.BeforeContinue; cleanPlans && hook != nil {
		err = hook(ctx, r.client.Call, threadID)
	}
	if err == nil {
		err = r.call(ctx, kind, args, nil)
	}
	if err != nil {
		s.mu.Lock()
		// Put the stop back unless the program moved on meanwhile.
		if s.gen == gen && s.r == r {
			s.stop = st
			s.setStateLocked(StatePaused, st.Reason)
		}
		s.mu.Unlock()
		hint := "the program is still paused where it was; check threadId with list_threads"
		if errors.Is(err, context.DeadlineExceeded) {
			hint = "the debug adapter did not answer within the call's timeout: it may be stuck; try again with a longer timeout, or close_debug_session ends it and the program"
		}
		return 0, &Error{Msg: fmt.Sprintf("%s failed: %v", name, err), Hint: hint, Err: err}
	}
	return gen, nil
}

// Pause interrupts a running program; with wait.Wait it returns the
// snapshot of the resulting stop. It never waits on the session lock held
// by another call, so it works while a continue is waiting.
func (s *Session) Pause(ctx context.Context, threadID int, wait WaitOptions) (*Snapshot, error) {
	s.mu.Lock()
	state, r, gen := s.state, s.r, s.gen
	s.mu.Unlock()
	switch state {
	case StatePaused:
		return s.snapshotNow(ctx), nil
	case StateRunning:
	default:
		s.mu.Lock()
		_, _, err := s.requirePausedLocked("pause")
		s.mu.Unlock()
		return nil, err
	}
	// As in Resume, a waiting call's timeout bounds the request too.
	deadline := time.Now().Add(wait.timeout())
	callCtx, cancel := ctx, context.CancelFunc(func() {})
	if wait.Wait {
		callCtx, cancel = context.WithDeadline(ctx, deadline)
	}
	defer cancel()
	if threadID == 0 {
		threadID = s.anyThread(callCtx, r)
	}
	if err := r.call(callCtx, "pause", map[string]any{"threadId": threadID}, nil); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("pause failed: %v", err), Hint: "check threadId with list_threads", Err: err}
	}
	if !wait.Wait {
		return s.snapshotNow(ctx), nil
	}
	return s.waitSnapshot(ctx, gen, max(time.Until(deadline), 0))
}

// anyThread picks a thread to pause: the last one that stopped, else the
// first the adapter lists, else 1.
func (s *Session) anyThread(ctx context.Context, r *connection) int {
	s.mu.Lock()
	last := s.last
	s.mu.Unlock()
	if last != nil && last.ThreadID != 0 {
		return last.ThreadID
	}
	if threads, err := r.threads(ctx); err == nil && len(threads) > 0 {
		return threads[0].Id
	}
	return 1
}
