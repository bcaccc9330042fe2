package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/go-dap"
)

// recordStopTimeout bounds the requests one recorded stop makes.
const recordStopTimeout = 10 * time.Second

// exceptionFrames is how much of the stack an exception stop reads to
// find the line each recorded call was at.
const exceptionFrames = 64

// stepKind is what a thread's step under way is for.
type stepKind int

const (
	stepNone stepKind = iota
	// stepReturn steps out of the innermost recorded call: its end is
	// that call's return.
	stepReturn
	// stepTransit steps out of a frame that is not the user's (a library
	// calling back into user code), towards the innermost recorded call.
	stepTransit
	// stepLine steps over a line of a call whose lines are recorded.
	stepLine
	// stepPrologue steps an instruction through the prologue of a call
	// lldb stopped in before it (userFunction.entryColumn): its arguments
	// are read once it is past.
	stepPrologue
)

// maxPrologueSteps bounds the instructions stepped through a prologue.
const maxPrologueSteps = 32

// activeCall is a recorded call that has not returned yet.
type activeCall struct {
	id    int
	fn    string
	lines bool
	// line is the line about to run (lines only), values the locals as
	// they were before it ran.
	line   int
	values map[string]string
	// failure is set on a test function's call once its test failed.
	failure *testFailure
	// returnLine is the return statement a Go call is returning from,
	// once its stop there has passed and its results' calls run.
	returnLine int
	// returnsCall names the function whose result the call returns as
	// its own (return f(x)), and returned is that value once the call of
	// it made by the return statement has returned.
	returnsCall string
	returned    any
	// inlined counts the frames of code inlined into the call's function
	// that were above it at its breakpoint: each takes a step out of its
	// own before the step out of the call.
	inlined int
}

// siteOf is a return site of a function.
type siteOf struct {
	fn   string
	site returnSite
}

// threadCalls are one thread's recorded calls, innermost last.
type threadCalls struct {
	stack []*activeCall
	step  stepKind
	// prologueSteps counts the instructions stepped into the call about
	// to be recorded; inlinedAbove is how many inlined frames were above
	// its frame (callFrame).
	prologueSteps, inlinedAbove int
	// thrown is an exception or a panic waiting for where it is
	// handled (recordcppthrow.go, recordgopanic.go, recordrustpanic.go).
	thrown *thrownException
}

// failure is how an exception stop ended the program, for the end event.
type failure struct {
	kind, msg string
}

// bpRecorder answers every stop of a recorded run (see recordbp.go). It
// runs on the session's event loop; its lock guards it against the
// recording's end, read from another goroutine.
type bpRecorder struct {
	s           *Session
	out         *eventWriter
	funcs       map[string]userFunction
	lines       []string
	breakpoints map[int]bool // our ids of the recording's breakpoints
	// returnSites are the line breakpoints on return statements (Go), by
	// our ids; a recording with them never steps out of calls.
	returnSites map[int]siteOf
	values      *valueRenderer
	// tests follows a test run's tests, nil when a program is recorded.
	tests *recordedTests

	mu         sync.Mutex
	nextID     int
	threads    map[int]*threadCalls
	mainThread int
	failed     *failure
	calls      int
	// outputRead is the program's output already read for a failure's
	// words (nativeFailure).
	outputRead uint64
	// cppExceptions: the program stops at C++ throws and catches
	// (recordcppthrow.go).
	cppExceptions bool
	// goPanics are the breakpoints where a Go program panics and
	// recovers (recordgopanic.go).
	goPanics goPanics
	// rustCatch is the breakpoint where a Rust panic is caught
	// (recordrustpanic.go), 0 when there is none.
	rustCatch int
}

func newBPRecorder(s *Session, out *eventWriter, funcs []userFunction, lines []string) *bpRecorder {
	byName := make(map[string]userFunction, len(funcs))
	for _, f := range funcs {
		byName[f.name] = f
	}
	return &bpRecorder{s: s, out: out, funcs: byName, lines: lines, breakpoints: map[int]bool{}, returnSites: map[int]siteOf{}, values: newValueRenderer(), threads: map[int]*threadCalls{}}
}

// owns reports one of the breakpoints the recording set: on a function,
// on a return statement, or in the test runner.
func (rec *bpRecorder) owns(id int) bool {
	_, onReturn := rec.returnSites[id]
	if rec.breakpoints[id] || onReturn || id != 0 && (id == rec.goPanics.panics || id == rec.goPanics.recovers || id == rec.rustCatch) {
		return true
	}
	return rec.tests != nil && (rec.tests.logs[id] || rec.tests.failures[id])
}

