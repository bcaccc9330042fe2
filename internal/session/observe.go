package session

import (
	"context"
	"time"
)

// Observers (the live page, the IDE mirror) watch a session without
// driving it. They must never consume what the agent is owed: reading a
// View does not advance the snapshot's output cursor and does not flush
// unfinished output lines.

// Changed returns the session's change counter and a channel that is
// closed at its next change (a state change, a stop, the exit code), so an
// observer can wait without polling and without holding any lock.
func (s *Session) Changed() (uint64, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen, s.changed
}

// Arrived returns a channel closed when output next arrives.
func (b *OutputBuffer) Arrived() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.arrived
}

// Tail returns up to n of the newest stored output entries, oldest first,
// leaving unfinished lines pending for the agent's next snapshot.
func (b *OutputBuffer) Tail(n int) []OutputEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := max(0, len(b.entries)-n)
	return append([]OutputEntry(nil), b.entries[start:]...)
}

// StoredSince returns the stored output entries with seq > since, leaving
// unfinished lines pending.
func (b *OutputBuffer) StoredSince(since uint64) []OutputEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := 0
	for i < len(b.entries) && b.entries[i].Seq <= since {
		i++
	}
	return append([]OutputEntry(nil), b.entries[i:]...)
}

// View is what an observer shows of a session: where it stands and, when
// paused, where and why, with the stack and the top frame's locals as they
// were fetched at the stop.
type View struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Language    string `json:"language"`
	State       State  `json:"state"`
	Cause       string `json:"cause,omitempty"`
	Gen         uint64 `json:"gen"`
	StopReason  string `json:"stopReason,omitempty"`
	Description string `json:"description,omitempty"`
	ThreadID    int    `json:"threadId,omitempty"`
	// StoppedAt tells one stop from the next, even when an observer
	// missed the run between them.
	StoppedAt time.Time      `json:"stoppedAt,omitzero"`
	Location  *Location      `json:"location,omitempty"`
	Context   *SourceContext `json:"context,omitempty"`
	Stack     []Frame        `json:"stack,omitempty"`
	Locals    []Variable     `json:"locals,omitempty"`
	Watches   []WatchValue   `json:"watches,omitempty"`
	Changed   []Change       `json:"changed,omitempty"`
	Exception *ExceptionInfo `json:"exception,omitempty"`
	ExitCode  *int           `json:"exitCode,omitempty"`
}

// viewContextSide is how many lines either side of the current line the
// page shows: more than a model's snapshot, since a person scans it.
const viewContextSide = 8

// View builds the session's current view. It waits (bounded by ctx) for
// the current stop's prefetch, and sends nothing to the adapter.
func (s *Session) View(ctx context.Context) View {
	s.mu.Lock()
	v := View{
		ID:       s.ID,
		Name:     s.opts.Name,
		Language: s.Language.ID,
		State:    s.state,
		Cause:    s.history[len(s.history)-1].Cause,
		Gen:      s.gen,
		ExitCode: s.exitCode,
	}
	st := s.stop
	s.mu.Unlock()
	if st == nil {
		return v
	}
	select {
	case <-st.ready:
	case <-ctx.Done():
		return v
	}
	v.StopReason, v.Description, v.ThreadID, v.StoppedAt = st.Reason, st.Description, st.ThreadID, st.Time
	if v.Description == "" {
		v.Description = st.Text
	}
	v.Exception = st.exception
	v.Watches, v.Changed = st.watches, st.changed
	for _, f := range st.frames {
		v.Stack = append(v.Stack, frameFromDAP(f))
	}
	if len(st.frames) > 0 {
		f := st.frames[st.top]
		v.Location = &Location{Line: f.Line, Column: f.Column, Function: f.Name}
		if f.Source != nil {
			v.Location.File = f.Source.Path
			if c, err := ReadContext(f.Source.Path, f.Line, viewContextSide); err == nil {
				v.Context = &c
			}
		}
	}
	for _, dv := range filterSpecial(st.locals, false) {
		v.Locals = append(v.Locals, fromDAP(dv, snapshotValueLen))
	}
	return v
}
