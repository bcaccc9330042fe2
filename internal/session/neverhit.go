package session

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// markHitsLocked records that these breakpoints (our ids) stopped or traced
// in run r. s.mu is held.
func (r *connection) markHitsLocked(ids ...int) {
	if r.hits == nil {
		r.hits = map[int]bool{}
	}
	for _, id := range ids {
		r.hits[id] = true
	}
}

// markHitAtStop records, for an adapter that does not say which breakpoint a
// breakpoint stop is for (rdbg: docs/adapter-quirks.md, rdbg-13), the line
// breakpoints where it stopped. The stop's frames are fetched.
func (s *Session) markHitAtStop(r *connection, st *Stop) {
	if st.Reason != "breakpoint" || len(st.HitBreakpointIDs) > 0 {
		return
	}
	loc := locationOf(st)
	if loc == nil || loc.File == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, bp := range s.bps.linesAt(loc.File) {
		if bp.Line == loc.Line {
			r.markHitsLocked(bp.ID)
		}
	}
}

// neverHitLocked names, in one line, the breakpoints that did not stop or
// trace during run r: "app.py:12, app.py:30, function weigh". Logpoints are
// left out, since the adapter prints them without telling the session, and
// so are the server's own (run_to's, debug_test's). s.mu is held.
func (s *Session) neverHitLocked(r *connection) string {
	var lines []*Breakpoint
	for _, bp := range s.bps.lines() {
		plainLogpoint := bp.LogMessage != "" && len(bp.Collect) == 0
		if !bp.internal && !plainLogpoint && !r.hits[bp.ID] {
			lines = append(lines, bp)
		}
	}
	slices.SortStableFunc(lines, func(a, b *Breakpoint) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	var names []string
	for _, bp := range lines {
		names = append(names, fmt.Sprintf("%s:%d", filepath.Base(bp.File), bp.Line))
	}
	for _, fb := range s.bps.functions {
		if !fb.internal && !r.hits[fb.ID] {
			names = append(names, "function "+fb.FunctionName)
		}
	}
	return strings.Join(names, ", ")
}

// noteNeverBoundLocked, at the end of run r, marks the agent's function
// breakpoints that never bound during it (not verified, never hit) and
// says so in the output, so that an agent reading either after the fact
// learns the name was wrong rather than the code not reached. s.mu is held.
func (s *Session) noteNeverBoundLocked(r *connection) {
	for _, fb := range s.bps.functions {
		if fb.internal || fb.Verified || r.hits[fb.ID] {
			continue
		}
		why := fb.Message
		if why == "" {
			why = "the debugger found no function of that name"
		}
		fb.Message = "Never bound during this run: " + why
		s.out.Append("console", fmt.Sprintf("function breakpoint %s never bound during this run: %s\n", fb.FunctionName, why))
	}
}
