package session

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// The debuggee's own end is watched, not only the adapter's word on it: an
// adapter whose program was killed while paused may never say so (Delve
// stays paused and answers continue with "no such process";
// docs/adapter-quirks.md, delve-19), and the exit
// codes adapters report for a killed program differ (debugpy 247, Delve
// -9, lldb-dap 9, or -1 while paused; the built-in adapters none). The
// process's wait status says how it ended, the same for every adapter.

// watchDebuggee starts watching the program's process, once per run; pids
// after the first (a program's own children) are not the debuggee.
func (r *connection) watchDebuggee(pid int) {
	if pid <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.debuggee != nil || r.cleanedUp {
		return
	}
	w, err := proc.Watch(pid)
	if err != nil {
		r.s.log.Debug("debuggee not watched", "pid", pid, "err", err)
		return
	}
	r.debuggee = w
	go func() {
		select {
		case <-w.Done():
			r.s.debuggeeEnded(r, w.Ending())
		case <-r.done:
		}
	}()
}

// watchProcessEvent watches the process a DAP process event names.
func (r *connection) watchProcessEvent(body json.RawMessage) {
	var b struct {
		SystemProcessID int `json:"systemProcessId"`
	}
	if json.Unmarshal(body, &b) == nil {
		r.watchDebuggee(b.SystemProcessID)
	}
}

// watchLaunchedDebuggee watches the program the adapter launched or
// attached to, if the adapter knows it but sent no process event for it.
func (r *connection) watchLaunchedDebuggee() {
	if r.conn.DebuggeePid != nil {
		r.watchDebuggee(r.conn.DebuggeePid())
	}
}

// debuggeeWatcher is the run's watcher, nil when the pid is unknown.
func (r *connection) debuggeeWatcher() *proc.Watcher {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.debuggee
}

// stopWatchingDebuggee ends the watch; part of the run's cleanup.
func (r *connection) stopWatchingDebuggee() {
	r.mu.Lock()
	w := r.debuggee
	r.cleanedUp = true
	r.mu.Unlock()
	if w != nil {
		w.Stop()
	}
}

// debuggeeEnding is how the debuggee ended if it has, asked now rather than
// left to the watcher's goroutine, so that an answer given right after the
// end already knows it.
func (r *connection) debuggeeEnding() (proc.Ending, bool) {
	w := r.debuggeeWatcher()
	if w == nil {
		return proc.Ending{}, false
	}
	return w.Ended()
}

// endingGrace bounds how long a terminated event waits for the watcher: a
// killed program's connections close (and the adapter says terminated)
// before the kernel has finished the process, so at that moment the
// watcher may not know the signal yet.
const endingGrace = 500 * time.Millisecond

// debuggeeEndingSoon is debuggeeEnding, waiting up to endingGrace for an
// end that is under way.
func (r *connection) debuggeeEndingSoon() (proc.Ending, bool) {
	w := r.debuggeeWatcher()
	if w == nil {
		return proc.Ending{}, false
	}
	select {
	case <-w.Done():
	case <-time.After(endingGrace):
	}
	return w.Ended()
}

// checkDebuggee applies the debuggee's end if it has ended.
func (s *Session) checkDebuggee() {
	s.mu.Lock()
	r := s.r
	s.mu.Unlock()
	if r == nil {
		return
	}
	if e, ended := r.debuggeeEnding(); ended {
		s.debuggeeEnded(r, e)
	}
}

// adapterEndGrace is how long a program that ended while running leaves
// its adapter to report the end itself: the adapter forwards the
// program's last output, then exited and terminated, after the process is
// gone (lldb-dap's came after our watcher's wake-up, and ending the run
// then lost the output).
const adapterEndGrace = 2 * time.Second

// debuggeeEnded records how the program ended and, if the session still
// thinks it paused or running, ends the session's run: the adapter may
// never notice (a program killed while paused under Delve).
func (s *Session) debuggeeEnded(r *connection, e proc.Ending) {
	s.mu.Lock()
	// An end we caused (close, detach, restart) is reported by whoever
	// caused it.
	if s.r != r || r.closing.Load() {
		s.mu.Unlock()
		return
	}
	s.recordEndingLocked(e)
	running := s.state == StateRunning
	s.mu.Unlock()
	if running {
		select {
		case <-r.done:
			return
		case <-time.After(adapterEndGrace):
		}
	}
	s.mu.Lock()
	live := s.r == r && !r.closing.Load() && (s.state == StatePaused || s.state == StateRunning)
	if live {
		s.programEndedLocked(r, s.endCauseLocked())
	}
	s.mu.Unlock()
	if live {
		go r.shutdown(true)
	}
}

// recordEndingLocked keeps what the wait status says over any number an
// adapter reported. s.mu is held.
func (s *Session) recordEndingLocked(e proc.Ending) {
	switch {
	case !e.Known:
		return
	case e.Signal != 0:
		s.signal = e.SignalName()
		s.exitCode = nil
	default:
		code := e.Code
		s.exitCode = &code
	}
	s.bumpLocked()
}

// endCauseLocked says how the program ended. s.mu is held.
func (s *Session) endCauseLocked() string {
	switch {
	case s.signal != "":
		return "program killed by " + s.signal
	case s.exitCode != nil:
		return fmt.Sprintf("program exited with code %d", *s.exitCode)
	}
	return "program terminated"
}

// exitedEventCode records an adapter's exited event: its code, unless the
// watcher saw how the program ended. The watcher is asked first, since the
// adapter reports the end only after the process is gone.
func (s *Session) exitedEventCode(r *connection, code int) {
	e, ended := r.debuggeeEnding()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r != r {
		return
	}
	if ended && e.Known {
		s.recordEndingLocked(e)
		return
	}
	if s.signal == "" {
		s.exitCode = &code
		s.bumpLocked()
	}
}