func (rec *bpRecorder) mechanism() string { return mechanismFor(rec.s.Language.ID) }

// interceptRecording answers every stop while a recording runs.
func (s *Session) interceptRecording(r *connection, st *Stop) bool {
	s.mu.Lock()
	rec := s.recorder
	ours := s.r == r
	s.mu.Unlock()
	if rec == nil || !ours {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), recordStopTimeout)
	defer cancel()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if err := rec.answer(ctx, r, st); err != nil {
		s.log.Warn("recording a stop", "reason", st.Reason, "err", err)
		rec.resume(ctx, r, st.ThreadID, stepNone)
	}
	return true
}

// answer records what a stop says and sets the program going again.
func (rec *bpRecorder) answer(ctx context.Context, r *connection, st *Stop) error {
	switch {
	case rec.isTestLog(st):
		rec.testLogged(ctx, r, st.ThreadID)
		rec.resume(ctx, r, st.ThreadID, rec.thread(st.ThreadID).step)
		return nil
	case rec.isTestFailure(st):
		rec.testFailed(ctx, r, st.ThreadID)
		rec.resume(ctx, r, st.ThreadID, rec.thread(st.ThreadID).step)
		return nil
	case rec.isGoPanic(st):
		rec.goPanicked(ctx, r, st.ThreadID)
		return nil
	case rec.isGoRecover(st):
		rec.goRecovered(ctx, r, st.ThreadID)
		return nil
	case rec.isRustCatch(st):
		rec.rustCaught(ctx, r, st.ThreadID)
		return nil
	case rec.isCall(st):
		frame, above, err := rec.callFrame(ctx, r, st.ThreadID)
		if err != nil {
			return err
		}
		rec.thread(st.ThreadID).inlinedAbove = above
		return rec.call(ctx, r, st.ThreadID, frame)
	case rec.returnSite(st) != nil:
		frame, err := recordedTop(ctx, r, st.ThreadID)
		if err != nil {
			return err
		}
		rec.returning(ctx, r, st.ThreadID, frame, *rec.returnSite(st))
		rec.resume(ctx, r, st.ThreadID, rec.thread(st.ThreadID).step)
		return nil
	case st.Reason == "step":
		frame, err := recordedTop(ctx, r, st.ThreadID)
		if err != nil {
			return err
		}
		if rec.thread(st.ThreadID).step == stepPrologue {
			return rec.call(ctx, r, st.ThreadID, frame)
		}
		return rec.stepped(ctx, r, st.ThreadID, frame)
	case st.Reason == "exception" || st.Reason == "panic" || st.Reason == "signal":
		if rec.cppException(ctx, r, st) || rec.rustPanicked(ctx, r, st) {
			return nil
		}
		rec.exception(ctx, r, st)
	}
	rec.resume(ctx, r, st.ThreadID, stepNone)
	return nil
}

// returnSite is the return site a stop is at, nil if none.
func (rec *bpRecorder) returnSite(st *Stop) *siteOf {
	for _, id := range st.HitBreakpointIDs {
		if s, ok := rec.returnSites[id]; ok {
			return &s
		}
	}
	return nil
}

// returning records the return of the innermost call of the site's
// function, with its results evaluated where they call nothing; the calls
// above it (returned without a stop of theirs) are closed first.
func (rec *bpRecorder) returning(ctx context.Context, r *connection, threadID int, frame dap.StackFrame, at siteOf) {
	tc := rec.thread(threadID)
	i := len(tc.stack) - 1
	for i >= 0 && tc.stack[i].fn != frame.Name {
		i--
	}
	if i < 0 {
		return
	}
	rec.closeAbove(tc, i)
	c := tc.stack[i]
	if c.lines {
		if vars, err := frameLocals(ctx, r, frame.Id); err == nil {
			rec.lineRan(ctx, r, c, frame.Line, vars)
		}
	}
	if at.site.calls {
		// The results call functions, which run after this stop: the
		// call goes on as their caller, and is closed at its line by the
		// next stop outside it (closeAbove).
		c.returnLine, c.returnsCall = at.site.line, at.site.callee
		return
	}
	var value any
	if len(at.site.results) > 0 {
		var vals []string
		for _, e := range at.site.results {
			vals = append(vals, rec.evaluate(ctx, r, frame.Id, e))
		}
		value = strings.Join(vals, ", ")
		if len(vals) > 1 {
			value = "(" + value.(string) + ")"
		}
	}
	rec.endCall(c, value, at.site.line)
	passReturned(tc.stack[:i], c, value)
	tc.stack = tc.stack[:i]
	if c.lines {
		tc.step = stepNone
	}
}

