package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// LineBreakpointRequest asks for a breakpoint on a line, found by number or
// by content (Statement, nearest to NearLine), optionally checked against
// ExpectedContent. File is absolute.
type LineBreakpointRequest struct {
	File            string
	Line            int
	Statement       string
	NearLine        int
	ExpectedContent string
	Condition       string
	HitCondition    string
	LogMessage      string
	// Temporary marks a breakpoint that run_to places for itself and
	// removes: an internal one (see newInternalID). One already on the line
	// is used as it is (Existing in the result).
	Temporary bool
	// Collect makes a tracepoint: these expressions are recorded in the
	// trace buffer at each hit and the program does not stop; MaxHits
	// (0: no limit) removes it after that many.
	Collect []string
	MaxHits int
}

// LineBreakpointResult is a set breakpoint, with the lines around it.
type LineBreakpointResult struct {
	Breakpoint Breakpoint
	Context    *SourceContext
	Warning    string
	// Existing: a temporary breakpoint was asked for where one already was.
	Existing bool
}

// liveRun returns the run if breakpoints should be sent to the adapter now.
func (s *Session) liveRunLocked() *connection {
	if s.r == nil || s.r.ended() {
		return nil
	}
	switch s.state {
	case StateRunning, StatePaused:
		return s.r
	}
	return nil
}

