package session

import (
	"context"
	"os"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// stepOrigin is where a step_over or step_into began: the place of the
// thread's top frame and how deep its stack was.
type stepOrigin struct {
	threadID int
	path     string
	line     int
	depth    int
}

// originOf is where a step from st begins; nil when st's stack is not
// fetched yet or has no source, and then a step is never repeated.
func originOf(st *Stop, kind string) *stepOrigin {
	if st == nil || (kind != StepOver && kind != StepInto) {
		return nil
	}
	select {
	case <-st.ready:
	default:
		return nil
	}
	if len(st.frames) == 0 || st.frames[0].Source == nil || st.frames[0].Source.Path == "" {
		return nil
	}
	f := st.frames[0]
	return &stepOrigin{threadID: st.ThreadID, path: f.Source.Path, line: f.Line, depth: st.depth}
}

// hitsOriginLineLocked says that st is a breakpoint stop, during a step, of
// breakpoints all on the line the step began on and each known to have
// several locations: one line can compile to several places (a Rust `for`
// line: the iterator's set-up and each turn's next()), each a location of
// one breakpoint, and stepping off the first runs into the next. A
// breakpoint of one location hit again is a new call of the function (or a
// loop's next turn), which the agent must see.
func (s *Session) hitsOriginLineLocked(r *connection, st *Stop) *stepOrigin {
	o := r.stepFrom
	if o == nil || st.Reason != "breakpoint" || st.ThreadID != o.threadID || len(st.HitBreakpointIDs) == 0 {
		return nil
	}
	for _, id := range st.HitBreakpointIDs {
		bp := s.bps.lineByID(id)
		if bp == nil || bp.Line != o.line || !samePath(s.bps.os, bp.File, o.path) || bp.Locations < 2 {
			return nil
		}
	}
	return o
}

// repeatStep takes the step again when st stopped in the frame the step
// began in, still on its line: the agent asked to leave that line, and a
// stop there tells it nothing. It runs on the event loop; false leaves st
// to be reported as usual.
func (s *Session) repeatStep(r *connection, st *Stop, o *stepOrigin, kind string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	defer cancel()
	var stack dap.StackTraceResponseBody
	if err := r.call(ctx, "stackTrace", map[string]any{"threadId": st.ThreadID, "startFrame": 0, "levels": prefetchFrames}, &stack); err != nil || len(stack.StackFrames) == 0 {
		return false
	}
	top := stack.StackFrames[0]
	if top.Source == nil || top.Line != o.line || !samePath(s.bps.os, top.Source.Path, o.path) || stackDepth(stack) != o.depth {
		return false
	}
	s.mu.Lock()
	if s.r != r {
		s.mu.Unlock()
		return true
	}
	// The interrupted step may stay on the adapter's plan stack (lldb-dap:
	// docs/adapter-quirks.md, lldb-2);
	// the next continue cleans it up as for any interrupted step.
	r.stepInterrupted = true
	s.mu.Unlock()
	if err := r.call(ctx, kind, map[string]any{"threadId": st.ThreadID, "granularity": "line"}, nil); err != nil {
		s.log.Warn("repeating a step past its own line", "err", err)
		return false
	}
	return true
}

// samePath says whether two paths name one file: by their names on o
// (case folds on macOS and Windows), else by the file they open, which
// follows links.
func samePath(o platform.OS, a, b string) bool {
	if o.SamePath(a, b) {
		return true
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}
