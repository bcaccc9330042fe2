package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// ChangeRequest asks where the value of Expression, seen from FrameID (the
// current stop's frame when nil), next changes.
type ChangeRequest struct {
	Expression string
	FrameID    *int
	// MaxSteps and Timeout bound the search by stepping.
	MaxSteps int
	Timeout  time.Duration
}

// Defaults for ChangeRequest's bounds.
const (
	DefaultChangeMaxSteps = 1000
	DefaultChangeTimeout  = 30 * time.Second
)

// Ways break_on_change finds a change.
const (
	ByDataBreakpoint = "data breakpoint"
	BySteps          = "single steps"
)

// ChangeResult is where the value changed, or why the search stopped
// without finding it.
type ChangeResult struct {
	Snapshot *Snapshot
	Changed  bool
	From     string
	To       string
	// Method is ByDataBreakpoint or BySteps.
	Method string
	// MethodReason says why BySteps was used: why no data breakpoint
	// could watch the expression here.
	MethodReason string
	Steps        int
	// ChangedBy is the line that was running when the value changed: the
	// line stepped over when stepping, the line of the writing instruction
	// for a data breakpoint (which stops after it, on the next line's).
	ChangedBy *Location
	// Why explains a search that ended without a change.
	Why string
}

// BreakOnChange runs until the expression's value changes: with a data
// breakpoint where the adapter offers one for it and hardware watchpoints
// work on this host (adapter.Watchpoints), else by single steps (into
// calls) that compare the value in the same frame after each, until
// maxSteps or timeout. It leaves the program paused where it found the
// change, or where the search stopped.
func (s *Session) BreakOnChange(ctx context.Context, req ChangeRequest) (*ChangeResult, error) {
	if req.MaxSteps <= 0 {
		req.MaxSteps = DefaultChangeMaxSteps
	}
	if req.Timeout <= 0 {
		req.Timeout = DefaultChangeTimeout
	}
	r, st, err := s.pausedStop(ctx, "watch a value for a change")
	if err != nil {
		return nil, err
	}
	idx := st.top
	if req.FrameID != nil {
		idx = -1
		for i, f := range st.frames {
			if f.Id == *req.FrameID {
				idx = i
			}
		}
		if idx < 0 {
			return nil, errorf("pass a frameId from get_stack_trace of the current stop", "frame %d is not on the current stack", *req.FrameID)
		}
	}
	if len(st.frames) == 0 {
		return nil, errorf("try again after a step", "no stack to evaluate %q in", req.Expression)
	}
	target := frameRef{fromBottom: st.depth - 1 - idx, name: st.frames[idx].Name}
	before, err := evalRaw(ctx, r, st.frames[idx].Id, req.Expression)
	if err != nil {
		return nil, adapterError(fmt.Sprintf("evaluate %q", req.Expression), err, "watch an expression that can be evaluated in this frame (get_local_variables lists its names)")
	}
	var whyNot string
	if !r.caps.SupportsDataBreakpoints || !r.conn.Quirks.Supports("dataBreakpointInfo") {
		whyNot = "this adapter has no data breakpoints"
	} else if wp := adapter.Watchpoints(ctx); !wp.Usable {
		// A watchpoint that never fires would answer "the program ended
		// before the value changed": wrong, so step instead.
		whyNot = "data breakpoints are off: " + wp.Reason
	} else {
		res, err := s.changeByDataBreakpoint(ctx, r, st, req, target, before)
		if err == nil {
			return res, nil
		}
		whyNot = err.Error()
	}
	res, err := s.changeBySteps(ctx, r, st, req, target, before)
	if err != nil {
		return nil, err
	}
	res.MethodReason = whyNot
	return res, nil
}

// frameRef finds a frame again after steps: by its distance from the
// bottom of the stack, which calls and returns above it do not change.
type frameRef struct {
	fromBottom int
	name       string
}

// frameIn returns the frame's id in a later stop, or false once the frame
// has returned.
func (f frameRef) frameIn(ctx context.Context, r *connection, st *Stop) (int, bool) {
	i := st.depth - 1 - f.fromBottom
	if i < 0 {
		return 0, false
	}
	if i < len(st.frames) {
		return st.frames[i].Id, true
	}
	var stack dap.StackTraceResponseBody
	if err := r.call(ctx, "stackTrace", map[string]any{"threadId": st.ThreadID, "startFrame": i, "levels": 1}, &stack); err != nil || len(stack.StackFrames) == 0 {
		return 0, false
	}
	return stack.StackFrames[0].Id, true
}

