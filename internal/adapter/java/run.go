package java

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// eventTimeout bounds the JDWP work done for one event (a condition's
// evaluation, resolving breakpoints of a class just loaded).
const eventTimeout = 30 * time.Second

// stop is one suspension of the VM that is shown to the client: each
// holds one suspension count, released by the resume that ends it.
type stop struct {
	reason      string
	description string
	thread      jdwp.ObjectID
	bpIDs       []int
	// exception is the thrown object, for an exception stop; text its
	// class, which the stopped event's text names as the reference's does.
	exception jdwp.ObjectID
	text      string
	uncaught  bool
	// ret is the value the method a step out left returned.
	ret *returnWatch
	// data is what was read of the stopped thread during the stop.
	data *stopData
}

// threadTable numbers JVM threads for DAP, stably and from 1.
type threadTable struct {
	mu   sync.Mutex
	ids  map[jdwp.ObjectID]int
	objs map[int]jdwp.ObjectID
}

func newThreadTable() *threadTable {
	return &threadTable{ids: map[jdwp.ObjectID]int{}, objs: map[int]jdwp.ObjectID{}}
}

func (t *threadTable) id(o jdwp.ObjectID) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[o]; ok {
		return id
	}
	id := len(t.ids) + 1
	t.ids[o], t.objs[id] = id, o
	return id
}

func (t *threadTable) object(id int) (jdwp.ObjectID, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	o, ok := t.objs[id]
	return o, ok
}

// eventLoop handles the VM's events until the connection ends, then
// reports the end of the program.
func (s *server) eventLoop() {
	defer s.finish()
	for set := range s.vm.Events() {
		s.handleSet(set)
	}
}

// handleSet decides what a composite event means: a stop to show, work
// to do (breakpoints in a class just prepared), or the end.
func (s *server) handleSet(set *jdwp.EventSet) {
	ctx, cancel := context.WithTimeout(s.ctx, eventTimeout)
	defer cancel()
	var st *stop
	suspended := set.SuspendPolicy != jdwp.SuspendNone
	for _, e := range set.Events {
		switch e.Kind {
		case jdwp.EventVMStart:
			s.threads.id(e.Thread)
			select {
			case <-s.vmStart:
			default:
				close(s.vmStart)
			}
			// Released by configurationDone (launch) or at attach.
			suspended = false
		case jdwp.EventVMDeath:
			s.mu.Lock()
			s.ended = true
			s.mu.Unlock()
		case jdwp.EventClassPrepare:
			if e.RequestID == s.loadReq.Load() {
				close(s.loaded)
				continue
			}
			s.bps.classPrepared(ctx, e.TypeID, e.Signature)
		case jdwp.EventBreakpoint:
			if ids, reason := s.bps.hit(ctx, e); len(ids) > 0 || reason != "" {
				if st == nil || st.reason == "step" {
					st = &stop{reason: "breakpoint", thread: e.Thread}
				}
				if reason != "" {
					st.reason = reason
				}
				st.bpIDs = append(st.bpIDs, ids...)
			}
		case jdwp.EventSingleStep:
			s.mu.Lock()
			note := s.stepNote
			s.mu.Unlock()
			w := s.clearStep(ctx)
			if st == nil {
				st = &stop{reason: "step", thread: e.Thread, description: note}
				if w != nil && w.value != nil && w.thread == e.Thread {
					st.ret = w
				}
			}
		case jdwp.EventMethodExitRV:
			s.returned(e)
		case jdwp.EventException:
			if !s.bps.wantException(ctx, e) {
				continue
			}
			s.clearStep(ctx)
			if st == nil {
				st = &stop{reason: "exception", thread: e.Thread, exception: e.Exception.Object, uncaught: s.bps.uncaught(ctx, e)}
				st.description = s.exceptionSummary(ctx, e.Thread, e.Exception.Object)
				st.text, _ = s.exceptionParts(ctx, e.Exception.Object)
			}
		}
	}
	switch {
	case st != nil && suspended:
		if st.reason == "breakpoint" {
			s.clearStep(ctx)
		}
		s.stopped(st)
	case suspended:
		if err := s.vm.Resume(ctx); err != nil {
			s.log.Debug("java adapter: resume after event", "err", err)
		}
	}
}

