package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

type threadInfo struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type threadsArgs struct {
	SessionID string `json:"sessionId"`
	Start     Int    `json:"start,omitempty" jsonschema:"first thread to list (0-based), for paging long lists"`
	Count     Int    `json:"count,omitempty" jsonschema:"at most this many threads (default: as many as maxBytes allows)"`
	MaxBytes  Int    `json:"maxBytes,omitempty" jsonschema:"answer size cap in bytes (default 8000); budget says where the next page starts"`
}

type threadsResult struct {
	Success bool         `json:"success"`
	Threads []threadInfo `json:"threads"`
	// Count is how many threads this answer lists, Total how many the
	// adapter listed (Delve stops at 1024 goroutines), Start the index of
	// the first one here.
	Count  int         `json:"count"`
	Total  int         `json:"total"`
	Start  int         `json:"start"`
	Budget *budgetNote `json:"budget,omitempty"`
}

type stackArgs struct {
	SessionID        string `json:"sessionId"`
	ThreadID         Int    `json:"threadId,omitempty" jsonschema:"thread (default: the thread that stopped)"`
	StartFrame       Int    `json:"startFrame,omitempty" jsonschema:"first frame to list, 0 the innermost, internal frames counted (default 0)"`
	Levels           Int    `json:"levels,omitempty" jsonschema:"at most this many frames (default 50, at most 1000; an answer also stops at 64 KB)"`
	IncludeInternals bool   `json:"includeInternals,omitempty" jsonschema:"include frames without source (runtime and library internals)"`
	AllThreads       bool   `json:"allThreads,omitempty" jsonschema:"every thread's stack, identical ones folded, each with what it waits on (lock, channel, I/O): for a hang"`
}

// Stack pages: a 100,000-frame recursion answered whole was 22 MB.
const (
	// defaultStackLevels is how many frames an answer lists unless levels
	// says otherwise: more than most stacks have, few enough to read.
	defaultStackLevels = 50
	// maxStackLevels is the most frames one answer lists.
	maxStackLevels = 1000
	// maxStackBytes bounds an answer's size, however long the frames'
	// names and paths are.
	maxStackBytes = 64 << 10
	// maxFrameText bounds a frame's name and path (C++ template names run
	// to kilobytes).
	maxFrameText = 500
)

type stackResult struct {
	Success     bool            `json:"success"`
	StackFrames []session.Frame `json:"stackFrames"`
	Count       int             `json:"count"`
	// StartFrame is the index of the first frame asked for, TotalFrames
	// how many the thread has (internal ones included): at least that
	// many when TotalFramesEstimated.
	StartFrame           int  `json:"startFrame"`
	TotalFrames          int  `json:"totalFrames"`
	TotalFramesEstimated bool `json:"totalFramesEstimated,omitempty"`
	// NextStartFrame is the startFrame of the next page, absent at the
	// bottom of the stack; More says so in words.
	NextStartFrame int    `json:"nextStartFrame,omitempty"`
	More           string `json:"more,omitempty"`
	// StopReason is why the program is paused (the reference's field).
	StopReason string `json:"stopReason,omitempty"`
	// Hidden says what the answer left out and how to see it: the
	// frames without source a page skipped (a page shorter than asked
	// for is never a silent one), or with allThreads the threads that
	// have only the runtime's frames.
	Hidden string `json:"hidden,omitempty"`
	allThreadsResult
}

type scopesArgs struct {
	SessionID string `json:"sessionId"`
	FrameID   Int    `json:"frameId" jsonschema:"a frame id from get_stack_trace"`
}

type scopeInfo struct {
	Name               string `json:"name"`
	VariablesReference int    `json:"variablesReference"`
	PresentationHint   string `json:"presentationHint,omitempty"`
	Expensive          bool   `json:"expensive"`
	NamedVariables     int    `json:"namedVariables,omitempty"`
	IndexedVariables   int    `json:"indexedVariables,omitempty"`
}

type scopesResult struct {
	Success bool        `json:"success"`
	Scopes  []scopeInfo `json:"scopes"`
}

type variablesArgs struct {
	SessionID string   `json:"sessionId"`
	Scope     Int      `json:"scope" jsonschema:"a variablesReference: of a scope or of an expandable value"`
	Names     []string `json:"names,omitempty" jsonschema:"only these variables"`
	Depth     Int      `json:"depth,omitempty" jsonschema:"also expand nested values this many levels (max 5)"`
	Start     Int      `json:"start,omitempty" jsonschema:"first child to return, for paging long lists"`
	Count     Int      `json:"count,omitempty" jsonschema:"how many children to return"`
	MaxBytes  Int      `json:"maxBytes,omitempty" jsonschema:"answer size cap in bytes (default 8000): deep nesting and long values are cut first"`
}

