package session

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// A hung program is read thread by thread: a Go deadlock took an agent a
// list_threads and one get_stack_trace per goroutine. AllThreads answers
// it in one look: every thread's stack, the program's frames only,
// identical stacks folded, each with what it waits on where the runtime's
// frames (or the adapter) tell.

// Bounds of one look at every thread.
const (
	// maxThreadsLooked is how many threads one look reads the stacks of
	// (Delve lists up to 1024 goroutines).
	maxThreadsLooked = 200
	// threadFramesRead is how many frames of each thread are read: the
	// runtime's frames above the program's (7 for a Go mutex) and enough
	// of the program's to see where it is.
	threadFramesRead = 40
	// maxWaitingLine bounds the source line a group shows.
	maxWaitingLine = 200
)

// ThreadGroup is threads whose stacks, as shown, are the same.
type ThreadGroup struct {
	// Count is how many threads the group has, ThreadIDs which (the
	// frame ids are the first one's).
	Count     int   `json:"count"`
	ThreadIDs []int `json:"threadIds"`
	// Name is the threads' distinct names (the first few).
	Name string `json:"name,omitempty"`
	// Waiting says what the threads wait on, when their stacks tell.
	Waiting string `json:"waiting,omitempty"`
	// Source is the text of the top frame's line: the call that waits.
	Source string `json:"source,omitempty"`
	// Frames are the program's frames, innermost first; MoreFrames how
	// many more of them were read below these.
	Frames     []Frame `json:"frames"`
	MoreFrames int     `json:"moreFrames,omitempty"`
	// Stopped: the group has the thread the program stopped on.
	Stopped bool `json:"stopped,omitempty"`

	// blocking and lock are the wait's kind (adapter.Wait).
	blocking, lock bool
	// names are the threads' distinct names.
	names []string
	// holder names the thread holding the lock waited on (adapter.Wait).
	holder string
}

// maxGroupNames bounds how many of a group's thread names it shows.
const maxGroupNames = 3

// namesOf is a group's name: its threads' distinct names, the first
// maxGroupNames of them.
func namesOf(names []string) string {
	if len(names) <= maxGroupNames {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxGroupNames], ", "), len(names)-maxGroupNames)
}

// AllThreads is every thread's stack at one stop.
type AllThreads struct {
	// Groups are the threads with frames of the program, folded: the
	// waiting ones first, then by size.
	Groups []ThreadGroup
	// Listed is how many threads the adapter listed, Looked how many of
	// them were read (at most maxThreadsLooked).
	Listed, Looked int
	// RuntimeOnly are the threads with no frame of the program (Go's
	// garbage collector, a JVM's reference handler).
	RuntimeOnly []int
	// Unreadable are the threads whose stacks the adapter would not give.
	Unreadable []int
	// Summary says what the waits add up to: a deadlock when every
	// thread of the program waits on another, else who waits on locks.
	Summary string

	// awakeElsewhere: a thread without frames of the program waits on
	// something that ends by itself (I/O, a timer), so it may yet act.
	awakeElsewhere bool
}

// AllThreadsRequest asks for every thread's stack.
type AllThreadsRequest struct {
	// Levels is at most how many of the program's frames each group
	// shows (at least 1).
	Levels int
	// IncludeInternals shows the runtime's and libraries' frames too.
	IncludeInternals bool
}