// clearStep removes the single-step request in flight, and the watch for
// a return value that goes with a step out, which it returns: a stop for
// any reason ends the step.
func (s *server) clearStep(ctx context.Context) *returnWatch {
	s.mu.Lock()
	id, w := s.stepReq, s.ret
	s.stepReq, s.ret, s.stepNote = 0, nil, ""
	s.mu.Unlock()
	if id != 0 {
		if err := s.vm.ClearEvent(ctx, jdwp.EventSingleStep, id); err != nil {
			s.log.Debug("java adapter: clear step", "err", err)
		}
	}
	if w != nil {
		if err := s.vm.ClearEvent(ctx, jdwp.EventMethodExitRV, w.req); err != nil {
			s.log.Debug("java adapter: clear method exit request", "err", err)
		}
	}
	return w
}

// stopped shows a stop, or queues it while another is shown.
func (s *server) stopped(st *stop) {
	st.data = newStopData(s, st.thread)
	s.mu.Lock()
	if s.paused {
		s.pending = append(s.pending, st)
		s.mu.Unlock()
		return
	}
	s.paused, s.cur = true, st
	s.mu.Unlock()
	s.sendStopped(st)
}

func (s *server) sendStopped(st *stop) {
	s.firstStopOnce.Do(func() { close(s.firstStop) })
	s.prefetch(st)
	s.Event("stopped", godap.StoppedEventBody{
		Reason:            st.reason,
		Description:       st.description,
		Text:              st.text,
		ThreadId:          s.threads.id(st.thread),
		AllThreadsStopped: true,
		HitBreakpointIds:  st.bpIDs,
	})
}

// finish reports the end of the program once: its last output, its exit
// code when we launched it, then terminated.
func (s *server) finish() {
	s.endOnce.Do(func() {
		s.mu.Lock()
		s.ended = true
		s.mu.Unlock()
		if s.closing.Load() || s.ctx.Err() != nil {
			return
		}
		if s.jvm != nil {
			s.jvm.drain()
			if code, ok := s.jvm.exitCode(); ok {
				s.Event("exited", godap.ExitedEventBody{ExitCode: code})
			}
		}
		s.Event("terminated", nil)
	})
}