func evalRaw(ctx context.Context, r *connection, frameID int, expression string) (string, error) {
	e := r.evaluateIn(ctx, frameID, expression)
	return e.body.Result, e.err
}

// changeByDataBreakpoint sets a write data breakpoint on the expression and
// continues until a write changes the value (a write of the same value
// stops too, and is passed over); an error says why the adapter cannot
// watch this expression (it is not a variable in memory), and stepping
// takes over.
func (s *Session) changeByDataBreakpoint(ctx context.Context, r *connection, st *Stop, req ChangeRequest, target frameRef, before string) (*ChangeResult, error) {
	frameID := st.frames[st.depth-1-target.fromBottom].Id
	dbp, _, err := s.SetDataBreakpoint(ctx, req.Expression, &frameID, "write")
	if err != nil {
		return nil, fmt.Errorf("no data breakpoint can watch %s: %w", req.Expression, err)
	}
	defer s.removeDataBreakpoint(ctx, r, dbp.ID)
	res := &ChangeResult{Method: ByDataBreakpoint, From: shown(req.Expression, before)}
	deadline := time.Now().Add(req.Timeout)
	thread := st.ThreadID
	for res.Why == "" && !res.Changed {
		left := time.Until(deadline)
		if left <= 0 {
			res.Why = "the value did not change within the timeout"
			break
		}
		gen, err := s.resume(ctx, Continue, thread)
		if err != nil {
			res.Why = err.Error()
			break
		}
		res.Steps++
		settled, err := s.waitSettled(ctx, gen, left)
		switch {
		case err != nil:
			res.Why = err.Error()
		case !settled:
			res.Why = "the value did not change within the timeout; the program is still running"
		}
		if res.Why != "" {
			break
		}
		s.mu.Lock()
		cur := s.stop
		s.mu.Unlock()
		if cur == nil {
			res.Why = "the program ended before the value changed"
			break
		}
		select {
		case <-cur.ready:
		case <-ctx.Done():
			res.Why = ctx.Err().Error()
		}
		if res.Why != "" {
			break
		}
		now, nowErr := "", errors.New("the frame returned")
		if id, ok := target.frameIn(ctx, r, cur); ok {
			now, nowErr = evalRaw(ctx, r, id, req.Expression)
		}
		switch {
		case nowErr == nil && now != before && cur.Reason == "data breakpoint":
			// The watchpoint stopped the program just after the write:
			// the line is the writing instruction's, not the pc's.
			res.Changed, res.To, res.ChangedBy = true, shown(req.Expression, now), s.writingLocation(ctx, r, cur)
		case nowErr == nil && now != before:
			res.Changed, res.To, res.ChangedBy = true, shown(req.Expression, now), locationOf(cur)
		case cur.Reason != "data breakpoint":
			res.Why = "something else stopped the program first (" + cur.Reason + ")"
		}
		thread = cur.ThreadID
	}
	res.Snapshot = s.snapshotNow(ctx)
	return res, nil
}