// SetBreakpoint adds (or updates, on the same line) a line breakpoint. Before
// the program starts it is kept and sent at start.
func (s *Session) SetBreakpoint(ctx context.Context, req LineBreakpointRequest) (*LineBreakpointResult, error) {
	if st, err := os.Stat(req.File); err != nil || st.IsDir() {
		return nil, errorf("pass the path of an existing source file; relative paths resolve against the server's working directory", "file not found: %s", req.File)
	}
	line, err := resolveLine(req.File, req.Line, req.Statement, req.NearLine, req.ExpectedContent)
	if err != nil {
		if ae, ok := err.(*AnchorError); ok {
			return nil, &Error{Msg: ae.Msg, Hint: "get_source_context shows the file's current lines; set the breakpoint where the code is now", Err: ae}
		}
		if refused, ok := err.(*Error); ok {
			return nil, refused // a device, FIFO or huge file, with its own hint
		}
		return nil, &Error{Msg: err.Error(), Hint: "get_source_context shows the file's lines", Err: err}
	}
	placed, err := placeOnCode(req.File, line)
	if err != nil {
		return nil, err
	}
	s.bpMu.Lock()
	defer s.bpMu.Unlock()

	s.mu.Lock()
	req.File = s.bps.canonical(req.File)
	var bp *Breakpoint
	for _, b := range s.bps.files[req.File] {
		if b.sendLine == placed {
			bp = b
			break
		}
	}
	if bp != nil && req.Temporary {
		res := &LineBreakpointResult{Breakpoint: *bp, Existing: true}
		s.mu.Unlock()
		return res, nil
	}
	if bp == nil {
		bp = &Breakpoint{File: req.File, internal: req.Temporary}
		s.bps.addLine(bp)
	} else {
		s.bps.adoptLine(bp)
	}
	bp.sendLine, bp.askedLine = placed, 0
	if placed != line {
		bp.askedLine = line
	}
	bp.placeAt(placed)
	bp.Condition, bp.HitCondition, bp.LogMessage, bp.Anchor = req.Condition, req.HitCondition, req.LogMessage, req.Statement
	bp.Collect, bp.MaxHits, bp.Hits = req.Collect, req.MaxHits, 0
	r := s.liveRunLocked()
	if r == nil {
		bp.Verified, bp.Message = false, s.unboundMessageLocked()
	}
	s.mu.Unlock()

	if r != nil {
		if err := s.sendFile(ctx, r, req.File); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	res := &LineBreakpointResult{Breakpoint: *bp}
	s.mu.Unlock()
	res.Warning = movedWarning(res.Breakpoint, placed)
	// The agent picked the line from the file it read: one line either
	// side confirms it, two when the breakpoint moved away from its line.
	radius := 1
	if res.Warning != "" || res.Breakpoint.RequestedLine != 0 {
		radius = 2
	}
	if res.Breakpoint.isLogpoint() {
		res.Warning = joinWarnings(res.Warning, s.LogpointWarning())
	}
	if c, err := ReadContext(req.File, res.Breakpoint.Line, radius); err == nil {
		// lineContent holds the breakpoint's own line.
		c.Surrounding = slices.DeleteFunc(withoutBlankLines(c.Surrounding), func(l SourceLine) bool { return l.Current })
		res.Context = &c
		s.showedSource(req.File, c.Surrounding, false)
	}
	return res, nil
}

// unboundMessageLocked says why a breakpoint set now is not in the
// adapter yet: the program has not started, it has ended, or its run
// failed. s.mu is held.
func (s *Session) unboundMessageLocked() string {
	switch {
	case s.r != nil && s.state == StateStopped:
		return "not bound: the program has ended; it binds when restart_debugging runs the program again"
	case s.r != nil && s.state == StateError:
		return "not bound: the last run failed (" + s.history[len(s.history)-1].Cause + "); it binds when restart_debugging runs the program again"
	}
	return "pending until the program starts"
}

// joinWarnings joins two warnings, either of which may be "".
func joinWarnings(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// movedWarning says where a breakpoint went when that is not the line
// asked for: placed by the server on the next line with code (placed), or
// moved by the adapter.
func movedWarning(bp Breakpoint, placed int) string {
	switch {
	case bp.RequestedLine == 0:
		return ""
	case bp.Line == placed:
		return fmt.Sprintf("moved to line %d, the next line with code in its block: line %d is blank or a comment", bp.Line, bp.RequestedLine)
	}
	return fmt.Sprintf("moved to line %d by the debugger, which has no code to stop at on line %d", bp.Line, bp.RequestedLine)
}

// sendFile sends a file's whole breakpoint set and records the answer.
// s.bpMu is held (so sets are sent in order); s.mu is not.
func (s *Session) sendFile(ctx context.Context, r *connection, file string) error {
	s.mu.Lock()
	bps := append([]*Breakpoint(nil), s.bps.files[file]...)
	args := setBreakpointsArgs(file, bps, r.logpointTraces(), r.emulatesLogpoints())
	s.mu.Unlock()
	var body dap.SetBreakpointsResponseBody
	err := r.call(ctx, "setBreakpoints", args, &body)
	var refused *dapc.ResponseError
	if err != nil && !errors.As(err, &refused) {
		return adapterError("set breakpoints in "+file, err, "")
	}
	s.mu.Lock()
	if refused != nil {
		// An answer, not a failure of the call: each breakpoint carries
		// the adapter's reason and the agent sees verified false.
		refuseLines(bps, err)
	} else {
		applyLines(bps, body.Breakpoints)
	}
	s.mu.Unlock()
	s.countLocations(ctx, r, bps)
	return nil
}

// countLocations records how many places each verified breakpoint of bps
// resolved to, where the adapter tells (Quirks.BreakpointLocations).
// s.bpMu is held; s.mu is not.
func (s *Session) countLocations(ctx context.Context, r *connection, bps []*Breakpoint) {
	count := r.conn.Quirks.BreakpointLocations
	if count == nil {
		return
	}
	for _, bp := range bps {
		s.mu.Lock()
		id, verified := bp.adapterID, bp.Verified
		s.mu.Unlock()
		if !verified || id == 0 {
			continue
		}
		n := count(ctx, r.client.Call, id)
		s.mu.Lock()
		bp.Locations = 0
		if n > 1 {
			bp.Locations = n
		}
		s.mu.Unlock()
	}
	// A tracepoint sent as a logpoint before its locations were counted
	// goes again, to trace by stopping (sourceBreakpoints).
	s.mu.Lock()
	var again []string
	for _, bp := range bps {
		if bp.tracesByStopping() && bp.TraceMode == TraceByLogpoint && !slices.Contains(again, bp.File) {
			again = append(again, bp.File)
		}
	}
	s.mu.Unlock()
	for _, file := range again {
		if err := s.retraceByStopping(ctx, r, file); err != nil {
			s.log.Warn("tracing a line of several locations by stopping", "file", file, "err", err)
		}
	}
}

// retraceByStopping sends a file's breakpoints again, its tracepoints that
// trace by stopping (tracesByStopping) as plain breakpoints. lldb-dap keeps a logpoint a
// logpoint when only its message is taken away (docs/adapter-quirks.md,
// lldb-32): they leave the file first, then come back. s.bpMu is held.
func (s *Session) retraceByStopping(ctx context.Context, r *connection, file string) error {
	s.mu.Lock()
	kept := slices.DeleteFunc(slices.Clone(s.bps.files[file]), func(bp *Breakpoint) bool {
		return len(bp.Collect) > 0 && bp.tracesByStopping() && bp.TraceMode == TraceByLogpoint
	})
	args := setBreakpointsArgs(file, kept, r.logpointTraces(), r.emulatesLogpoints())
	s.mu.Unlock()
	if err := r.call(ctx, "setBreakpoints", args, nil); err != nil {
		return adapterError("set breakpoints in "+file, err, "")
	}
	return s.sendFile(ctx, r, file)
}

// sendFunctions sends the whole function breakpoint set.
func (s *Session) sendFunctions(ctx context.Context, r *connection) error {
	if !r.caps.SupportsFunctionBreakpoints || !r.conn.Quirks.Supports("setFunctionBreakpoints") {
		return errorf("set a line breakpoint on the function's first line instead", "function breakpoints are not supported by %s", r.adapterName())
	}
	s.mu.Lock()
	fbs := append([]*FunctionBreakpoint(nil), s.bps.functions...)
	s.mu.Unlock()
	var body dap.SetFunctionBreakpointsResponseBody
	err := r.call(ctx, "setFunctionBreakpoints", map[string]any{"breakpoints": functionBreakpoints(fbs, r.conn.Quirks)}, &body)
	var refused *dapc.ResponseError
	if err != nil && !errors.As(err, &refused) {
		return adapterError("set function breakpoints", err, "")
	}
	s.mu.Lock()
	if refused != nil {
		refuseFunctions(fbs, err)
	} else {
		applyFunctions(fbs, body.Breakpoints)
	}
	s.mu.Unlock()
	return nil
}

// SetFunctionBreakpoint adds a breakpoint on a function by name.
func (s *Session) SetFunctionBreakpoint(ctx context.Context, name, condition, hitCondition string) (*FunctionBreakpoint, error) {
	fb, _, err := s.addFunctionBreakpoint(ctx, &FunctionBreakpoint{FunctionName: name, Condition: condition, HitCondition: hitCondition})
	return fb, err
}

// addFunctionBreakpoint adds fb; an internal one on a function that
// already has a breakpoint is not added, and the existing one is returned
// with existing set. The agent's replaces an internal one on the same
// function (the adapter takes one breakpoint per function).
func (s *Session) addFunctionBreakpoint(ctx context.Context, fb *FunctionBreakpoint) (_ *FunctionBreakpoint, existing bool, _ error) {
	s.bpMu.Lock()
	defer s.bpMu.Unlock()
	s.mu.Lock()
	for _, f := range s.bps.functions {
		if fb.internal && f.FunctionName == fb.FunctionName {
			out := *f
			s.mu.Unlock()
			return &out, true, nil
		}
	}
	if !fb.internal {
		s.bps.removeFunctions(func(f *FunctionBreakpoint) bool { return f.internal && f.FunctionName == fb.FunctionName })
	}
	s.bps.addFunction(fb)
	r := s.liveRunLocked()
	if r == nil {
		fb.Message = s.unboundMessageLocked()
	}
	s.mu.Unlock()
	if r != nil {
		if err := s.sendFunctions(ctx, r); err != nil {
			s.mu.Lock()
			s.bps.removeFunctions(func(f *FunctionBreakpoint) bool { return f == fb })
			s.mu.Unlock()
			return nil, false, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := *fb
	return &out, false, nil
}

// Breakpoints returns every breakpoint of the agent's (of one file when
// file is set).
func (s *Session) Breakpoints(file string) ([]Breakpoint, []FunctionBreakpoint) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var lines []Breakpoint
	for _, bp := range s.bps.lines() {
		if !bp.internal && (file == "" || s.bps.os.SamePath(bp.File, file)) {
			lines = append(lines, *bp)
		}
	}
	var funcs []FunctionBreakpoint
	if file == "" {
		for _, fb := range s.bps.functions {
			if !fb.internal {
				funcs = append(funcs, *fb)
			}
		}
	}
	return lines, funcs
}

// RemoveMatch selects breakpoints to remove: by id, by function name, or by
// file (and line). An internal breakpoint is matched by its id only.
type RemoveMatch struct {
	// All removes every breakpoint, line and function.
	All      bool
	ID       int
	Function string
	File     string
	Line     int
}

// Removed lists what a removal took away.
type Removed struct {
	Lines     []Breakpoint
	Functions []FunctionBreakpoint
	Files     []string
}

// RemoveBreakpoints removes the matching breakpoints and tells the adapter.
func (s *Session) RemoveBreakpoints(ctx context.Context, m RemoveMatch) (*Removed, error) {
	s.bpMu.Lock()
	defer s.bpMu.Unlock()
	s.mu.Lock()
	lines := s.bps.removeLines(func(bp *Breakpoint) bool {
		switch {
		case bp.internal:
			return m.ID != 0 && bp.ID == m.ID
		case m.All:
			return true
		case m.ID != 0:
			return bp.ID == m.ID
		case m.File != "":
			return s.bps.os.SamePath(bp.File, m.File) && (m.Line == 0 || bp.Line == m.Line || bp.sendLine == m.Line || bp.askedLine == m.Line)
		}
		return false
	})
	funcs := s.bps.removeFunctions(func(fb *FunctionBreakpoint) bool {
		if fb.internal {
			return m.ID != 0 && fb.ID == m.ID
		}
		return m.All || (m.ID != 0 && fb.ID == m.ID) || (m.Function != "" && fb.FunctionName == m.Function)
	})
	r := s.liveRunLocked()
	s.mu.Unlock()

	out := &Removed{}
	files := map[string]bool{}
	for _, bp := range lines {
		out.Lines = append(out.Lines, *bp)
		if !files[bp.File] {
			files[bp.File] = true
			out.Files = append(out.Files, bp.File)
		}
	}
	for _, fb := range funcs {
		out.Functions = append(out.Functions, *fb)
	}
	if r == nil {
		return out, nil
	}
	for _, f := range out.Files {
		if err := s.sendFile(ctx, r, f); err != nil {
			return out, err
		}
	}
	if len(funcs) > 0 {
		if err := s.sendFunctions(ctx, r); err != nil {
			return out, err
		}
	}
	return out, nil
}

// FunctionBreakpointWarning says how a function breakpoint's name may bind
// elsewhere than meant, as the session's adapter knows
// (adapter.FunctionNameAdvisor); "" when it has nothing to say.
func (s *Session) FunctionBreakpointWarning(name string) string {
	if a, ok := s.adapter.(adapter.FunctionNameAdvisor); ok {
		return a.FunctionNameWarning(name)
	}
	return ""
}