type variablesResult struct {
	Success   bool               `json:"success"`
	Variables []session.Variable `json:"variables"`
	Count     int                `json:"count"`
	Budget    *budgetNote        `json:"budget,omitempty"`
}

type localsArgs struct {
	SessionID      string   `json:"sessionId"`
	FrameID        *Int     `json:"frameId,omitempty" jsonschema:"frame (default: the top frame of the current stop)"`
	IncludeSpecial bool     `json:"includeSpecial,omitempty" jsonschema:"include interpreter internals such as Python's __dunder__ names"`
	Names          []string `json:"names,omitempty" jsonschema:"only these variables"`
	MaxBytes       Int      `json:"maxBytes,omitempty" jsonschema:"answer size cap (default 8000 bytes)"`
}

type frameSummary struct {
	Name string `json:"name"`
	File string `json:"file,omitempty"`
	Line int    `json:"line"`
}

type localsResult struct {
	Success   bool               `json:"success"`
	Variables []session.Variable `json:"variables"`
	Count     int                `json:"count"`
	Frame     frameSummary       `json:"frame"`
	ScopeName string             `json:"scopeName"`
	Budget    *budgetNote        `json:"budget,omitempty"`
}

type evaluateArgs struct {
	SessionID  string `json:"sessionId"`
	Expression string `json:"expression" jsonschema:"expression in the program's language"`
	FrameID    *Int   `json:"frameId,omitempty" jsonschema:"frame to evaluate in (default: the top frame of the current stop)"`
	Context    string `json:"context,omitempty" jsonschema:"DAP evaluate context: watch, repl, hover"`
	Timeout    Int    `json:"timeout,omitempty" jsonschema:"milliseconds the evaluation may take before the debugger stops it (default 10000)"`
}

type evaluateResult struct {
	Success bool `json:"success"`
	session.EvalResult
}

type sourceArgs struct {
	SessionID    string `json:"sessionId"`
	File         string `json:"file" jsonschema:"source file (absolute, or relative to the server's cwd)"`
	Line         Int    `json:"line" jsonschema:"1-based line at the centre of the window"`
	LinesContext *Int   `json:"linesContext,omitempty" jsonschema:"lines shown either side (default 5)"`
}

type sourceResult struct {
	Success     bool                 `json:"success"`
	File        string               `json:"file"`
	Line        int                  `json:"line"`
	LineContent string               `json:"lineContent"`
	Surrounding []session.SourceLine `json:"surrounding"`
	// Remote: the agent has no such file; the lines are the program's
	// copy, served by the debug adapter.
	Remote bool `json:"remote,omitempty"`
	// Budget says what a window too large to answer left out.
	Budget *budgetNote `json:"budget,omitempty"`
}

type outputArgs struct {
	SessionID string `json:"sessionId"`
	Since     Int    `json:"since,omitempty" jsonschema:"entries after this seq (the previous nextSince; 0: from the start)"`
	Limit     Int    `json:"limit,omitempty" jsonschema:"at most this many entries (default 200)"`
	Wait      Int    `json:"wait,omitempty" jsonschema:"ms to wait when nothing is new after since (default 0, max 30000)"`
	MaxBytes  Int    `json:"maxBytes,omitempty" jsonschema:"answer size cap (default 8000): the rest waits for the next call"`
}

type outputResult struct {
	Success   bool                `json:"success"`
	Entries   []session.OutputRun `json:"entries"`
	NextSince uint64              `json:"nextSince"`
	HasMore   bool                `json:"hasMore"`
	Dropped   uint64              `json:"dropped"`
	Budget    *budgetNote         `json:"budget,omitempty"`
}

func (s *Server) addInspectTools() {
	addTool(s, "list_threads", "List the program's threads (goroutines for Go).", s.listThreads)
	addTool(s, "get_stack_trace", "Get the call stack of the stopped thread (or threadId), innermost first, by pages (levels); totalFrames is its depth, nextStartFrame where the next page starts.", s.getStackTrace)
	addTool(s, "get_scopes", "Get the scopes (locals, globals, …) of a stack frame, each with a variablesReference for get_variables.", s.getScopes)
	addTool(s, "get_variables", "Get a scope's variables or an expandable value's children (by variablesReference), `depth` levels deep.", s.getVariables)
	addTool(s, "get_local_variables", "Get the local variables of the top frame (or frameId) of the current stop.", s.getLocalVariables)
	addTool(s, "evaluate_expression", "Evaluate an expression in the stop's top frame (or frameId). Past timeout, the error says whether the program is still paused.", s.evaluateExpression)
	addTool(s, "get_source_context", "Show the lines around a line of a source file.", s.getSourceContext)
	addTool(s, "get_output", "Read the program's output (stdout, stderr, console) after a cursor: pass the previous nextSince as since.", s.getOutput)
}