// AllThreads reads every thread's stack at the current stop and folds
// identical ones, saying what each waits on.
func (s *Session) AllThreads(ctx context.Context, req AllThreadsRequest) (*AllThreads, error) {
	r, st, err := s.pausedStop(ctx, "get every thread's stack")
	if err != nil {
		return nil, err
	}
	threads, err := r.threads(ctx)
	if err != nil {
		return nil, adapterError("list threads", err, "")
	}
	out := &AllThreads{Listed: len(threads), Looked: min(len(threads), maxThreadsLooked)}
	q := r.conn.Quirks
	byKey := map[string]int{}
	for _, t := range threads[:out.Looked] {
		chunk, err := s.fetchFrames(ctx, r, st, t.Id, 0, threadFramesRead)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("read the stack of thread %d: %w", t.Id, ctx.Err())
		}
		if err != nil {
			out.Unreadable = append(out.Unreadable, t.Id)
			continue
		}
		g, ok := threadGroup(t, chunk.frames, q, req)
		if !ok {
			out.RuntimeOnly = append(out.RuntimeOnly, t.Id)
			// A library's thread that waits on something of its own (I/O,
			// a timer) may yet wake the program's; one parked by the
			// runtime for its own work (Go's garbage collector) says no
			// wait and counts for nothing.
			out.awakeElsewhere = out.awakeElsewhere || g.Waiting != "" && !g.blocking
			continue
		}
		g.Stopped = t.Id == st.ThreadID
		key := groupKey(g)
		if i, seen := byKey[key]; seen {
			same := &out.Groups[i]
			same.Count++
			same.ThreadIDs = append(same.ThreadIDs, t.Id)
			same.Stopped = same.Stopped || g.Stopped
			if !slices.Contains(same.names, t.Name) {
				same.names = append(same.names, t.Name)
			}
			continue
		}
		g.names = []string{t.Name}
		byKey[key] = len(out.Groups)
		out.Groups = append(out.Groups, g)
	}
	for i := range out.Groups {
		out.Groups[i].Name = namesOf(out.Groups[i].names)
	}
	slices.SortStableFunc(out.Groups, func(a, b ThreadGroup) int {
		return cmp.Or(-cmp.Compare(rank(a), rank(b)), -cmp.Compare(a.Count, b.Count))
	})
	out.Summary = summarize(out)
	return out, nil
}

// rank orders groups: those waiting on a lock first, then other waits
// on another thread, then other waits, then the rest.
func rank(g ThreadGroup) int {
	switch {
	case g.lock:
		return 3
	case g.blocking:
		return 2
	case g.Waiting != "":
		return 1
	}
	return 0
}

// threadGroup is one thread's group: its frames of the program and what
// it waits on; ok is false when it has no frame of the program and
// internals are not asked for.
func threadGroup(t dap.Thread, frames []dap.StackFrame, q adapter.Quirks, req AllThreadsRequest) (ThreadGroup, bool) {
	g := ThreadGroup{Count: 1, ThreadIDs: []int{t.Id}, Name: t.Name}
	entries := make([]adapter.StackEntry, len(frames))
	firstUser := -1
	for i, f := range frames {
		path := ""
		if f.Source != nil {
			path = f.Source.Path
		}
		internal := isInternalFrame(f, q) || q.Library(f.Name, path)
		entries[i] = adapter.StackEntry{Name: f.Name, Path: path, Internal: internal}
		if !internal && firstUser < 0 {
			firstUser = i
		}
	}
	if q.WaitingOn != nil {
		if w, ok := q.WaitingOn(adapter.ThreadStack{Name: t.Name, Frames: entries, UserLine: userLine(frames, firstUser)}); ok {
			g.Waiting, g.blocking, g.lock, g.holder = w.What, w.Blocking, w.Lock, w.Holder
		}
	}
	if firstUser < 0 && !req.IncludeInternals {
		return g, false
	}
	levels := max(req.Levels, 1)
	for i, f := range frames {
		if !req.IncludeInternals && entries[i].Internal {
			continue
		}
		if len(g.Frames) == levels {
			g.MoreFrames++
			continue
		}
		g.Frames = append(g.Frames, frameFromDAP(f))
	}
	g.Source = userLine(frames, firstUser)
	return g, true
}

// userLine is the source text of frames[at], "" when at is -1 or the
// file cannot be read here.
func userLine(frames []dap.StackFrame, at int) string {
	if at < 0 {
		return ""
	}
	f := frameFromDAP(frames[at])
	c, err := ReadContext(f.File, f.Line, 0)
	if err != nil {
		return ""
	}
	line, _ := Cut(strings.TrimSpace(c.LineContent), maxWaitingLine)
	return line
}

// groupKey is what makes two threads' groups one: the same frames at the
// same lines, waiting on the same kind of thing.
func groupKey(g ThreadGroup) string {
	var b strings.Builder
	b.WriteString(g.Waiting)
	for _, f := range g.Frames {
		fmt.Fprintf(&b, "\x00%s\x00%s\x00%d", f.Name, f.File, f.Line)
	}
	fmt.Fprintf(&b, "\x00%d", g.MoreFrames)
	return b.String()
}

// maxNamedWaiters bounds how many waiting threads a summary names.
const maxNamedWaiters = 8