// closeAbove ends the calls above index i of a thread's stack: they
// returned without a stop at a return site the recording could read, or
// from one whose results called functions (returnLine).
func (rec *bpRecorder) closeAbove(tc *threadCalls, i int) {
	for j := len(tc.stack) - 1; j > i; j-- {
		c := tc.stack[j]
		rec.endCall(c, c.returned, c.returnLine)
		passReturned(tc.stack[:j], c, c.returned)
	}
	tc.stack = tc.stack[:i+1]
}

// passReturned gives an ended call's value to its caller, the last of
// callers, when the caller returns it as its own (return f(x)).
func passReturned(callers []*activeCall, c *activeCall, value any) {
	if len(callers) == 0 || value == nil {
		return
	}
	caller := callers[len(callers)-1]
	if caller.returnLine != 0 && caller.returnsCall != "" && caller.returnsCall == c.fn[strings.LastIndex(c.fn, ".")+1:] {
		caller.returned = value
	}
}

// evaluate is an expression's value in a frame, as a recording value.
func (rec *bpRecorder) evaluate(ctx context.Context, r *connection, frameID int, expr string) string {
	var body dap.EvaluateResponseBody
	if err := r.call(ctx, "evaluate", map[string]any{"expression": expr, "frameId": frameID, "context": "watch"}, &body); err != nil {
		return "?"
	}
	return rec.values.render(ctx, r, dap.Variable{Value: body.Result, Type: body.Type, VariablesReference: body.VariablesReference})
}

// callFrame is the frame of the user's function a function breakpoint
// stopped in: the top frame, or, where code inlined into the function's
// first line is where the breakpoint landed (Rust's vec! inlines
// Box::new_uninit into main), the first frame under it that is one of the
// user's functions (lldb shows the inlined function as a frame of its own,
// at the same address); above counts the frames above it.
func (rec *bpRecorder) callFrame(ctx context.Context, r *connection, threadID int) (frame dap.StackFrame, above int, err error) {
	frames, err := recordedStack(ctx, r, threadID, 0, inlinedFrames+1)
	if err != nil {
		return frame, 0, err
	}
	if len(frames) == 0 {
		return frame, 0, errors.New("no stack")
	}
	for i, f := range frames {
		if _, user := rec.funcs[f.Name]; user {
			return f, i, nil
		}
	}
	return frames[0], 0, nil
}

// inlinedFrames bounds the inlined frames looked through for the user's
// function at a call.
const inlinedFrames = 3

// isCall reports a stop at one of the recording's function breakpoints.
func (rec *bpRecorder) isCall(st *Stop) bool {
	for _, id := range st.HitBreakpointIDs {
		if rec.breakpoints[id] {
			return true
		}
	}
	return false
}

func (rec *bpRecorder) thread(id int) *threadCalls {
	tc := rec.threads[id]
	if tc == nil {
		tc = &threadCalls{}
		rec.threads[id] = tc
	}
	return tc
}

// call records a call at its function breakpoint and steps on: out of it,
// or over its first line when its lines are recorded.
func (rec *bpRecorder) call(ctx context.Context, r *connection, threadID int, frame dap.StackFrame) error {
	tc := rec.thread(threadID)
	if tc.step != stepNone && tc.step != stepPrologue {
		// A step of an outer call was interrupted by this call's
		// breakpoint; the outer call is stepped out of afresh once this
		// one returns. lldb-dap would otherwise finish the stale step
		// first (docs/adapter-quirks.md, lldb-2).
		if hook := r.conn.Quirks.BeforeContinue; hook != nil {
			_ = hook(ctx, r.call, threadID)
		}
	}
	if rec.beforePrologue(tc, frame) {
		rec.resume(ctx, r, threadID, stepPrologue)
		return nil
	}
	vars, err := frameLocals(ctx, r, frame.Id)
	if err != nil {
		return err
	}
	if len(rec.returnSites) > 0 {
		rec.closeAbove(tc, rec.callerIndex(ctx, r, threadID, tc))
	}
	rec.nextID++
	rec.calls++
	c := &activeCall{id: rec.nextID, fn: frame.Name, lines: rec.linesOf(frame.Name), inlined: tc.inlinedAbove}
	tc.inlinedAbove = 0
	parent := 0
	if n := len(tc.stack); n > 0 {
		parent = tc.stack[n-1].id
	}
	fields := []field{{"id", c.id}, {"p", parent}}
	// The main thread is the first to call the user's code (not the
	// first to stop: a Go program's runtime recovers on its own
	// goroutine before main runs).
	if rec.mainThread == 0 {
		rec.mainThread = threadID
	}
	if threadID != rec.mainThread {
		fields = append(fields, field{"th", threadID})
	}
	file := ""
	if frame.Source != nil {
		file = frame.Source.Path
	}
	fields = append(fields, field{"fn", frame.Name}, field{"file", file}, field{"line", frame.Line}, field{"args", rec.arguments(ctx, r, frame.Name, vars)})
	rec.out.add(recordEvent{kind: "call", call: c.id, fields: fields})
	tc.stack = append(tc.stack, c)
	if c.lines {
		c.line, c.values = frame.Line, plainValues(vars)
		rec.out.add(recordEvent{kind: "line", call: c.id, fields: []field{{"id", c.id}, {"line", frame.Line}}})
		rec.resume(ctx, r, threadID, stepLine)
		return nil
	}
	if len(rec.returnSites) > 0 {
		// A step of an outer call's lines that this call's breakpoint
		// interrupted goes on at the next continue (Delve).
		rec.resume(ctx, r, threadID, tc.step)
		return nil
	}
	rec.resume(ctx, r, threadID, stepReturn)
	return nil
}

