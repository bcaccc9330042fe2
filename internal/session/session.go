// Package session runs one debug session: the state machine, the DAP
// handshake, the breakpoint registry, the output buffer, stop snapshots and
// waiting for stops. It knows DAP and the adapter boundary, never MCP.
package session

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// State is where a session is in its life.
type State string

// Session states. A session goes created → initializing → running ⇄ paused
// → stopped; error records a failure (an adapter crash, say) and, like
// stopped, allows a new start.
const (
	StateCreated      State = "created"
	StateInitializing State = "initializing"
	StateRunning      State = "running"
	StatePaused       State = "paused"
	StateStopped      State = "stopped"
	StateError        State = "error"
)

// DefaultHandshakeTimeout bounds start and attach when the adapter does not
// ask for more (adapters that build the program do).
const DefaultHandshakeTimeout = 30 * time.Second

// disconnectTimeout bounds the polite goodbye before processes are killed.
const disconnectTimeout = 3 * time.Second

// Options configure a new session.
type Options struct {
	Name           string
	ExecutablePath string
	Host           string
	Port           int
	// AdapterConfig is merged into every launch and attach request.
	AdapterConfig map[string]any
	Logger        *slog.Logger
	// PathBase is the directory relative paths in calls resolve against
	// (the server's working directory); paths in stack trace texts under
	// it are shown relative to it.
	PathBase string
}

// Error is a failure a tool reports to the agent: what went wrong and what
// to do next.
type Error struct {
	Msg  string
	Hint string
	Err  error
}