// summarize says what the threads' waits add up to. Every thread of the
// program waiting on another thread (a lock, a channel, a condition) is a
// deadlock: none of them can wake the others. Otherwise the threads that
// wait on locks are named, without calling it a deadlock: the threads
// that run may yet release them.
func summarize(all *AllThreads) string {
	if len(all.Groups) == 0 {
		return ""
	}
	var waiters []string
	locked, threads := 0, 0
	allBlocked := true
	for _, g := range all.Groups {
		threads += g.Count
		if !g.blocking {
			allBlocked = false
		}
		if !g.lock {
			continue
		}
		locked += g.Count
		where := ""
		if len(g.Frames) > 0 {
			where = fmt.Sprintf(" at %s:%d", filepath.Base(g.Frames[0].File), g.Frames[0].Line)
		}
		if g.Source != "" {
			where += " (" + g.Source + ")"
		}
		for _, id := range g.ThreadIDs {
			if len(waiters) < maxNamedWaiters {
				waiters = append(waiters, fmt.Sprintf("thread %d%s", id, where))
			}
		}
	}
	named := strings.Join(waiters, ", ")
	if locked > len(waiters) {
		named += fmt.Sprintf(" and %d more", locked-len(waiters))
	}
	partial := all.Looked < all.Listed || len(all.Unreadable) > 0
	if cycle := lockCycle(all.Groups); cycle != "" {
		return "deadlock: " + cycle
	}
	switch {
	case allBlocked && !partial && !all.awakeElsewhere:
		s := fmt.Sprintf("deadlock: all %d threads of the program wait on another thread (a lock, a channel, a condition), so none can go on", threads)
		if locked > 0 {
			s += fmt.Sprintf("; %d wait on locks: %s", locked, named)
		}
		return s
	case locked == 0:
		return ""
	}
	s := fmt.Sprintf("%d threads wait on locks: %s", locked, named)
	if locked == 1 {
		s = "1 thread waits on a lock: " + named
	}
	switch {
	case partial:
		return s + fmt.Sprintf("; %d of %d threads were read, so no deadlock is claimed", all.Looked-len(all.Unreadable), all.Listed)
	case all.awakeElsewhere:
		return s + "; a library's thread waits on I/O or a timer and may yet release them"
	default:
		return s + "; other threads run or wait on a timer, so no deadlock is shown: see which locks each holds"
	}
}

// lockCycle finds threads that wait in a circle on locks the next one
// holds, where the adapter names holders: "to-checking waits for a lock
// held by to-savings, which waits for one held by to-checking". "" when
// there is none.
func lockCycle(groups []ThreadGroup) string {
	// A listed name may carry a state after it ("to-savings (blocked)").
	holderOf := func(name string) string {
		for _, g := range groups {
			for _, n := range g.names {
				if g.holder != "" && (n == name || strings.HasPrefix(n, name+" (")) {
					return g.holder
				}
			}
		}
		return ""
	}
	for _, g := range groups {
		if g.holder == "" {
			continue
		}
		start := g.holder // a thread's bare name, as holders are named
		chain := []string{start}
		for next := holderOf(start); next != "" && len(chain) <= maxNamedWaiters; next = holderOf(next) {
			if next == start {
				var b strings.Builder
				for i, name := range chain {
					switch i {
					case 0:
						fmt.Fprintf(&b, "%s waits for a lock held by %s", name, chain[(i+1)%len(chain)])
					default:
						fmt.Fprintf(&b, ", which waits for one held by %s", chain[(i+1)%len(chain)])
					}
				}
				return b.String()
			}
			if slices.Contains(chain, next) {
				break // a circle that does not pass through start
			}
			chain = append(chain, next)
		}
	}
	return ""
}

// PauseLimit says which threads the adapter cannot pause ("" when it can
// pause any), for the answer to a pause that did not stop the program.
func (s *Session) PauseLimit() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.r == nil {
		return ""
	}
	return s.r.conn.Quirks.PauseLimit
}

// StoppedOnDeadlock reports whether the program is paused at its
// runtime's own verdict that every thread is blocked
// (Quirks.RuntimeDeadlock), read from the stop's whole exception: an
// answer may have shortened it.
func (s *Session) StoppedOnDeadlock() bool {
	s.mu.Lock()
	st, r, state := s.last, s.r, s.state
	s.mu.Unlock()
	if st == nil || r == nil || state != StatePaused || r.conn.Quirks.RuntimeDeadlock == nil || st.Reason != "exception" {
		return false
	}
	select {
	case <-st.ready:
	default:
		return false
	}
	text := st.Description + " " + st.Text
	if e := st.exception; e != nil {
		text += " " + e.Description + " " + e.Message
	}
	return r.conn.Quirks.RuntimeDeadlock(text)
}