// resume releases the shown stop: every thread runs on, unless a stop
// that happened meanwhile is waiting, which is shown at once instead
// (its own suspension still holds the VM).
func (s *server) resume(ctx context.Context, before func() error) error {
	s.mu.Lock()
	if !s.paused {
		s.mu.Unlock()
		return errors.New("the program is not paused")
	}
	s.mu.Unlock()
	if before != nil {
		if err := before(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.handles.reset()
	s.paused, s.cur = false, nil
	s.mu.Unlock()
	if err := s.vm.Resume(ctx); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	s.mu.Lock()
	var next *stop
	if len(s.pending) > 0 {
		next = s.pending[0]
		s.pending = s.pending[1:]
		s.paused, s.cur = true, next
	}
	s.mu.Unlock()
	if next != nil {
		s.sendStopped(next)
	}
	return nil
}

func (s *server) continueRequest(ctx context.Context, _ *request) (any, error) {
	if err := s.resume(ctx, nil); err != nil {
		return nil, err
	}
	return godap.ContinueResponseBody{AllThreadsContinued: true}, nil
}

// step resumes with a single-step request on the thread; JDK code is
// skipped (the step ends in the program's code).
// docs/adapter-quirks.md: jvm-3.
func (s *server) step(ctx context.Context, req *request, depth int32) (any, error) {
	var args struct {
		ThreadID int `json:"threadId"`
	}
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	thread, ok := s.threads.object(args.ThreadID)
	if !ok {
		return nil, fmt.Errorf("unknown thread %d", args.ThreadID)
	}
	note := ""
	if depth != jdwp.StepOut {
		if where, ok := s.withoutLines(ctx, thread); ok {
			// A pause lands in JDK code such as the native Thread.sleep
			// (line 0): a line step from there never reaches a line of
			// the program's and the program ran on (JDK 17 measured).
			// Stepping out returns to the program's code; the step out
			// of each JDK frame on the way is filtered, and stepping
			// goes on to it.
			depth = jdwp.StepOut
			note = "stepped out of " + where + ", which has no lines of the program's to step by"
		}
	}
	return nil, s.resume(ctx, func() error {
		s.clearStep(ctx)
		if depth == jdwp.StepOut {
			s.watchReturn(ctx, thread)
		}
		mods := []jdwp.Modifier{jdwp.StepModifier(thread, jdwp.StepLine, depth)}
		for _, p := range jdkPrefixes {
			mods = append(mods, jdwp.ClassExclude(p+"*"))
		}
		id, err := s.vm.SetEvent(ctx, jdwp.EventSingleStep, jdwp.SuspendAll, mods...)
		if err != nil {
			return fmt.Errorf("step: %w", err)
		}
		s.mu.Lock()
		s.stepReq, s.stepNote = id, note
		s.mu.Unlock()
		return nil
	})
}

// withoutLines reports whether thread's top frame has no line of the
// program's to step by (JDK code, or a method without line numbers), and
// names that frame.
func (s *server) withoutLines(ctx context.Context, thread jdwp.ObjectID) (string, bool) {
	frames, _, err := s.threadFrames(ctx, thread)
	if err != nil || len(frames) == 0 {
		return "", false
	}
	l := frames[0].Location
	if !isJDKClass(s.types.className(ctx, l.Class)) && s.types.lineOf(ctx, l) > 0 {
		return "", false
	}
	return s.describeFrame(ctx, 0, l).Name, true
}

// pause suspends every thread and shows the one asked for (else main, else
// the first).
func (s *server) pause(ctx context.Context, req *request) (any, error) {
	var args struct {
		ThreadID int `json:"threadId"`
	}
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	s.mu.Lock()
	paused := s.paused
	s.mu.Unlock()
	if paused {
		return nil, nil
	}
	if err := s.vm.Suspend(ctx); err != nil {
		return nil, fmt.Errorf("pause: %w", err)
	}
	thread, ok := s.threads.object(args.ThreadID)
	if !ok {
		var err error
		if thread, err = s.pauseThread(ctx); err != nil {
			_ = s.vm.Resume(ctx)
			return nil, err
		}
	}
	st := &stop{reason: "pause", thread: thread}
	s.AfterReply(func() { s.stopped(st) })
	return nil, nil
}

// pauseThread picks the thread a pause shows: main, else the first live
// one that runs the program's code.
func (s *server) pauseThread(ctx context.Context) (jdwp.ObjectID, error) {
	ids, err := s.vm.AllThreads(ctx)
	if err != nil {
		return 0, fmt.Errorf("list threads: %w", err)
	}
	if len(ids) == 0 {
		return 0, errors.New("the JVM has no threads")
	}
	for _, t := range ids {
		if name, err := s.vm.ThreadName(ctx, t); err == nil && name == "main" {
			return t, nil
		}
	}
	return ids[0], nil
}

func (s *server) threadsRequest(ctx context.Context, _ *request) (any, error) {
	body := godap.ThreadsResponseBody{Threads: []godap.Thread{}}
	if s.vm == nil {
		return body, nil
	}
	s.mu.Lock()
	ended := s.ended
	s.mu.Unlock()
	if ended {
		return body, nil
	}
	ids, err := s.vm.AllThreads(ctx)
	if err != nil {
		return nil, fmt.Errorf("list threads: %w", err)
	}
	for _, t := range ids {
		name, err := s.vm.ThreadName(ctx, t)
		if err != nil {
			continue
		}
		if status, suspended, err := s.vm.ThreadStatus(ctx, t); err == nil {
			name += " (" + threadState(status) + s.monitorHolder(ctx, t, status, suspended) + ")"
		}
		body.Threads = append(body.Threads, godap.Thread{Id: s.threads.id(t), Name: name})
	}
	return body, nil
}

func threadState(status int32) string {
	switch status {
	case jdwp.ThreadZombie:
		return "terminated"
	case jdwp.ThreadRunning:
		return "running"
	case jdwp.ThreadSleeping:
		return "sleeping"
	case jdwp.ThreadMonitor:
		return "blocked"
	case jdwp.ThreadWait:
		return "waiting"
	}
	return "unknown"
}

// entryClass is the class whose main a stop on entry waits for.
func (lc *launchConfig) entryClass() string {
	switch {
	case lc.MainClass != "":
		return lc.MainClass
	case strings.HasSuffix(lc.Program, ".java"):
		return strings.TrimSuffix(filepath.Base(lc.Program), ".java")
	}
	return ""
}

func dirOf(p string) string { return filepath.Dir(p) }
