package server

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type setBreakpointArgs struct {
	SessionID       string   `json:"sessionId"`
	File            string   `json:"file,omitempty" jsonschema:"source file (absolute, or relative to the server's cwd)"`
	Line            Int      `json:"line,omitempty" jsonschema:"1-based line number"`
	Statement       string   `json:"statement,omitempty" jsonschema:"instead of line: the line containing this text (nearest nearLine); survives edits"`
	NearLine        Int      `json:"nearLine,omitempty" jsonschema:"with statement: prefer the match nearest this line"`
	ExpectedContent string   `json:"expectedContent,omitempty" jsonschema:"refuse unless the line contains this text"`
	Function        string   `json:"function,omitempty" jsonschema:"instead of file and line: break when this function is called"`
	Condition       string   `json:"condition,omitempty" jsonschema:"stop only when this expression is true"`
	HitCondition    string   `json:"hitCondition,omitempty" jsonschema:"stop only on some hits, e.g. \"3\" (the third) or \">= 5\", as the adapter understands it"`
	LogMessage      string   `json:"logMessage,omitempty" jsonschema:"do not stop; print this message ({expression} parts interpolated)"`
	SuspendPolicy   string   `json:"suspendPolicy,omitempty" jsonschema:"accepted for compatibility; all threads stop"`
	Collect         []string `json:"collect,omitempty" jsonschema:"a tracepoint: do not stop, record these expressions at each hit (get_trace)"`
	MaxHits         Int      `json:"maxHits,omitempty" jsonschema:"with collect: remove it after this many hits"`
}

type setBreakpointResult struct {
	Success       bool                   `json:"success"`
	BreakpointID  int                    `json:"breakpointId"`
	File          string                 `json:"file,omitempty"`
	Line          int                    `json:"line,omitempty"`
	RequestedLine int                    `json:"requestedLine,omitempty"`
	Anchor        string                 `json:"anchor,omitempty"`
	FunctionName  string                 `json:"functionName,omitempty"`
	BoundFile     string                 `json:"boundFile,omitempty"`
	BoundLine     int                    `json:"boundLine,omitempty"`
	Condition     string                 `json:"condition,omitempty"`
	HitCondition  string                 `json:"hitCondition,omitempty"`
	LogMessage    string                 `json:"logMessage,omitempty"`
	Collect       []string               `json:"collect,omitempty"`
	TraceMode     string                 `json:"traceMode,omitempty"`
	Verified      bool                   `json:"verified"`
	Message       string                 `json:"message"`
	Warning       string                 `json:"warning,omitempty"`
	Context       *session.SourceContext `json:"context,omitempty"`
}

type listBreakpointsArgs struct {
	SessionID string `json:"sessionId"`
	File      string `json:"file,omitempty" jsonschema:"only this file's breakpoints"`
}

type listBreakpointsResult struct {
	Success             bool                         `json:"success"`
	Breakpoints         []session.Breakpoint         `json:"breakpoints"`
	Count               int                          `json:"count"`
	FunctionBreakpoints []session.FunctionBreakpoint `json:"functionBreakpoints"`
	FunctionCount       int                          `json:"functionCount"`
}

type removeBreakpointArgs struct {
	SessionID    string `json:"sessionId"`
	BreakpointID Int    `json:"breakpointId,omitempty" jsonschema:"the breakpointId set_breakpoint returned"`
	Function     string `json:"function,omitempty" jsonschema:"remove the breakpoint on this function"`
	File         string `json:"file,omitempty" jsonschema:"with line: remove the breakpoint at file:line"`
	Line         Int    `json:"line,omitempty" jsonschema:"with file"`
}

type removeBreakpointResult struct {
	Success   bool                         `json:"success"`
	Removed   []session.Breakpoint         `json:"removed"`
	Functions []session.FunctionBreakpoint `json:"removedFunctions,omitempty"`
	Message   string                       `json:"message"`
}

type clearBreakpointsResult struct {
	Success bool     `json:"success"`
	Cleared int      `json:"cleared"`
	Files   []string `json:"files"`
	Message string   `json:"message"`
}

func (s *Server) addBreakpointTools() {
	addTool(s, "set_breakpoint",
		"Set a breakpoint: on file+line, on the line containing `statement`, or on a `function`. Optional condition, hitCondition, logMessage (a logpoint: prints, does not stop).",
		s.setBreakpoint)
	addTool(s, "list_breakpoints",
		"List breakpoints with whether the debugger verified them and where it put them.",
		s.listBreakpoints)
	addTool(s, "remove_breakpoint",
		"Remove a breakpoint by breakpointId, by function, or by file and line.",
		s.removeBreakpoint)
	addTool(s, "clear_breakpoints",
		"Remove every breakpoint, or every breakpoint of one file.",
		s.clearBreakpoints)
}

