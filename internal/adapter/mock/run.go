package mock

import (
	"errors"
	"fmt"
	"time"

	godap "github.com/google/go-dap"
)

type stepKind int

const (
	stepNone stepKind = iota
	stepInto
	stepOver
	stepOut
)

// step is a step request in progress: its kind and the stack depth it
// started at.
type step struct {
	kind  stepKind
	depth int
}

// done reports whether a statement start at depth ends the step. Stepping
// is statement-granular: stepIn stops at the very next statement start
// (inside a called function if the line calls one); next at the next one
// not deeper than where it began; stepOut at the next one shallower, i.e.
// in the caller once the calling statement has completed.
func (st step) done(depth int) bool {
	switch st.kind {
	case stepInto:
		return true
	case stepOver:
		return depth <= st.depth
	case stepOut:
		return depth < st.depth
	}
	return false
}

// stopInfo says why the program stopped.
type stopInfo struct {
	reason    string
	hitIDs    []int
	exc       *raised
	breakMode godap.ExceptionBreakMode
}

// stackEntry is a frame with the id it has for this stop.
type stackEntry struct {
	id int
	fr *frame
}

// stopState is the program as it stands while stopped; it stays unchanged
// until the next resume, so the serve goroutine reads it freely then.
type stopState struct {
	info   stopInfo
	thread *thread
	frames []stackEntry // innermost first
}

// statement is the program's stop point, called at every statement start
// on the program's goroutine.
func (s *server) statement(t *thread, fr *frame, first bool) error {
	select {
	case <-s.quit:
		return errTerminated
	default:
	}
	s.mu.Lock()
	entry := s.pendingEntry
	s.pendingEntry = false
	pause := s.pauseRequested
	st := s.step
	var lineBPs, fnBPs []*breakpoint
	if set := s.lineBPs[t.prog.path]; set != nil {
		lineBPs = set.by[fr.line]
	}
	if first && fr.fn != nil {
		fnBPs = s.funcBPs.by[fr.fn.name]
	}
	s.mu.Unlock()

	// The entry stop comes before the first statement does anything, so
	// breakpoints on that statement are not considered.
	if entry {
		return s.stopHere(t, stopInfo{reason: "entry"})
	}
	lineHits := s.hits(t, fr, lineBPs)
	fnHits := s.hits(t, fr, fnBPs)
	var info stopInfo
	switch {
	case len(lineHits) > 0:
		info = stopInfo{reason: "breakpoint", hitIDs: append(lineHits, fnHits...)}
	case len(fnHits) > 0:
		info = stopInfo{reason: "function breakpoint", hitIDs: fnHits}
	case pause:
		info = stopInfo{reason: "pause"}
	case st.done(len(t.stack)):
		info = stopInfo{reason: "step"}
	default:
		return nil
	}
	return s.stopHere(t, info)
}

// stopHere stops the program and blocks until the debugger resumes or ends
// it. Any stop completes a pending pause or step.
func (s *server) stopHere(t *thread, info stopInfo) error {
	s.mu.Lock()
	s.pauseRequested = false
	s.step = step{}
	frames := make([]stackEntry, 0, len(t.stack))
	for i := len(t.stack) - 1; i >= 0; i-- {
		s.nextFrameID++
		frames = append(frames, stackEntry{id: s.nextFrameID, fr: t.stack[i]})
	}
	s.stop = &stopState{info: info, thread: t, frames: frames}
	s.state = paused
	s.mu.Unlock()

	body := godap.StoppedEventBody{Reason: info.reason, ThreadId: 1, AllThreadsStopped: true, HitBreakpointIds: info.hitIDs}
	if info.exc != nil {
		body.Description, body.Text = info.exc.msg, info.exc.msg
	}
	s.Event("stopped", body)
	select {
	case <-s.resume:
		return nil
	case <-s.quit:
		return errTerminated
	}
}

// excFilters are the exception filters set by setExceptionBreakpoints.
type excFilters struct {
	all, uncaught bool
}

// exception stops where an exception was raised, if a filter asks for it.
// Nothing in the language catches, so every exception is uncaught: the
// program ends however it is resumed.
func (s *server) exception(t *thread, r *raised) error {
	s.mu.Lock()
	filters := s.exc
	s.mu.Unlock()
	var mode godap.ExceptionBreakMode
	switch {
	case filters.all:
		mode = "always"
	case filters.uncaught:
		mode = "unhandled"
	default:
		return nil
	}
	return s.stopHere(t, stopInfo{reason: "exception", exc: r, breakMode: mode})
}

// sleep waits d. A pause request stops the program inside the sleep (on
// its line); the rest of the sleep runs after the resume.
func (s *server) sleep(t *thread, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil
		}
		timer := time.NewTimer(left)
		select {
		case <-timer.C:
			return nil
		case <-s.quit:
			timer.Stop()
			return errTerminated
		case <-s.wake:
			timer.Stop()
			s.mu.Lock()
			pause := s.pauseRequested
			s.mu.Unlock()
			if !pause {
				continue // a token left by a pause already served elsewhere
			}
			stoppedAt := time.Now()
			if err := s.stopHere(t, stopInfo{reason: "pause"}); err != nil {
				return err
			}
			deadline = deadline.Add(time.Since(stoppedAt))
		}
	}
}

// yield keeps a busy loop from taking a whole core while it stays running
// and pausable.
func (s *server) yield() error {
	timer := time.NewTimer(time.Millisecond)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-s.quit:
		return errTerminated
	}
}

// stateError says why a request that needs a stopped program cannot be
// served in state st.
func stateError(st runState) error {
	switch st {
	case running:
		return errors.New("thread is not paused")
	case notStarted:
		return errors.New("the program has not started yet (it starts at configurationDone)")
	case ended:
		return errors.New("the program has exited")
	}
	return nil
}

func checkThread(id int) error {
	if id != 1 {
		return fmt.Errorf("unknown thread %d (the program's only thread is 1)", id)
	}
	return nil
}

type threadArgs struct {
	ThreadID int `json:"threadId"`
}

// resumeWith serves continue and the steps. The response goes out before
// the program moves, so that it precedes the next stopped event.
func (s *server) resumeWith(req *request, kind stepKind) (any, error) {
	var args threadArgs
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if err := checkThread(args.ThreadID); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.state != paused {
		err := stateError(s.state)
		s.mu.Unlock()
		return nil, err
	}
	s.step = step{kind: kind, depth: len(s.stop.thread.stack)}
	s.stop = nil
	s.state = running
	s.mu.Unlock()
	s.handles = map[int]*handle{}
	s.AfterReply(func() { s.resume <- struct{}{} })
	if kind == stepNone {
		return godap.ContinueResponseBody{AllThreadsContinued: true}, nil
	}
	return nil, nil
}

// pause asks the program to stop at its next statement start (or inside
// the sleep it is in). Pausing a paused program does nothing.
func (s *server) pause(req *request) (any, error) {
	var args threadArgs
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if err := checkThread(args.ThreadID); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case running:
		s.pauseRequested = true
		select {
		case s.wake <- struct{}{}:
		default:
		}
	case paused:
	default:
		return nil, stateError(s.state)
	}
	return nil, nil
}