// changeBySteps steps into every call into the project's own code and compares
// the value in the same frame after each step. A step that enters code the
// user did not write (the standard library, a dependency, runtime internals)
// is followed by a step out: Delve, unlike debugpy and lldb-dap, steps into
// all of it, and a fmt.Printf alone takes hundreds of steps
// (docs/adapter-quirks.md, delve-17). A change made in there is still found,
// at the calling line.
func (s *Session) changeBySteps(ctx context.Context, r *connection, st *Stop, req ChangeRequest, target frameRef, before string) (*ChangeResult, error) {
	res := &ChangeResult{Method: BySteps, From: shown(req.Expression, before)}
	// The stops between steps are the session's own: only their stacks
	// are needed, to find the frame again.
	s.setStackOnly(r, true)
	defer s.setStackOnly(r, false)
	deadline := time.Now().Add(req.Timeout)
	prev := locationOf(st)
	thread := st.ThreadID
	root := projectRoot(st.frames[st.depth-1-target.fromBottom])
	step := StepInto
	for res.Steps < req.MaxSteps {
		left := time.Until(deadline)
		if left <= 0 {
			res.Why = fmt.Sprintf("timeout: %d steps in %s without a change", res.Steps, req.Timeout)
			break
		}
		gen, err := s.resume(ctx, step, thread)
		if err != nil {
			return nil, err
		}
		res.Steps++
		settled, err := s.waitSettled(ctx, gen, left)
		if err != nil {
			return nil, err
		}
		if !settled {
			res.Why = fmt.Sprintf("step %d did not finish within the timeout (the program may be waiting for input); it is running", res.Steps)
			break
		}
		s.mu.Lock()
		cur := s.stop
		s.mu.Unlock()
		if cur == nil {
			res.Why = fmt.Sprintf("the program ended after %d steps without the value changing", res.Steps)
			break
		}
		select {
		case <-cur.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if cur.Reason == "exception" {
			res.Why = "an exception stopped the program first"
			break
		}
		id, ok := target.frameIn(ctx, r, cur)
		if !ok {
			res.Why = fmt.Sprintf("%s returned after %d steps without the value changing", target.name, res.Steps)
			break
		}
		now, err := evalRaw(ctx, r, id, req.Expression)
		if err == nil && now != before {
			res.Changed, res.To, res.ChangedBy = true, shown(req.Expression, now), prev
			break
		}
		step = StepInto
		if len(cur.frames) > 0 && cur.depth-1-cur.top > target.fromBottom && libraryFrame(cur.frames[cur.top], r.conn.Quirks, root, s.bps.os) {
			// prev stays the calling line, which a change found after
			// the step out is put down to.
			step = StepOut
			continue
		}
		prev = locationOf(cur)
	}
	if res.Why == "" && !res.Changed {
		res.Why = fmt.Sprintf("maxSteps (%d) reached without the value changing", req.MaxSteps)
	}
	s.setStackOnly(r, false)
	s.completeStop(ctx)
	res.Snapshot = s.snapshotNow(ctx)
	return res, nil
}

// projectMarkers sit at the top of a project: version control, or a
// language's manifest.
var projectMarkers = []string{".git", "go.mod", "Cargo.toml", "package.json", "pyproject.toml", "setup.py", "Gemfile", "pom.xml", "build.gradle", "build.gradle.kts"}

// projectRoot is the project that frame's source file belongs to: the
// nearest directory above it with a project marker, else the file's own
// directory; "" when the frame has no source path.
func projectRoot(frame dap.StackFrame) string {
	if frame.Source == nil || !filepath.IsAbs(frame.Source.Path) {
		return ""
	}
	dir := filepath.Dir(frame.Source.Path)
	for d := dir; ; {
		for _, m := range projectMarkers {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// libraryFrame reports whether frame runs code the user did not write:
// runtime internals as the adapter marks them, or source outside root
// (by o's comparison: a folder's case may differ on macOS and Windows).
func libraryFrame(frame dap.StackFrame, q adapter.Quirks, root string, o platform.OS) bool {
	if isInternalFrame(frame, q) {
		return true
	}
	if root == "" || frame.Source == nil || !o.IsAbs(frame.Source.Path) {
		return false
	}
	return !o.Within(root, frame.Source.Path)
}

func (s *Session) setStackOnly(r *connection, on bool) {
	s.mu.Lock()
	r.stackOnly = on
	s.mu.Unlock()
}

// completeStop fetches what a stack-only stop lacks (its locals, the
// watches), so that its snapshot is whole.
func (s *Session) completeStop(ctx context.Context) {
	s.mu.Lock()
	st := s.stop
	s.mu.Unlock()
	if st == nil {
		return
	}
	<-st.ready
	if st.partial {
		s.refetch(ctx, st.top)
	}
}

// shown is a value as an answer shows it.
func shown(name, value string) string {
	v, _, _ := shapeValue(name, value, 0, snapshotValueLen)
	return v
}

func locationOf(st *Stop) *Location {
	if len(st.frames) == 0 {
		return nil
	}
	f := st.frames[st.top]
	l := &Location{Line: f.Line, Column: f.Column, Function: f.Name}
	if f.Source != nil {
		l.File = f.Source.Path
	}
	return l
}