// callerIndex is the index in the thread's stack of the nearest frame of
// the user's code under the stop's top frame, -1 when none is.
func (rec *bpRecorder) callerIndex(ctx context.Context, r *connection, threadID int, tc *threadCalls) int {
	frames, err := recordedStack(ctx, r, threadID, 1, prefetchFrames)
	if err != nil {
		return len(tc.stack) - 1
	}
	for _, f := range frames {
		if _, user := rec.funcs[f.Name]; !user {
			continue
		}
		for i := len(tc.stack) - 1; i >= 0; i-- {
			if tc.stack[i].fn == f.Name {
				return i
			}
		}
	}
	return -1
}

// stepped handles the end of a step: a line of a call whose lines are
// recorded, a call's return, or the way back to the innermost call.
func (rec *bpRecorder) stepped(ctx context.Context, r *connection, threadID int, frame dap.StackFrame) error {
	tc := rec.thread(threadID)
	if len(tc.stack) == 0 {
		rec.resume(ctx, r, threadID, stepNone)
		return nil
	}
	top := tc.stack[len(tc.stack)-1]
	vars, err := frameLocals(ctx, r, frame.Id)
	if err != nil {
		return err
	}
	switch {
	case tc.step == stepReturn && top.inlined > 0:
		// Out of an inlined frame, into the call's own (callFrame).
		top.inlined--
		rec.resume(ctx, r, threadID, stepReturn)
		return nil
	case tc.step == stepLine && frame.Name == top.fn:
		rec.lineRan(ctx, r, top, frame.Line, vars)
		rec.resume(ctx, r, threadID, stepLine)
		return nil
	case tc.step == stepLine || tc.step == stepReturn:
		rec.returned(ctx, r, top, vars)
		tc.stack = tc.stack[:len(tc.stack)-1]
	}
	rec.towardsInnermost(ctx, r, threadID, tc, frame)
	return nil
}

// towardsInnermost sets the thread going again after a return: on with
// the innermost recorded call (a step out of it, or over its lines), out
// of a frame between it and the program's stop, or on to the next
// breakpoint when no recorded call is under way.
func (rec *bpRecorder) towardsInnermost(ctx context.Context, r *connection, threadID int, tc *threadCalls, frame dap.StackFrame) {
	switch n := len(tc.stack); {
	case n == 0:
		rec.resume(ctx, r, threadID, stepNone)
	case frame.Name != tc.stack[n-1].fn:
		rec.resume(ctx, r, threadID, stepTransit)
	case tc.stack[n-1].lines:
		rec.resume(ctx, r, threadID, stepLine)
	default:
		rec.resume(ctx, r, threadID, stepReturn)
	}
}

// lineRan records the set events of the line a step ran and the line
// event of the line it reached.
func (rec *bpRecorder) lineRan(ctx context.Context, r *connection, c *activeCall, line int, vars []dap.Variable) {
	now := plainValues(vars)
	for _, v := range filterSpecial(vars, false) {
		was, ok := c.values[v.Name]
		if ok && withoutAddresses(was) == withoutAddresses(now[v.Name]) {
			continue
		}
		rec.out.add(recordEvent{kind: "set", call: c.id, fields: []field{{"id", c.id}, {"line", c.line}, {"n", v.Name}, {"v", rec.values.render(ctx, r, v)}}})
	}
	c.line, c.values = line, now
	rec.out.add(recordEvent{kind: "line", call: c.id, fields: []field{{"id", c.id}, {"line", line}}})
}