func (s *Server) setBreakpoint(ctx context.Context, a *setBreakpointArgs) (*setBreakpointResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if err := checkBreakpointTexts(a); err != nil {
		return nil, err
	}
	if len(a.Collect) > 0 && a.Function != "" {
		return nil, userError("use trace_function to record a function's calls and returns", "collect works on line breakpoints")
	}
	if len(a.Collect) > 0 && a.LogMessage != "" {
		return nil, userError("pass either collect (values into get_trace) or logMessage (text into the output)", "a breakpoint cannot both collect and log")
	}
	if a.MaxHits < 0 || (a.MaxHits > 0 && len(a.Collect) == 0) {
		return nil, userError("pass maxHits (a positive count) together with collect", "maxHits applies to tracepoints")
	}
	if a.Function != "" {
		fb, err := sess.SetFunctionBreakpoint(ctx, a.Function, a.Condition, a.HitCondition)
		if err != nil {
			return nil, err
		}
		msg := fb.Message
		if msg == "" {
			msg = fmt.Sprintf("Breakpoint %d on function %s.", fb.ID, fb.FunctionName)
		}
		return &setBreakpointResult{Success: true, BreakpointID: fb.ID, FunctionName: fb.FunctionName, BoundFile: fb.BoundFile, BoundLine: fb.BoundLine,
			Condition: fb.Condition, HitCondition: fb.HitCondition, Verified: fb.Verified, Message: msg,
			Warning: sess.FunctionBreakpointWarning(fb.FunctionName)}, nil
	}
	if a.File == "" {
		return nil, userError("pass file and line (or statement), or function", "set_breakpoint needs a file (with line or statement) or a function")
	}
	if a.Line <= 0 && a.Statement == "" {
		return nil, userError("pass line (1-based) or statement (text on the line)", "set_breakpoint on %s needs a line or a statement", a.File)
	}
	res, err := sess.SetBreakpoint(ctx, session.LineBreakpointRequest{
		File:            s.absPath(a.File),
		Line:            int(a.Line),
		Statement:       a.Statement,
		NearLine:        int(a.NearLine),
		ExpectedContent: a.ExpectedContent,
		Condition:       a.Condition,
		HitCondition:    a.HitCondition,
		LogMessage:      a.LogMessage,
		Collect:         a.Collect,
		MaxHits:         int(a.MaxHits),
	})
	if err != nil {
		return nil, err
	}
	bp := res.Breakpoint
	msg := bp.Message
	// The answer has the whole path in file; the message names the file.
	where := filepath.Base(bp.File)
	switch {
	case len(bp.Collect) > 0:
		msg = fmt.Sprintf("Tracepoint %d at %s:%d collects %s at each hit without stopping the agent; read them with get_trace.", bp.ID, where, bp.Line, cutValue(strings.Join(bp.Collect, ", "), breakpointQuoteLimit))
		if bp.TraceMode == session.TraceByStopping {
			msg += " The server stops, evaluates and continues at each hit (costMs in each entry): this adapter cannot interpolate logpoints, or the line compiles to several places."
		}
	case bp.Verified && a.LogMessage != "":
		msg = fmt.Sprintf("Logpoint %d at %s:%d.", bp.ID, where, bp.Line)
	case bp.Verified && bp.Locations > 1:
		msg = fmt.Sprintf("Breakpoint %d at %s:%d, at %d locations (the line compiles to %d places): it stops once a pass over the line.", bp.ID, where, bp.Line, bp.Locations, bp.Locations)
	case bp.Verified:
		msg = fmt.Sprintf("Breakpoint %d at %s:%d.", bp.ID, where, bp.Line)
	case msg == "":
		msg = fmt.Sprintf("Breakpoint %d at %s:%d is not verified by the debugger yet.", bp.ID, where, bp.Line)
	default:
		// Id, file and line are the answer's own fields: the message
		// says only why the breakpoint is not bound.
		msg = strings.ToUpper(msg[:1]) + strings.TrimSuffix(msg[1:], ".") + "."
	}
	brief := briefBreakpoint(bp)
	return &setBreakpointResult{
		Success: true, BreakpointID: bp.ID, File: bp.File, Line: bp.Line, RequestedLine: bp.RequestedLine,
		Anchor: bp.Anchor, Condition: unlessAsked(brief.Condition, cutValue(a.Condition, breakpointQuoteLimit)),
		HitCondition: unlessAsked(brief.HitCondition, cutValue(a.HitCondition, breakpointQuoteLimit)), LogMessage: brief.LogMessage,
		Collect: brief.Collect, TraceMode: bp.TraceMode, Verified: bp.Verified, Message: msg, Warning: joinWarnings(res.Warning, sess.UnmappedNote(ctx, bp.File)), Context: res.Context,
	}, nil
}

