package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// allThreadsResult is get_stack_trace's answer with allThreads: every
// thread's stack, the program's frames only, identical stacks folded.
type allThreadsResult struct {
	// Threads are the folded groups of threads, those waiting on locks
	// first.
	Threads []session.ThreadGroup `json:"threads,omitempty"`
	// Waits says what the threads' waits add up to: a deadlock, or which
	// threads wait on locks.
	Waits  string      `json:"waits,omitempty"`
	Budget *budgetNote `json:"budget,omitempty"`
}

// allThreadsLevels is how many of the program's frames each group shows
// unless levels says otherwise: where each thread is and who called it.
const allThreadsLevels = 8

// allThreadStacks answers get_stack_trace {allThreads: true}.
func (s *Server) allThreadStacks(ctx context.Context, sess *session.Session, a *stackArgs) (*stackResult, error) {
	levels := int(a.Levels)
	if levels == 0 {
		levels = allThreadsLevels
	}
	all, err := sess.AllThreads(ctx, session.AllThreadsRequest{Levels: min(levels, maxStackLevels), IncludeInternals: a.IncludeInternals})
	if err != nil {
		return nil, err
	}
	res := &stackResult{Success: true, StackFrames: []session.Frame{}}
	res.Threads, res.Waits = all.Groups, all.Summary
	for i := range res.Threads {
		for j := range res.Threads[i].Frames {
			f := &res.Threads[i].Frames[j]
			f.Name, f.File = cutValue(f.Name, maxFrameText), cutValue(f.File, maxFrameText)
		}
		res.Threads[i].Name = cutValue(res.Threads[i].Name, 200)
	}
	var hidden []string
	if n := len(all.RuntimeOnly); n > 0 {
		hidden = append(hidden, fmt.Sprintf("%d threads with only the runtime's or libraries' frames (%s; includeInternals shows them)", n, idList(all.RuntimeOnly)))
	}
	if n := len(all.Unreadable); n > 0 {
		hidden = append(hidden, fmt.Sprintf("%d threads whose stacks the debugger would not give (%s)", n, idList(all.Unreadable)))
	}
	if all.Looked < all.Listed {
		hidden = append(hidden, fmt.Sprintf("%d threads past the first %d (list_threads lists them; get_stack_trace {threadId} reads one)", all.Listed-all.Looked, all.Looked))
	}
	res.Hidden = strings.Join(hidden, "; ")
	if info := sess.Info(); info.State == session.StatePaused && info.LastStop != nil {
		res.StopReason = info.LastStop.Reason
	}
	res.fitThreads(defaultMaxBytes)
	return res, nil
}

// maxListedIDs bounds the thread ids a note lists.
const maxListedIDs = 20

// idList lists thread ids, the first maxListedIDs of them.
func idList(ids []int) string {
	var b strings.Builder
	for i, id := range ids {
		if i == maxListedIDs {
			fmt.Fprintf(&b, " and %d more", len(ids)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, id)
	}
	return b.String()
}

// fitThreads cuts an allThreads answer to maxBytes: the groups last in
// order (the fewest threads, waiting on nothing) go first, then frames
// below each group's top one; it says what went.
func (res *stackResult) fitThreads(maxBytes int) {
	if sizeOf(res) <= maxBytes {
		return
	}
	note := &budgetNote{MaxBytes: maxBytes}
	res.Budget = note
	groups := res.Threads
	res.Threads = nil
	room := maxBytes - sizeOf(res) - 300 // the note's text
	keep := max(1, fitting(groups, room))
	if keep < len(groups) {
		threads := 0
		for _, g := range groups[keep:] {
			threads += g.Count
		}
		note.LeftOut = append(note.LeftOut, fmt.Sprintf("%d more groups of %d threads: get_stack_trace {threadId} reads one, levels: 1 shows more groups", len(groups)-keep, threads))
	}
	res.Threads = groups[:keep]
	for i := range res.Threads {
		if sizeOf(res) <= maxBytes {
			break
		}
		g := &res.Threads[len(res.Threads)-1-i]
		if len(g.Frames) > 1 {
			g.MoreFrames += len(g.Frames) - 1
			g.Frames = g.Frames[:1]
			if len(note.LeftOut) < 2 {
				note.LeftOut = append(note.LeftOut, "frames below the top one of the last groups (moreFrames)")
			}
		}
	}
}

// pausedThreadsTimeout bounds the look at every thread a pause answer
// takes: a program of thousands of threads must not slow the pause.
const pausedThreadsTimeout = 3 * time.Second

// pausedThreads is what a pause answer says of the program's threads:
// which wait on locks, or a deadlock, and where every thread's stack is,
// when the program has threads other than the paused one; "" otherwise.
// A hung program is paused to see what it waits on.
func pausedThreads(ctx context.Context, sess *session.Session) string {
	ctx, cancel := context.WithTimeout(ctx, pausedThreadsTimeout)
	defer cancel()
	all, err := sess.AllThreads(ctx, session.AllThreadsRequest{Levels: 1})
	if err != nil || len(all.Groups) < 2 {
		return ""
	}
	if all.Summary != "" {
		return all.Summary + "; get_stack_trace {allThreads: true} shows every thread."
	}
	return fmt.Sprintf("%d threads: get_stack_trace {allThreads: true} shows what each waits on.", all.Listed)
}

// pauseNotTaken is the message of a pause that did not stop the program
// within its wait: the pause is still asked for, and where the adapter
// cannot pause some threads, which.
func pauseNotTaken(sess *session.Session) string {
	msg := "The program did not stop within the wait: the pause stays asked for; wait_for_stop waits for it."
	if limit := sess.PauseLimit(); limit != "" {
		msg += " " + limit + "."
	}
	return msg
}

// sayDeadlock adds to the message of an answer at the runtime's own
// deadlock verdict (Go's "all goroutines are asleep") which threads wait on
// what, as a pause's answer does: the stop says it without another call.
func (res *runResult) sayDeadlock(ctx context.Context, sess *session.Session) {
	if !sess.StoppedOnDeadlock() {
		return
	}
	if note := pausedThreads(ctx, sess); note != "" {
		res.Message = strings.TrimSpace(res.Message + " " + note)
	}
}
