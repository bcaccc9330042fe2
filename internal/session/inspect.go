package session

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// Frame is one stack frame.
type Frame struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
}

func frameFromDAP(f dap.StackFrame) Frame {
	fr := Frame{ID: f.Id, Name: f.Name, Line: f.Line, Column: f.Column}
	if f.Source != nil {
		fr.File = f.Source.Path
		if fr.File == "" {
			fr.File = f.Source.Name
		}
	}
	return fr
}

func (r *connection) threads(ctx context.Context) ([]dap.Thread, error) {
	var body dap.ThreadsResponseBody
	if err := r.call(ctx, "threads", nil, &body); err != nil {
		return nil, err
	}
	return body.Threads, nil
}

// Threads lists the program's threads (goroutines for Go).
func (s *Session) Threads(ctx context.Context) ([]dap.Thread, error) {
	s.mu.Lock()
	r, err := s.requireConnectedLocked("list threads")
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	threads, err := r.threads(ctx)
	if err != nil {
		return nil, adapterError("list threads", err, "")
	}
	return threads, nil
}

// adapterError turns an adapter's refusal into an error for the agent.
func adapterError(action string, err error, hint string) error {
	var re *dapc.ResponseError
	if errors.As(err, &re) {
		return &Error{Msg: fmt.Sprintf("cannot %s: %s", action, re.Text()), Hint: hint, Err: err}
	}
	return &Error{Msg: fmt.Sprintf("cannot %s: %v", action, err), Hint: hint, Err: err}
}