func (s *Server) listThreads(ctx context.Context, a *threadsArgs) (*threadsResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.Start < 0 || a.Count < 0 {
		return nil, userError("pass start (0-based) and count as whole numbers of 0 or more", "start and count must not be negative")
	}
	threads, err := sess.Threads(ctx)
	if err != nil {
		return nil, err
	}
	start := min(int(a.Start), len(threads))
	page := threads[start:]
	if a.Count > 0 && int(a.Count) < len(page) {
		page = page[:a.Count]
	}
	res := &threadsResult{Success: true, Threads: make([]threadInfo, 0, len(page)), Total: len(threads), Start: start}
	for _, t := range page {
		res.Threads = append(res.Threads, threadInfo{ID: t.Id, Name: cutValue(t.Name, 200)})
	}
	res.Count = len(res.Threads)
	res.fit(budgetOf(a.MaxBytes))
	return res, nil
}

func (s *Server) getStackTrace(ctx context.Context, a *stackArgs) (*stackResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.StartFrame < 0 || a.Levels < 0 {
		return nil, userError("pass startFrame (0 the innermost frame) and levels as whole numbers of 0 or more", "startFrame and levels must not be negative")
	}
	if a.AllThreads {
		return s.allThreadStacks(ctx, sess, a)
	}
	levels := int(a.Levels)
	if levels == 0 {
		levels = defaultStackLevels
	}
	levels = min(levels, maxStackLevels)
	page, err := sess.StackPage(ctx, session.StackRequest{
		ThreadID: int(a.ThreadID), StartFrame: int(a.StartFrame), Levels: levels, IncludeInternals: a.IncludeInternals,
	})
	if err != nil {
		return nil, err
	}
	res := &stackResult{Success: true, StackFrames: page.Frames, StartFrame: int(a.StartFrame),
		TotalFrames: page.Total, TotalFramesEstimated: page.TotalEstimated, NextStartFrame: page.Next}
	if res.StackFrames == nil {
		res.StackFrames = []session.Frame{}
	}
	for i := range res.StackFrames {
		f := &res.StackFrames[i]
		f.Name, f.File = cutValue(f.Name, maxFrameText), cutValue(f.File, maxFrameText)
	}
	res.fit(maxStackBytes, page.Indexes)
	if page.Hidden > 0 {
		res.Hidden = fmt.Sprintf("%d runtime or library frames left out (includeInternals shows them)", page.Hidden)
	}
	if info := sess.Info(); info.State == session.StatePaused && info.LastStop != nil {
		res.StopReason = info.LastStop.Reason
	}
	return res, nil
}

func (s *Server) getScopes(ctx context.Context, a *scopesArgs) (*scopesResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	scopes, err := sess.Scopes(ctx, int(a.FrameID))
	if err != nil {
		return nil, err
	}
	res := &scopesResult{Success: true, Scopes: []scopeInfo{}}
	for _, sc := range scopes {
		res.Scopes = append(res.Scopes, scopeInfo{
			Name: sc.Name, VariablesReference: sc.VariablesReference, PresentationHint: sc.PresentationHint,
			Expensive: sc.Expensive, NamedVariables: sc.NamedVariables, IndexedVariables: sc.IndexedVariables,
		})
	}
	return res, nil
}

func (s *Server) getVariables(ctx context.Context, a *variablesArgs) (*variablesResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.Scope <= 0 {
		return nil, userError("pass scope, a variablesReference from get_scopes, get_local_variables or an expandable value", "scope (a variablesReference) is required")
	}
	vars, err := sess.Variables(ctx, session.VariablesRequest{Reference: int(a.Scope), Names: a.Names, Depth: int(a.Depth), Start: int(a.Start), Count: int(a.Count)})
	if err != nil {
		return nil, err
	}
	if vars == nil {
		vars = []session.Variable{}
	}
	vars, note := fitVariables(vars, budgetOf(a.MaxBytes), 100)
	return &variablesResult{Success: true, Variables: vars, Count: len(vars), Budget: note}, nil
}

func (s *Server) getLocalVariables(ctx context.Context, a *localsArgs) (*localsResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	res, err := sess.Locals(ctx, sess.FrameArg(ctx, a.FrameID.Ptr()), a.IncludeSpecial, a.Names)
	if err != nil {
		return nil, err
	}
	vars := res.Variables
	if vars == nil {
		vars = []session.Variable{}
	}
	vars, note := fitVariables(vars, budgetOf(a.MaxBytes), 300)
	return &localsResult{
		Success: true, Variables: vars, Count: len(vars), Budget: note,
		Frame:     frameSummary{Name: res.Frame.Name, File: res.Frame.File, Line: res.Frame.Line},
		ScopeName: res.ScopeName,
	}, nil
}