func (s *Server) listBreakpoints(_ context.Context, a *listBreakpointsArgs) (*listBreakpointsResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	file := ""
	if a.File != "" {
		file = s.absPath(a.File)
	}
	lines, funcs := sess.Breakpoints(file)
	lines = briefBreakpoints(lines)
	if funcs == nil {
		funcs = []session.FunctionBreakpoint{}
	}
	for i := range funcs {
		funcs[i].Condition = cutValue(funcs[i].Condition, breakpointQuoteLimit)
		funcs[i].HitCondition = cutValue(funcs[i].HitCondition, breakpointQuoteLimit)
	}
	return &listBreakpointsResult{Success: true, Breakpoints: lines, Count: len(lines), FunctionBreakpoints: funcs, FunctionCount: len(funcs)}, nil
}

func (s *Server) removeBreakpoint(ctx context.Context, a *removeBreakpointArgs) (*removeBreakpointResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	m := session.RemoveMatch{ID: int(a.BreakpointID), Function: a.Function}
	if a.File != "" {
		if a.Line <= 0 {
			return nil, userError("pass line with file, or use clear_breakpoints to remove a whole file's breakpoints", "remove_breakpoint by file needs a line")
		}
		m.File, m.Line = s.absPath(a.File), int(a.Line)
	}
	if m.ID == 0 && m.Function == "" && m.File == "" {
		return nil, userError("pass breakpointId (from set_breakpoint or list_breakpoints), function, or file and line", "remove_breakpoint needs breakpointId, function, or file and line")
	}
	removed, err := sess.RemoveBreakpoints(ctx, m)
	if err != nil {
		return nil, err
	}
	n := len(removed.Lines) + len(removed.Functions)
	if n == 0 {
		return nil, userError("list_breakpoints shows the current breakpoints and their ids", "no breakpoint matched")
	}
	lines := briefBreakpoints(removed.Lines)
	return &removeBreakpointResult{Success: true, Removed: lines, Functions: removed.Functions, Message: fmt.Sprintf("Removed %d breakpoint(s).", n)}, nil
}

func (s *Server) clearBreakpoints(ctx context.Context, a *listBreakpointsArgs) (*clearBreakpointsResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	m := session.RemoveMatch{All: true}
	if a.File != "" {
		m = session.RemoveMatch{File: s.absPath(a.File)}
	}
	removed, err := sess.RemoveBreakpoints(ctx, m)
	if err != nil {
		return nil, err
	}
	n := len(removed.Lines) + len(removed.Functions)
	files := removed.Files
	if files == nil {
		files = []string{}
	}
	where := "in every file"
	if a.File != "" {
		where = "in " + m.File
	}
	return &clearBreakpointsResult{Success: true, Cleared: n, Files: files, Message: strings.TrimSpace(fmt.Sprintf("Cleared %d breakpoint(s) %s.", n, where))}, nil
}

// unlessAsked is a breakpoint's setting as the answer shows it: left out
// when it is what the agent just asked for.
func unlessAsked(set, asked string) string {
	if set == asked {
		return ""
	}
	return set
}

// maxBreakpointText bounds each text set_breakpoint takes (a condition, a
// log message, an expression to collect, a statement to find): each is
// kept, sent to the adapter at every start and, cut, shown in answers.
const maxBreakpointText = 4096

// breakpointQuoteLimit bounds what an answer repeats of a breakpoint's
// texts: the agent wrote them, and list_breakpoints repeats every one.
const breakpointQuoteLimit = 300

// checkBreakpointTexts refuses a text argument over maxBreakpointText.
func checkBreakpointTexts(a *setBreakpointArgs) error {
	texts := [][2]string{{"condition", a.Condition}, {"hitCondition", a.HitCondition}, {"logMessage", a.LogMessage},
		{"statement", a.Statement}, {"expectedContent", a.ExpectedContent}, {"function", a.Function}}
	for _, c := range a.Collect {
		texts = append(texts, [2]string{"collect", c})
	}
	for _, t := range texts {
		if len(t[1]) > maxBreakpointText {
			return userError(fmt.Sprintf("shorten %s to at most %d bytes", t[0], maxBreakpointText),
				"%s is %d bytes; set_breakpoint takes at most %d", t[0], len(t[1]), maxBreakpointText)
		}
	}
	return nil
}

// briefBreakpoint is a breakpoint as answers show it: its texts cut to
// breakpointQuoteLimit.
func briefBreakpoint(bp session.Breakpoint) session.Breakpoint {
	bp.Condition = cutValue(bp.Condition, breakpointQuoteLimit)
	bp.HitCondition = cutValue(bp.HitCondition, breakpointQuoteLimit)
	bp.LogMessage = cutValue(bp.LogMessage, breakpointQuoteLimit)
	collect := make([]string, len(bp.Collect))
	for i, c := range bp.Collect {
		collect[i] = cutValue(c, breakpointQuoteLimit)
	}
	if bp.Collect != nil {
		bp.Collect = collect
	}
	return bp
}

// briefBreakpoints applies briefBreakpoint to a list, never nil.
func briefBreakpoints(bps []session.Breakpoint) []session.Breakpoint {
	out := make([]session.Breakpoint, len(bps))
	for i, bp := range bps {
		out[i] = briefBreakpoint(bp)
	}
	return out
}