// pausedStop returns the run and the current stop, waiting for its
// prefetch to finish.
func (s *Session) pausedStop(ctx context.Context, action string) (*connection, *Stop, error) {
	s.mu.Lock()
	r, st, err := s.requirePausedLocked(action)
	s.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	select {
	case <-st.ready:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	return r, st, nil
}

// StackRequest asks for one page of a thread's stack.
type StackRequest struct {
	// ThreadID is the thread (0: the stopped thread).
	ThreadID int
	// StartFrame is the index, among all the thread's frames (internal
	// ones included, 0 innermost), of the first frame to look at.
	StartFrame int
	// Levels is at most how many frames the page lists (at least 1).
	Levels int
	// IncludeInternals lists frames without source too.
	IncludeInternals bool
}

// StackPage is one page of a thread's stack.
type StackPage struct {
	Frames []Frame
	// Indexes holds each frame's index among all the thread's frames,
	// so that a page cut shorter still says where the next one starts.
	Indexes []int
	// Next is the StartFrame of the next page; 0 when this page reached
	// the bottom of the stack.
	Next int
	// Total is how many frames the thread has, internal ones included.
	// TotalEstimated: the adapter only guessed it (Delve does not unwind
	// a deep stack to its bottom); the stack has at least Total frames.
	Total          int
	TotalEstimated bool
	// Hidden counts the frames without source (runtime and library
	// internals) left out among the page's: a page shorter than asked for
	// says why.
	Hidden int
}

// maxScannedFrames bounds how many frames one page fetches while looking
// for Levels frames with source among internal ones, so that a stack of
// nothing but internals is not read whole to fill a page.
const maxScannedFrames = 2000

// StackPage returns one page of a thread's stack: up to req.Levels frames
// from req.StartFrame on, with the stack's depth and where the next page
// starts. Only the frames the page needs are fetched: a stack 100,000
// frames deep answered whole took lldb-dap more than 30 s.
func (s *Session) StackPage(ctx context.Context, req StackRequest) (StackPage, error) {
	r, st, err := s.pausedStop(ctx, "get the stack trace")
	if err != nil {
		return StackPage{}, err
	}
	threadID := req.ThreadID
	if threadID == 0 {
		threadID = st.ThreadID
	}
	levels := max(req.Levels, 1)
	var page StackPage
	pos := req.StartFrame // the index of the first frame not on the page
	fetchedTo := pos      // the index of the first frame not fetched
	bottom := false
	for len(page.Frames) < levels && !bottom && pos-req.StartFrame < maxScannedFrames {
		want := levels - len(page.Frames)
		if !req.IncludeInternals {
			// Some of them may be internal: fetch a few more at once.
			want = min(max(want, 20), maxScannedFrames-(pos-req.StartFrame))
		}
		chunk, err := s.fetchFrames(ctx, r, st, threadID, pos, want)
		if err != nil {
			if pos == 0 && st.Reason == "entry" && threadID == st.ThreadID {
				// Before the first line some adapters (Delve) have no
				// stack yet: an empty one, not an error
				// (docs/adapter-quirks.md, delve-6).
				return StackPage{}, nil
			}
			return StackPage{}, adapterError("get the stack trace", err, "list_threads shows the valid thread ids")
		}
		page.Total, page.TotalEstimated = chunk.total, chunk.estimated
		bottom = len(chunk.frames) < want
		fetchedTo = pos + len(chunk.frames)
		taken := len(chunk.frames)
		for i, f := range chunk.frames {
			if len(page.Frames) == levels {
				taken = i
				break
			}
			if !req.IncludeInternals && isInternalFrame(f, r.conn.Quirks) {
				page.Hidden++
				continue
			}
			page.Frames = append(page.Frames, frameFromDAP(f))
			page.Indexes = append(page.Indexes, pos+i)
		}
		if taken < len(chunk.frames) && (req.IncludeInternals || !allInternal(chunk.frames[taken:], r.conn.Quirks)) {
			// Frames to list remain below this page.
			bottom = false
		}
		pos += taken
	}
	if bottom {
		// Fewer frames than asked for: this is the bottom (DAP's rule),
		// so the depth is known whatever the adapter guessed.
		page.Total, page.TotalEstimated = fetchedTo, false
		if fetchedTo == req.StartFrame && req.StartFrame > 0 {
			// Past the bottom: the depth is not known from here.
			page.Total, page.TotalEstimated = 0, true
		}
	} else {
		page.Next = pos
		// Adapters guess the depth of a stack they did not unwind to its
		// bottom (lldb-dap adds 20 to what it sent, Delve 50): count it.
		if depth, ok := s.countDepth(ctx, r, st, threadID, fetchedTo, page.Total); ok {
			page.Total, page.TotalEstimated = depth, false
		} else {
			page.Total, page.TotalEstimated = max(page.Total, fetchedTo+1), true
		}
	}
	return page, nil
}

// Bounds of countDepth: a stack deeper than maxCountedDepth, or one the
// adapter cannot count within countDepthTimeout, keeps the adapter's guess.
const (
	maxCountedDepth   = 10_000_000
	maxDepthProbes    = 80
	countDepthTimeout = 10 * time.Second
)

// countDepth counts a thread's frames, known to be more than known, by
// asking for one frame at a time at growing then halving indexes (an
// answer without a frame is past the bottom): about 2·log2(depth) small
// requests instead of the whole stack. hint, the adapter's guess, is tried
// first: an adapter that counts exactly (debugpy) is confirmed in two.
// The count is kept with the stop.
func (s *Session) countDepth(ctx context.Context, r *connection, st *Stop, threadID, known, hint int) (int, bool) {
	st.countedMu.Lock()
	defer st.countedMu.Unlock()
	if depth, ok := st.counted[threadID]; ok {
		return depth, true
	}
	ctx, cancel := context.WithTimeout(ctx, countDepthTimeout)
	defer cancel()
	probes := 0
	// exists says whether the thread has a frame at index i; total is the
	// adapter's totalFrames in that answer.
	exists := func(i int) (found bool, total int, err error) {
		probes++
		if probes > maxDepthProbes {
			return false, 0, errors.New("too many probes")
		}
		var body dap.StackTraceResponseBody
		err = r.call(ctx, "stackTrace", map[string]any{"threadId": threadID, "startFrame": i, "levels": 1}, &body)
		return len(body.StackFrames) > 0, body.TotalFrames, err
	}
	lo, hi := known, -1 // frames 0..lo-1 exist; none at hi (-1: not found yet)
	at := max(hint, lo)
	for hi < 0 {
		if at > maxCountedDepth {
			return 0, false
		}
		found, total, err := exists(at)
		if err != nil {
			return 0, false
		}
		if found {
			lo, at = at+1, max(2*at, at+1)
			continue
		}
		hi = at
		// An answer past the bottom may carry the exact depth (Delve's,
		// debugpy's): one or two probes confirm it.
		if total > lo && total <= hi {
			if found, _, err := exists(total - 1); err == nil && found {
				lo = total
				if total < hi {
					if found, _, err := exists(total); err == nil && !found {
						hi = total
					}
				}
			}
		}
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		found, _, err := exists(mid)
		if err != nil {
			return 0, false
		}
		if found {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if st.counted == nil {
		st.counted = map[int]int{}
	}
	st.counted[threadID] = lo
	return lo, true
}

func allInternal(frames []dap.StackFrame, q adapter.Quirks) bool {
	for _, f := range frames {
		if !isInternalFrame(f, q) {
			return false
		}
	}
	return true
}

// framesChunk is one stackTrace answer: the frames, and the stack's depth
// as the adapter gave it.
type framesChunk struct {
	frames    []dap.StackFrame
	total     int
	estimated bool
}

// fetchFrames fetches up to n frames of a thread from index start on,
// from the frames prefetched at the stop when they cover them.
func (s *Session) fetchFrames(ctx context.Context, r *connection, st *Stop, threadID, start, n int) (framesChunk, error) {
	if threadID == st.ThreadID && st.framesErr == nil && st.frames != nil {
		complete := len(st.frames) < prefetchFrames
		if complete || start+n <= len(st.frames) {
			from, to := min(start, len(st.frames)), min(start+n, len(st.frames))
			return framesChunk{frames: st.frames[from:to], total: st.depth, estimated: !st.depthKnown}, nil
		}
	}
	var body dap.StackTraceResponseBody
	if err := r.call(ctx, "stackTrace", map[string]any{"threadId": threadID, "startFrame": start, "levels": n}, &body); err != nil {
		return framesChunk{}, err
	}
	renameFrames(body.StackFrames, r.conn.Quirks)
	return framesChunk{frames: body.StackFrames, total: body.TotalFrames, estimated: r.conn.Quirks.TotalFramesEstimated || body.TotalFrames == 0}, nil
}

func isInternalFrame(f dap.StackFrame, q adapter.Quirks) bool {
	if f.PresentationHint == "label" || f.PresentationHint == "subtle" {
		return true
	}
	if f.Source == nil || (f.Source.Path == "" && f.Source.SourceReference == 0) {
		return true
	}
	return q.Internal(f.Name, f.Source.Path)
}

// renameFrames applies the adapter's frame naming (adapter.Quirks.FrameName)
// once, where frames arrive, so that every view of them agrees.
func renameFrames(frames []dap.StackFrame, q adapter.Quirks) {
	if q.FrameName == nil {
		return
	}
	for i := range frames {
		frames[i].Name = q.Frame(frames[i].Name)
	}
}

// Scopes returns the scopes of a frame.
func (s *Session) Scopes(ctx context.Context, frameID int) ([]dap.Scope, error) {
	r, st, err := s.pausedStop(ctx, "get scopes")
	if err != nil {
		return nil, err
	}
	if len(st.frames) > 0 && st.frames[st.top].Id == frameID && st.scopes != nil {
		return st.scopes, nil
	}
	scopes, err := fetchScopes(ctx, r, frameID)
	if err != nil {
		return nil, adapterError("get scopes", err, "get_stack_trace lists the valid frame ids for the current stop")
	}
	return scopes, nil
}

// maxExpandedVariables bounds a depth expansion.
const maxExpandedVariables = 500

// VariablesRequest asks for the children of a variables reference.
type VariablesRequest struct {
	Reference int
	Names     []string
	// Depth expands nested values that many levels (0: none).
	Depth        int
	Start, Count int
}

// Variables returns the children of a variables reference (a scope's or a
// value's), optionally expanded to Depth.
func (s *Session) Variables(ctx context.Context, req VariablesRequest) ([]Variable, error) {
	r, st, err := s.pausedStop(ctx, "get variables")
	if err != nil {
		return nil, err
	}
	var raw []dap.Variable
	if req.Reference == st.localsRef && st.localsErr == nil && req.Start == 0 && req.Count == 0 && st.locals != nil {
		raw = st.locals
	} else if raw, err = fetchVariables(ctx, r, req.Reference, req.Start, req.Count); err != nil {
		return nil, adapterError("get variables", err, "variablesReference values are valid only until the program resumes; get_scopes or get_local_variables gives fresh ones")
	}
	budget := maxExpandedVariables
	return expand(ctx, r, selectNames(raw, req.Names), min(req.Depth, 5), &budget), nil
}

func selectNames(vars []dap.Variable, names []string) []dap.Variable {
	if len(names) == 0 {
		return vars
	}
	var out []dap.Variable
	for _, v := range vars {
		if slices.Contains(names, v.Name) {
			out = append(out, v)
		}
	}
	return out
}

func expand(ctx context.Context, r *connection, vars []dap.Variable, depth int, budget *int) []Variable {
	out := make([]Variable, 0, len(vars))
	for _, v := range vars {
		sv := fromDAP(v, MaxValueLen)
		*budget--
		if depth > 0 && v.VariablesReference > 0 && *budget > 0 {
			if kids, err := fetchVariables(ctx, r, v.VariablesReference, 0, 0); err == nil {
				sv.Children = expand(ctx, r, filterSpecial(kids, false), depth-1, budget)
			}
		}
		out = append(out, sv)
	}
	return out
}

// LocalsResult is the answer to Locals.
type LocalsResult struct {
	Variables []Variable
	Frame     Frame
	ScopeName string
}

// Locals returns a frame's local variables (frameID nil: the top frame).
func (s *Session) Locals(ctx context.Context, frameID *int, includeSpecial bool, names []string) (*LocalsResult, error) {
	r, st, err := s.pausedStop(ctx, "get local variables")
	if err != nil {
		return nil, err
	}
	if len(st.frames) == 0 {
		if st.framesErr != nil && st.Reason == "entry" {
			return nil, errorf("step or continue first", "no local variables yet: the program stopped on entry, before its first line")
		}
		if st.framesErr != nil {
			return nil, adapterError("get local variables", st.framesErr, "")
		}
		return nil, errorf("", "cannot get local variables: the stopped thread has no stack frames")
	}
	frame := st.frames[st.top]
	if frameID != nil && *frameID != frame.Id {
		found := false
		for _, f := range st.frames {
			if f.Id == *frameID {
				frame, found = f, true
				break
			}
		}
		if !found {
			frame = dap.StackFrame{Id: *frameID}
		}
	}
	var raw []dap.Variable
	scopeName := st.localsName
	if frame.Id == st.frames[st.top].Id && (st.locals != nil || st.localsErr != nil) {
		if st.localsErr != nil {
			return nil, adapterError("get local variables", st.localsErr, "")
		}
		raw = st.locals
	} else {
		scopes, err := fetchScopes(ctx, r, frame.Id)
		if err != nil {
			return nil, adapterError("get local variables", err, "get_stack_trace lists the valid frame ids for the current stop")
		}
		sc := localsScope(scopes)
		if sc == nil {
			return &LocalsResult{Frame: frameFromDAP(frame)}, nil
		}
		scopeName = sc.Name
		if raw, err = fetchVariables(ctx, r, sc.VariablesReference, 0, 0); err != nil {
			return nil, adapterError("get local variables", err, "")
		}
	}
	raw = selectNames(filterSpecial(raw, includeSpecial), names)
	vars := make([]Variable, len(raw))
	for i, v := range raw {
		vars[i] = fromDAP(v, MaxValueLen)
	}
	return &LocalsResult{Variables: vars, Frame: frameFromDAP(frame), ScopeName: scopeName}, nil
}

// EvalResult is the value of an evaluated expression.
type EvalResult struct {
	Result             string `json:"result"`
	Type               string `json:"type,omitempty"`
	VariablesReference int    `json:"variablesReference"`
	Truncated          bool   `json:"truncated,omitempty"`
	Masked             bool   `json:"masked,omitempty"`
}

// DefaultEvaluateTimeout bounds an evaluation the agent asked for without a
// deadline of its own.
const DefaultEvaluateTimeout = 10 * time.Second

// evaluationGrace is how long past its limit an evaluation's answer is
// awaited: the adapter needs a moment to stop it and say so.
const evaluationGrace = 3 * time.Second

// Evaluate evaluates an expression in a frame (nil: the top frame of the
// current stop). exprContext defaults to the adapter's plain-value context.
// The evaluation may take until ctx's deadline (DefaultEvaluateTimeout
// without one); past it the adapter is made to stop it where it can.
func (s *Session) Evaluate(ctx context.Context, expression string, frameID *int, exprContext string) (*EvalResult, error) {
	if strings.TrimSpace(expression) == "" {
		return nil, errorf("pass the expression to evaluate, e.g. \"len(items)\"", "expression is empty")
	}
	r, st, err := s.pausedStop(ctx, "evaluate an expression")
	if err != nil {
		return nil, err
	}
	if exprContext == "" {
		exprContext = r.conn.Quirks.EvaluateContext
	}
	if exprContext == "" {
		exprContext = "repl"
	}
	args := map[string]any{"expression": expression, "context": exprContext}
	switch {
	case frameID != nil:
		args["frameId"] = *frameID
	case len(st.frames) > 0:
		args["frameId"] = st.frames[st.top].Id
	}
	limit := evaluationLimit(ctx)
	frame, _ := args["frameId"].(int)
	r.boundEvaluation(ctx, args, frame, limit)
	// The answer is awaited past the agent's deadline: the adapter stops a
	// runaway evaluation at limit and needs a moment to answer.
	callCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), limit+evaluationGrace)
	defer cancel()
	began := time.Now()
	var body dap.EvaluateResponseBody
	if err := r.call(callCtx, "evaluate", args, &body); err != nil {
		return nil, r.evaluateError(ctx, expression, err, time.Since(began), limit, st)
	}
	value, truncated, masked := shapeValue("", body.Result, body.VariablesReference, MaxValueLen)
	return &EvalResult{Result: value, Type: body.Type, VariablesReference: body.VariablesReference, Truncated: truncated, Masked: masked}, nil
}

// boundEvaluation adds to an evaluate request's args what makes the
// adapter stop the evaluation at limit (Quirks.LimitEvaluation). Without
// the bound the expression is still worth evaluating; should it run away,
// the answer says it could not be stopped.
func (r *connection) boundEvaluation(ctx context.Context, args map[string]any, frameID int, limit time.Duration) {
	hook := r.conn.Quirks.LimitEvaluation
	if hook == nil {
		return
	}
	extra, err := hook(ctx, r.call, frameID, limit)
	if err != nil {
		r.s.log.Warn("cannot bound an evaluation's time", "err", err)
		return
	}
	maps.Copy(args, extra)
}

// evaluationLimit is the time an evaluation may take: until ctx's deadline,
// or DefaultEvaluateTimeout.
func evaluationLimit(ctx context.Context) time.Duration {
	if deadline, ok := ctx.Deadline(); ok {
		return max(time.Until(deadline), time.Millisecond)
	}
	return DefaultEvaluateTimeout
}

// evaluateError says why an evaluation gave no value and, when it ran out
// of time, in what state that left the program: an adapter that stopped
// the evaluation answered, and the thread is paused again.
func (r *connection) evaluateError(ctx context.Context, expression string, err error, took, limit time.Duration, st *Stop) error {
	action := fmt.Sprintf("evaluate %q", Brief(expression))
	// An adapter that bounds the evaluation itself (the JVM's, with its own
	// timer started a little before ours) may answer just short of limit.
	if took < limit*9/10 {
		hint := "check the expression's syntax and that its names exist in this frame (get_local_variables lists them)"
		if advise := r.conn.Quirks.EvaluationHint; advise != nil {
			if h := advise(expression, err.Error()); h != "" {
				hint = h
			}
		}
		return adapterError(action, err, hint+"; the program is still paused where it was")
	}
	where := "where it was"
	if len(st.frames) > 0 {
		f := frameFromDAP(st.frames[st.top])
		where = fmt.Sprintf("at %s:%d", filepath.Base(f.File), f.Line)
	}
	rounded := limit.Round(100 * time.Millisecond)
	var re *dapc.ResponseError
	if r.conn.Quirks.LimitEvaluation != nil && errors.As(err, &re) && r.stillPaused(ctx, st) {
		return &Error{
			Msg:  fmt.Sprintf("cannot %s: it did not finish within %v and was stopped (%s)", action, rounded, lastLine(re.Text())),
			Hint: "the program is still paused " + where + " and every tool works; an expression that loops or waits never finishes: give a larger timeout only if it really needs longer",
			Err:  err,
		}
	}
	return &Error{
		Msg:  fmt.Sprintf("cannot %s: it did not finish within %v and the debugger could not stop it", action, rounded),
		Hint: "the program is stuck in the evaluation, no longer paused " + where + ", and the debugger cannot get it back: close_debug_session and start a new session to go on",
		Err:  err,
	}
}

// stillPausedTimeout bounds the check that a stopped evaluation's thread is
// paused again.
const stillPausedTimeout = 2 * time.Second

// stillPaused reports whether the stop's thread answers for its stack, as a
// paused thread does; one still running an evaluation does not.
func (r *connection) stillPaused(ctx context.Context, st *Stop) bool {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stillPausedTimeout)
	defer cancel()
	var body dap.StackTraceResponseBody
	err := r.call(ctx, "stackTrace", map[string]any{"threadId": st.ThreadID, "startFrame": 0, "levels": 1}, &body)
	return err == nil && len(body.StackFrames) > 0
}