func (e *Error) Error() string {
	if e.Err != nil && e.Msg == "" {
		return e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(hint, format string, args ...any) *Error {
	err := fmt.Errorf(format, args...)
	return &Error{Msg: err.Error(), Hint: hint, Err: errors.Unwrap(err)}
}

// StateChange is one entry of the session's history.
type StateChange struct {
	State State     `json:"state"`
	Cause string    `json:"cause,omitempty"`
	Time  time.Time `json:"time"`
}

// Session is one debug session.
type Session struct {
	ID       string
	Language adapter.Language
	Created  time.Time

	adapter adapter.Adapter
	opts    Options
	log     *slog.Logger
	out     *OutputBuffer
	trace   *TraceBuffer
	// recs are the runs record made in this session (record.go).
	recs recordings
	// inputs hold the standard input given as text (input.go).
	inputs inputs
	// launches counts the programs the session has launched; each run's
	// processes carry a mark of their own (proc.RunMark).
	launches atomic.Int64

	// bpMu serialises breakpoint changes so that each file's set reaches
	// the adapter in order; it is never taken while s.mu is held.
	bpMu sync.Mutex

	mu       sync.Mutex
	state    State
	history  []StateChange
	updated  time.Time
	gen      uint64        // bumped on every change a waiter may care about
	changed  chan struct{} // closed and replaced when gen is bumped
	bps      *breakpointRegistry
	r        *connection // the current adapter connection; nil before the first start
	stop     *Stop       // the current stop, nil unless paused
	last     *Stop       // the most recent stop, kept after resuming
	exitCode *int
	// signal names the signal that killed the program ("SIGKILL"), as its
	// wait status said; exitCode is nil then.
	signal string
	// endUnseen: the program ended on its own and no answer has shown it
	// yet; the next run-control call answers with the end.
	endUnseen  bool
	spec       *startSpec // how the session was started, for restart
	snapCursor uint64     // output already shown in snapshots
	// shown is the source the latest answers showed (see shownSource);
	// shownStops counts the stops answered.
	shown      shownSource
	shownStops int

	watches     []Watch
	nextWatchID int
	// lastValues holds, per frame of this run (see stopKey), the locals and
	// watch values of the latest stop there, for Snapshot.Changed.
	lastValues map[string]map[string]string
	// shownLocals holds, per frame of this run (see stopKey), the locals
	// the latest answer that stopped there showed.
	shownLocals map[string]map[string]Variable
	// shownStop is the stop the latest snapshot showed.
	shownStop *Stop
	// recorder answers every stop while RecordByBreakpoints runs.
	recorder *bpRecorder
}

func newSession(id string, a adapter.Adapter, opts Options) *Session {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := time.Now()
	s := &Session{
		ID:       id,
		Language: a.Language(),
		Created:  now,
		adapter:  a,
		opts:     opts,
		log:      log.With("session", id),
		out:      NewOutputBuffer(),
		trace:    NewTraceBuffer(),
		state:    StateCreated,
		updated:  now,
		changed:  make(chan struct{}),
		bps:      newBreakpointRegistry(platform.Current()),
	}
	s.history = []StateChange{{State: StateCreated, Time: now}}
	return s
}

// Name is the session's human name.
func (s *Session) Name() string { return s.opts.Name }

// Output is the session's debuggee output.
func (s *Session) Output() *OutputBuffer { return s.out }

// Info is a summary of a session for listings.
type Info struct {
	ID       string
	Name     string
	Language string
	State    State
	Cause    string
	Created  time.Time
	Updated  time.Time
	LastStop *Stop
	ExitCode *int
	// Signal names the signal that killed the program, if one did.
	Signal  string
	History []StateChange
}

// Info returns the session's summary.
func (s *Session) Info() Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Info{
		ID:       s.ID,
		Name:     s.opts.Name,
		Language: s.Language.ID,
		State:    s.state,
		Cause:    s.history[len(s.history)-1].Cause,
		Created:  s.Created,
		Updated:  s.updated,
		LastStop: s.last,
		ExitCode: s.exitCode,
		Signal:   s.signal,
	}
}

// Exception is the exception the program stopped on, as the adapter
// described it (its exceptionInfo), once the stop's prefetch has it; nil
// before that, for other stops, and where the adapter has no such request.
func (st *Stop) Exception() *ExceptionInfo {
	select {
	case <-st.ready:
		return st.exception
	default:
		return nil
	}
}

// State returns the current state.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// setStateLocked records a state change and wakes waiters. s.mu is held.
func (s *Session) setStateLocked(st State, cause string) {
	now := time.Now()
	if st != s.state || cause != "" {
		s.history = append(s.history, StateChange{State: st, Cause: cause, Time: now})
		if len(s.history) > 64 {
			s.history = append(s.history[:1], s.history[len(s.history)-63:]...)
		}
	}
	s.state = st
	s.updated = now
	s.bumpLocked()
}

// programEndedLocked records that the program of run r ended on its own,
// and marks r's function breakpoints that never bound. s.mu is held.
func (s *Session) programEndedLocked(r *connection, cause string) {
	s.noteNeverBoundLocked(r)
	s.stop = nil
	s.setStateLocked(StateStopped, cause)
	s.endUnseen = true
}

// bumpLocked wakes everyone waiting for a change. s.mu is held.
func (s *Session) bumpLocked() {
	s.gen++
	close(s.changed)
	s.changed = make(chan struct{})
}

// requirePausedLocked returns the current run and stop, or an error that
// tells the agent what to do instead. s.mu is held.
func (s *Session) requirePausedLocked(action string) (*connection, *Stop, error) {
	switch s.state {
	case StatePaused:
		return s.r, s.stop, nil
	case StateRunning:
		return nil, nil, errorf("call pause_execution to stop it now, or wait_for_stop to wait for the next breakpoint", "cannot %s: the program is running", action)
	case StateCreated:
		return nil, nil, errorf("call start_debugging (or attach_to_process) first", "cannot %s: the session has not started a program yet", action)
	case StateInitializing:
		return nil, nil, errorf("wait_for_stop waits until it is ready", "cannot %s: the program is still starting", action)
	case StateError:
		return nil, nil, errorf("call restart_debugging, or close_debug_session and create a new one", "cannot %s: the session failed (%s)", action, s.history[len(s.history)-1].Cause)
	}
	return nil, nil, errorf("call restart_debugging to run it again, or get_output to read what it printed", "cannot %s: the program has ended (%s)", action, s.history[len(s.history)-1].Cause)
}

// requireConnectedLocked returns the current run if the adapter is connected.
func (s *Session) requireConnectedLocked(action string) (*connection, error) {
	if s.r == nil || s.r.ended() || s.state == StateStopped || s.state == StateError || s.state == StateCreated {
		_, _, err := s.requirePausedLocked(action)
		return nil, err
	}
	return s.r, nil
}

func (s *Session) quirks() adapter.Quirks {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r == nil {
		return adapter.Quirks{}
	}
	return s.r.conn.Quirks
}

// Close ends the session: every process the session started is killed,
// a program it launched included; a program it attached to, which someone
// else started, is detached from and keeps running. Closing twice is
// harmless.
func (s *Session) Close() {
	s.mu.Lock()
	r := s.r
	attached := s.spec != nil && s.spec.attach != nil
	s.mu.Unlock()
	if r != nil {
		r.shutdown(!attached)
	}
	s.recs.remove()
	s.inputs.remove()
	s.mu.Lock()
	if s.state != StateStopped {
		s.setStateLocked(StateStopped, "session closed")
	}
	s.mu.Unlock()
}

// Detach disconnects from the program, leaving it running unless terminate.
// A program the session launched ends all the same (terminated is then
// true): a session leaves no process of its own behind, and the adapter,
// its parent, ends with the connection anyway.
func (s *Session) Detach(terminate bool) (terminated bool, err error) {
	s.mu.Lock()
	r, err := s.requireConnectedLocked("detach")
	launched := s.spec != nil && s.spec.launch != nil
	s.mu.Unlock()
	if err != nil {
		return false, err
	}
	terminate = terminate || launched
	r.shutdown(terminate)
	s.mu.Lock()
	cause := "detached; the program keeps running"
	if terminate {
		cause = "detached and terminated the program"
	}
	s.setStateLocked(StateStopped, cause)
	s.mu.Unlock()
	return terminate, nil
}