// returned records a call's return with the value the adapter shows in
// the caller after the step out (Delve's ~r0, lldb-dap's "Return Value").
// The line it returned from is not known after a step out: 0 then, the
// line of the last step for a call whose lines are recorded.
func (rec *bpRecorder) returned(ctx context.Context, r *connection, c *activeCall, vars []dap.Variable) {
	var value any
	var results []string
	for _, v := range vars {
		if isReturnValue(v.Name) {
			results = append(results, rec.values.render(ctx, r, v))
		}
	}
	switch len(results) {
	case 0:
	case 1:
		value = results[0]
	default:
		value = "(" + strings.Join(results, ", ") + ")"
	}
	line := 0
	if c.lines {
		line = c.line
	}
	rec.out.add(recordEvent{kind: "ret", call: c.id, fields: []field{{"id", c.id}, {"v", value}, {"line", line}}})
}

// beforePrologue reports a call stopped at the entry of a function whose
// prologue lldb does not skip, before an instruction limit: the call is
// recorded once a step has gone past it.
func (rec *bpRecorder) beforePrologue(tc *threadCalls, frame dap.StackFrame) bool {
	f := rec.funcs[frame.Name]
	if f.entryColumn != 0 && frame.Column == f.entryColumn && tc.prologueSteps < maxPrologueSteps {
		tc.prologueSteps++
		return true
	}
	tc.prologueSteps = 0
	return false
}

// resume sets a thread going: a step out or over for kind, a continue
// for stepNone.
func (rec *bpRecorder) resume(ctx context.Context, r *connection, threadID int, kind stepKind) {
	command := map[stepKind]string{stepNone: "continue", stepReturn: "stepOut", stepTransit: "stepOut", stepLine: "next", stepPrologue: "stepIn"}[kind]
	args := map[string]any{"threadId": threadID}
	if kind == stepPrologue {
		args["granularity"] = "instruction"
	}
	rec.thread(threadID).step = kind
	if err := r.call(ctx, command, args, nil); err != nil {
		rec.s.log.Warn("resuming a recorded program", "command", command, "err", err)
	}
}

// linesOf reports whether a function's lines are recorded: Lines names
// it whole ("main.price"), by its last parts ("price", "Cart.Total") or
// as Delve writes a method ("(*Cart).Total").
func (rec *bpRecorder) linesOf(fn string) bool {
	plain := strings.NewReplacer("(*", "", ")", "").Replace(fn)
	for _, l := range rec.lines {
		l = strings.NewReplacer("(*", "", ")", "").Replace(l)
		if functionMatches(plain, l) {
			return true
		}
	}
	return false
}

// arguments are the call's parameters in declaration order, with their
// values, when the function's parameters are known; all the locals
// shown at its entry otherwise.
func (rec *bpRecorder) arguments(ctx context.Context, r *connection, fn string, vars []dap.Variable) [][2]string {
	byName := map[string]dap.Variable{}
	for _, v := range filterSpecial(vars, false) {
		byName[v.Name] = v
	}
	f, known := rec.funcs[fn]
	out := [][2]string{}
	if !known {
		for _, v := range filterSpecial(vars, false) {
			out = append(out, [2]string{v.Name, rec.values.render(ctx, r, v)})
		}
		return out
	}
	for _, p := range f.params {
		if v, ok := byName[p]; ok {
			out = append(out, [2]string{p, rec.values.render(ctx, r, v)})
		}
	}
	return out
}

// frameLocals are the locals (with the arguments) of a frame, as the
// adapter's locals scope lists them.
func frameLocals(ctx context.Context, r *connection, frameID int) ([]dap.Variable, error) {
	scopes, err := fetchScopes(ctx, r, frameID)
	if err != nil {
		return nil, err
	}
	sc := localsScope(scopes)
	if sc == nil {
		return nil, fmt.Errorf("the frame has no locals scope")
	}
	return fetchVariables(ctx, r, sc.VariablesReference, 0, 0)
}

// plainValues maps locals to their values as the adapter shows them, as
// the snapshot compares them.
func plainValues(vars []dap.Variable) map[string]string {
	out := map[string]string{}
	for _, v := range filterSpecial(vars, false) {
		out[v.Name] = v.Value
	}
	return out
}
