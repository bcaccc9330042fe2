package session

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-dap"
)

// One line can compile to several places (a Rust println!, a C for header:
// a breakpoint of several locations, Quirks.BreakpointLocations), and one
// pass over the line runs through them in turn. The agent set one
// breakpoint on one line: a pass is one stop, and one row of a tracepoint.
// A hit of such a breakpoint on the thread, in the frame and at a later
// instruction than the thread's previous stop there is the same pass, and
// the program is continued without a word. A loop's next turn comes back
// to an earlier instruction, a call or a return changes the frame: both are
// new passes the agent sees.

// passMark is where a thread last stopped at breakpoints of several
// locations: which, in which frame (function and stack depth), and at
// which instruction.
type passMark struct {
	hits     []int
	function string
	depth    int
	pc       uint64
}

// interceptSamePass continues from a later location of the breakpoint the
// thread last stopped at in this pass over its line.
func (s *Session) interceptSamePass(r *connection, st *Stop) bool {
	s.mu.Lock()
	if s.r != r {
		s.mu.Unlock()
		return true
	}
	if !continuingLocked(r) || !s.multiLocationHitLocked(st) {
		// Any other stop of the thread ends its pass.
		delete(r.passes, st.ThreadID)
		s.mu.Unlock()
		return false
	}
	prev, had := r.passes[st.ThreadID]
	s.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	defer cancel()
	var stack dap.StackTraceResponseBody
	if err := r.call(ctx, "stackTrace", map[string]any{"threadId": st.ThreadID, "startFrame": 0, "levels": prefetchFrames}, &stack); err != nil || len(stack.StackFrames) == 0 {
		return false
	}
	top := stack.StackFrames[0]
	pc, err := strconv.ParseUint(strings.TrimPrefix(top.InstructionPointerReference, "0x"), 16, 64)
	if err != nil {
		// No instruction to compare: every hit is a pass of its own.
		return false
	}
	mark := passMark{hits: slices.Clone(st.HitBreakpointIDs), function: top.Name, depth: stackDepth(stack), pc: pc}
	s.mu.Lock()
	if s.r != r {
		s.mu.Unlock()
		return true
	}
	if r.passes == nil {
		r.passes = map[int]passMark{}
	}
	r.passes[st.ThreadID] = mark
	s.mu.Unlock()
	same := had && slices.Equal(prev.hits, mark.hits) && prev.function == mark.function && prev.depth == mark.depth && mark.pc > prev.pc
	if !same {
		return false
	}
	if err := r.call(ctx, "continue", map[string]any{"threadId": st.ThreadID}, nil); err != nil {
		s.log.Warn("continuing past another location of the line's breakpoint", "err", err)
		return false
	}
	return true
}

// multiLocationHitLocked reports whether st stopped only at the agent's
// line breakpoints (or tracepoints) known to have several locations.
// s.mu is held.
func (s *Session) multiLocationHitLocked(st *Stop) bool {
	if st.Reason != "breakpoint" || len(st.HitBreakpointIDs) == 0 {
		return false
	}
	for _, id := range st.HitBreakpointIDs {
		// The server's own breakpoints (a recording's) see every location.
		bp := s.bps.lineByID(id)
		if id < 0 || bp == nil || bp.Locations < 2 {
			return false
		}
	}
	return true
}