func (s *Server) evaluateExpression(ctx context.Context, a *evaluateArgs) (*evaluateResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, millis(a.Timeout))
		defer cancel()
	}
	res, err := sess.Evaluate(ctx, a.Expression, sess.FrameArg(ctx, a.FrameID.Ptr()), a.Context)
	if err != nil {
		return nil, err
	}
	return &evaluateResult{Success: true, EvalResult: *res}, nil
}

func (s *Server) getSourceContext(ctx context.Context, a *sourceArgs) (*sourceResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.File == "" || a.Line <= 0 {
		return nil, userError("pass file and a 1-based line", "get_source_context needs file and line")
	}
	radius := 5
	if a.LinesContext != nil && *a.LinesContext >= 0 {
		// One line past the bound, to know whether the bound cut.
		radius = int(min(*a.LinesContext, maxLinesContext+1))
	}
	file := s.absPath(a.File)
	if !filepath.IsAbs(a.File) && session.IsRemoteAbs(a.File) {
		// A program's own path in another OS's form (a container's
		// /app/x.py seen from Windows) stays as the program reports it.
		file = a.File
	}
	c, remote, err := sess.SourceContext(ctx, file, int(a.Line), radius)
	var refused *userfile.Error
	if errors.As(err, &refused) {
		return nil, userError(refused.Hint, "%v", refused)
	}
	if err != nil {
		return nil, userError("check the file path and that the line is inside the file", "%v", err)
	}
	res := &sourceResult{Success: true, File: file, Line: int(a.Line), LineContent: c.LineContent, Remote: remote}
	res.fit(c.Surrounding)
	return res, nil
}

// get_source_context's bounds: at most maxLinesContext lines either side
// of the asked line, and maxSourceBytes of line text in all, the lines
// nearest the asked one kept; session.MaxSourceLineLen bounds each line.
const (
	maxLinesContext = 500
	maxSourceBytes  = 32 << 10
)

// fit sets the answer's lines: those nearest the current one within
// maxLinesContext either side and maxSourceBytes in all, growing the
// window one line either side at a time, and says what was left out.
func (res *sourceResult) fit(lines []session.SourceLine) {
	at := slices.IndexFunc(lines, func(l session.SourceLine) bool { return l.Current })
	if at < 0 {
		res.Surrounding = lines
		return
	}
	from, to, size := at, at+1, len(lines[at].Content)
	for grew := true; grew; {
		grew = false
		if from > 0 && at-from < maxLinesContext && size+len(lines[from-1].Content) <= maxSourceBytes {
			from--
			size += len(lines[from].Content)
			grew = true
		}
		if to < len(lines) && to-at <= maxLinesContext && size+len(lines[to].Content) <= maxSourceBytes {
			size += len(lines[to].Content)
			to++
			grew = true
		}
	}
	res.Surrounding = lines[from:to]
	var leftOut []string
	if from > 0 || to < len(lines) {
		leftOut = append(leftOut, fmt.Sprintf("the lines before %d and after %d: at most %d lines either side and %d KB in all; ask around another line for more",
			lines[from].Line, lines[to-1].Line, maxLinesContext, maxSourceBytes>>10))
	}
	if slices.ContainsFunc(res.Surrounding, func(l session.SourceLine) bool { return len(l.Content) > session.MaxSourceLineLen }) {
		leftOut = append(leftOut, fmt.Sprintf("the ends of lines longer than %d bytes", session.MaxSourceLineLen))
	}
	if leftOut != nil {
		res.Budget = &budgetNote{MaxBytes: maxSourceBytes, LeftOut: leftOut}
	}
}

func (s *Server) getOutput(ctx context.Context, a *outputArgs) (*outputResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.Since < 0 {
		return nil, userError("pass 0 or the nextSince of a previous call", "since must not be negative")
	}
	limit := int(a.Limit)
	if limit <= 0 {
		limit = 200
	}
	if a.Wait > 0 {
		wctx, cancel := context.WithTimeout(ctx, millis(min(a.Wait, 30000)))
		sess.Output().Wait(wctx, uint64(a.Since))
		cancel()
	}
	page := sess.Output().Since(uint64(a.Since), limit)
	res := &outputResult{Success: true, NextSince: page.NextSince, HasMore: page.HasMore, Dropped: page.Dropped}
	res.fill(page.Entries, budgetOf(a.MaxBytes))
	return res, nil
}

// outputText renders output entries for the resource.
func outputText(entries []session.OutputEntry) string {
	var n int
	for _, e := range entries {
		n += len(e.Output)
	}
	b := make([]byte, 0, n)
	for _, e := range entries {
		b = append(b, e.Output...)
	}
	return string(b)
}