// evaluation is one expression's evaluate answer, or why there is none.
type evaluation struct {
	body dap.EvaluateResponseBody
	err  error
}

// ownEvaluationLimit bounds each evaluation the session makes on its own
// at a stop (a watch, a tracepoint's value): an expression that loops must
// cost that stop this much, not the session.
const ownEvaluationLimit = 5 * time.Second

// evaluateIn evaluates an expression in a frame for the session's own use
// (watches, tracepoints, break_on_change), in the context that gives a
// plain value for this adapter ("watch" unless its quirks name another),
// bounded by ownEvaluationLimit where the adapter can stop an evaluation.
func (r *connection) evaluateIn(ctx context.Context, frameID int, expression string) evaluation {
	exprContext := r.conn.Quirks.EvaluateContext
	if exprContext == "" {
		exprContext = "watch"
	}
	args := map[string]any{"expression": expression, "context": exprContext, "frameId": frameID}
	limit := min(evaluationLimit(ctx), ownEvaluationLimit)
	r.boundEvaluation(ctx, args, frameID, limit)
	ctx, cancel := context.WithTimeout(ctx, limit+evaluationGrace)
	defer cancel()
	var e evaluation
	e.err = r.call(ctx, "evaluate", args, &e.body)
	if e.err == nil {
		e.body.Result, _ = inlineValue(ctx, r, e.body.Result, e.body.VariablesReference)
	}
	return e
}

// evaluateAll evaluates expressions in a frame, all at once.
func (r *connection) evaluateAll(ctx context.Context, frameID int, exprs []string) []evaluation {
	out := make([]evaluation, len(exprs))
	var wg sync.WaitGroup
	for i, e := range exprs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = r.evaluateIn(ctx, frameID, e)
		}()
	}
	wg.Wait()
	return out
}
