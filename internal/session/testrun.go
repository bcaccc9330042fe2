package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// TestResult is what debug_test found: the failure's stop, or that the
// tests passed.
type TestResult struct {
	Snapshot *Snapshot
	Runner   string
	// Runtime says which environment ran the tests (StartResult.Runtime).
	Runtime string
	// Failed: the program stopped at a failure (an exception, a failed
	// assertion, a test marked failed).
	Failed bool
	// Passed: the tests ran to the end and the runner exited with 0.
	Passed bool
	// Name is the failing test's name, Message the failure's message.
	Name    string
	Message string
	// NoneMatched: the run ended without running any test (the name
	// matched none); Available are the tests the runner lists, when it
	// can.
	NoneMatched bool
	Available   []string
}

// maxListedTests bounds the test names an answer lists when none matched.
const maxListedTests = 50

// failureOutputWait bounds the wait for a runner's printed failure message,
// which may reach us just after the stop.
const failureOutputWait = time.Second

// DebugTest runs the language's test runner under the debugger and returns
// the snapshot at the first failure, focused on the test's own frame.
func (s *Session) DebugTest(ctx context.Context, req adapter.TestRequest, wait WaitOptions) (*TestResult, error) {
	outputBefore := s.out.Cursor()
	plan, started, err := s.launchTest(ctx, req, wait)
	if err != nil {
		return nil, err
	}
	snap := started.Snapshot
	res := &TestResult{Snapshot: snap, Runner: plan.Runner, Runtime: cmp.Or(plan.Runtime, started.Runtime)}
	switch snap.State {
	case StateStopped:
		if s.noneRan(ctx, res, plan, req, snap.ExitCode, outputBefore) {
			return res, nil
		}
		res.Passed = snap.ExitCode != nil && *snap.ExitCode == 0
		if !res.Passed {
			s.failedWithoutStop(res, plan, snap.ExitCode, outputBefore)
		}
		return res, nil
	case StatePaused:
	default:
		return res, nil
	}
	res.Failed = true
	inTest := plan.TestFrame == nil
	if plan.TestFrame != nil {
		found, moved := s.focus(ctx, plan.TestFrame)
		inTest = found
		if moved {
			// Rebuilt for the test's frame; the output was already taken.
			out, note := snap.Output, snap.OutputNote
			snap = s.snapshotNow(ctx)
			snap.Output, snap.OutputNote = append(out, snap.Output...), note
			res.Snapshot = snap
		}
	}
	switch l := snap.Location; {
	case l != nil && inTest:
		res.Name = l.Function
	case req.Name != "":
		// Stopped outside any test's frame (Go's fatal deadlock stops
		// the goroutine in testing.(*T).Run): the test run is the one
		// asked for, not the function the stop is in.
		res.Name = req.Name
	}
	if plan.TestNameExpression != "" {
		if name := s.evalInShownFrame(ctx, plan.TestNameExpression); name != "" {
			res.Name = name
		}
	}
	// The runner's printed message, when it already came, says more than
	// the exception (a Rust panic's is only "panic"); else the exception's;
	// else wait a little for the printed one.
	if plan.FailureOutput != nil {
		res.Message = failureIn(snap.Output, plan.FailureOutput)
	}
	if ex := snap.Exception; res.Message == "" && ex != nil {
		res.Message = JoinDistinct(firstNonEmpty(ex.ExceptionID, ex.TypeName), firstNonEmpty(ex.Message, ex.Description))
	}
	if res.Message == "" && plan.FailureOutput != nil {
		res.Message = s.failureLine(ctx, snap, plan)
	}
	res.Snapshot = saidOnce(res.Snapshot, res.Message, plan.HiddenLocal)
	return res, nil
}

// testFailureReason is the stop reason of a stop at a failure the test
// runner reports through a function (Go's testing.(*common).Fail), where
// the server's own breakpoint caught it.
const testFailureReason = "test failure"

// launchTest starts the language's test runner under the debugger, as
// the adapter plans it, and waits as wait says.
func (s *Session) launchTest(ctx context.Context, req adapter.TestRequest, wait WaitOptions) (*adapter.TestPlan, *StartResult, error) {
	tr, ok := s.adapter.(adapter.TestRunner)
	if !ok {
		return nil, nil, errorf("set breakpoints and start_debugging the test program instead", "debug_test is not available for %s", s.Language.DisplayName)
	}
	plan, err := tr.TestPlan(ctx, req)
	if err != nil {
		var ua *adapter.UnavailableError
		if errors.As(err, &ua) {
			return nil, nil, &Error{Msg: ua.Error(), Hint: "install it with: " + ua.InstallHint, Err: err}
		}
		return nil, nil, &Error{Msg: fmt.Sprintf("cannot run the tests in %s: %v", req.Path, err), Hint: "pass the path of a test file or directory", Err: err}
	}
	if err := applyRequest(plan, req); err != nil {
		return nil, nil, err
	}
	for _, fn := range plan.FunctionBreakpoints {
		if _, _, err := s.addFunctionBreakpoint(ctx, &FunctionBreakpoint{FunctionName: fn, internal: true, stopReason: testFailureReason}); err != nil {
			return nil, nil, err
		}
	}
	started, err := s.Start(ctx, LaunchSpec{
		Program: plan.Program, Args: plan.Args, Cwd: plan.Cwd, Env: plan.Env, DapLaunchArgs: plan.Extra,
		ExecutablePath: plan.ExecutablePath, ExecutableReason: plan.ExecutableReason, BreakOnExceptions: plan.BreakOnExceptions,
		StdinFile: req.StdinFile,
	}, wait)
	return plan, started, err
}

// applyRequest puts the agent's cwd and env over the plan's, and refuses
// a plan whose runner is not the one the agent chose (an adapter that
// knows one runner ignores the choice).
func applyRequest(plan *adapter.TestPlan, req adapter.TestRequest) error {
	if req.Runner != "" && !strings.EqualFold(req.Runner, plan.Runner) {
		return errorf("leave runner out to use "+plan.Runner, "runner %q cannot run these tests here: they run with %s", req.Runner, plan.Runner)
	}
	if req.Cwd != "" {
		plan.Cwd = req.Cwd
	}
	if len(req.Env) > 0 {
		env := maps.Clone(plan.Env)
		if env == nil {
			env = map[string]string{}
		}
		maps.Copy(env, req.Env)
		plan.Env = env
	}
	return nil
}

// saidOnce is the snapshot a failed test's answer shows: the test's
// message says the failure, so the stop's description and the exception's
// description, message, type name (the id, or debugpy's id with a note)
// and a stack trace that only repeats the shown frame go, and so do the
// runner's own locals (hidden). A stack trace naming other frames stays,
// without its closing message.
func saidOnce(snap *Snapshot, message string, hidden func(name string) bool) *Snapshot {
	out := *snap
	if hidden != nil {
		out.Locals = slices.DeleteFunc(slices.Clone(snap.Locals), func(v Variable) bool { return hidden(v.Name) })
		out.New = slices.DeleteFunc(slices.Clone(snap.New), hidden)
	}
	if says(message, out.Description) {
		out.Description = ""
	}
	if snap.Exception == nil {
		return &out
	}
	ex := *snap.Exception
	if says(message, ex.Description) {
		ex.Description = ""
	}
	if says(message, ex.Message) {
		ex.Message = ""
	}
	if ex.ExceptionID != "" && strings.HasPrefix(ex.TypeName, ex.ExceptionID) {
		ex.TypeName = ""
	}
	ex.StackTrace = stackBeyond(ex.StackTrace, message, snap.Location)
	out.Exception = &ex
	return &out
}

// says reports whether message already contains text.
func says(message, text string) bool {
	return message != "" && strings.Contains(message, strings.TrimSpace(text))
}

// framePlace finds the places a stack trace names: "file.py", line 15
// (Python), file.js:12:5, File.java:12, file.rb:12.
var framePlace = regexp.MustCompile(`([\w.-]+\.\w+)"?(?:, line |:)(\d+)`)

// stackBeyond is a stack trace without the message it closes with, or ""
// when all the places it names are the shown location's.
func stackBeyond(trace, message string, loc *Location) string {
	trace = strings.TrimRight(trace, "\n")
	if message != "" {
		trace = strings.TrimRight(strings.TrimSuffix(trace, message), "\n")
	}
	places := framePlace.FindAllStringSubmatch(trace, -1)
	if loc == nil || len(places) == 0 {
		return trace
	}
	here := []string{filepath.Base(loc.File), strconv.Itoa(loc.Line)}
	for _, p := range places {
		if p[1] != here[0] || p[2] != here[1] {
			return trace
		}
	}
	return ""
}

// failedWithoutStop fills in a run that ended without a stop or a zero
// exit: any non-zero exit is a failure (an exception that escaped a test,
// a failure the runner makes without raising), and so is an end without an
// exit code when the runner printed a failure. The name and message come
// from the runner's output, else its last line says what happened.
func (s *Session) failedWithoutStop(res *TestResult, plan *adapter.TestPlan, exitCode *int, since uint64) {
	var out strings.Builder
	for _, e := range s.out.Since(since, 0).Entries {
		out.WriteString(e.Output)
	}
	if plan.FailureSummary != nil {
		res.Name, res.Message = plan.FailureSummary(out.String())
	}
	if exitCode == nil {
		res.Failed = res.Name != "" || res.Message != ""
		return
	}
	res.Failed = true
	if res.Message == "" {
		res.Message = fmt.Sprintf("the runner exited with code %d", *exitCode)
		if last := lastLine(out.String()); last != "" {
			res.Message += ": " + last
		}
	}
}

// noneRan says whether the run ended without running a test, as the
// runner's output says; then res says no test matched, with the tests the
// runner lists. A run of no test passed nothing: an agent told "passed"
// would take the bug for gone.
func (s *Session) noneRan(ctx context.Context, res *TestResult, plan *adapter.TestPlan, req adapter.TestRequest, exitCode *int, since uint64) bool {
	if plan.NothingRan == nil || exitCode == nil {
		return false
	}
	var out strings.Builder
	for _, e := range s.out.Since(since, 0).Entries {
		out.WriteString(e.Output)
	}
	if !plan.NothingRan(out.String(), *exitCode) {
		return false
	}
	res.NoneMatched = true
	res.Name = req.Name
	res.Message = "no test ran"
	if req.Name != "" {
		res.Message = fmt.Sprintf("no test matched %q", req.Name)
	}
	if plan.TestNames != nil {
		if names, err := plan.TestNames(ctx); err == nil {
			if len(names) > maxListedTests {
				names = append(names[:maxListedTests:maxListedTests], fmt.Sprintf("(%d more)", len(names)-maxListedTests))
			}
			res.Available = names
		} else {
			s.log.Debug("listing tests", "err", err)
		}
	}
	return true
}

// lastLine is the text's last line that is not blank, trimmed.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// evalInShownFrame evaluates an expression in the frame the current stop
// shows, returning its value without quotes ("" on any failure).
func (s *Session) evalInShownFrame(ctx context.Context, expression string) string {
	r, st, err := s.pausedStop(ctx, "evaluate")
	if err != nil || len(st.frames) == 0 {
		return ""
	}
	v, err := evalRaw(ctx, r, st.frames[st.top].Id, expression)
	if err != nil {
		return ""
	}
	v = strings.Trim(v, `'"`)
	// pytest's PYTEST_CURRENT_TEST ends with the phase: " (call)".
	if i := strings.LastIndex(v, " ("); i > 0 && strings.HasSuffix(v, ")") {
		v = v[:i]
	}
	return v
}

// failureLine waits briefly for the runner's printed failure message,
// which may reach us just after the stop.
func (s *Session) failureLine(ctx context.Context, snap *Snapshot, plan *adapter.TestPlan) string {
	deadline := time.Now().Add(failureOutputWait)
	since := uint64(0)
	if n := len(snap.Output); n > 0 {
		since = snap.Output[n-1].Seq
	}
	for time.Now().Before(deadline) {
		wctx, cancel := context.WithDeadline(ctx, deadline)
		s.out.Wait(wctx, since)
		cancel()
		page := s.out.FinishedSince(since, 0)
		if m := failureIn(page.Entries, plan.FailureOutput); m != "" {
			return m
		}
		if len(page.Entries) == 0 {
			// An unfinished line is stored once it settles.
			select {
			case <-time.After(settleTime):
			case <-ctx.Done():
				return ""
			}
		}
		since = page.NextSince
	}
	return ""
}

// failureIn finds the failure message in output entries. Entries are
// lines, and a message may span several (a panic's place, its message,
// left and right), so it matches their joined text.
func failureIn(entries []OutputEntry, re *regexp.Regexp) string {
	var b strings.Builder
	for _, e := range entries {
		b.WriteString(e.Output)
	}
	m := re.FindStringSubmatch(b.String())
	switch {
	case m == nil:
		return ""
	case len(m) > 1 && m[1] != "":
		// The pattern's first group, when it has one, is the message.
		return strings.TrimSpace(m[1])
	}
	return strings.TrimSpace(m[0])
}

// focus makes the current stop show the first frame pred accepts, with its
// locals: found says a frame does, moved that the stop was rebuilt to show
// it (false when it was already shown, or the program moved on).
func (s *Session) focus(ctx context.Context, pred func(name, path string) bool) (found, moved bool) {
	_, st, err := s.pausedStop(ctx, "select a frame")
	if err != nil {
		return false, false
	}
	for i, f := range st.frames {
		path := ""
		if f.Source != nil {
			path = f.Source.Path
		}
		if pred(f.Name, path) {
			return true, i != st.top && s.refetch(ctx, i)
		}
	}
	return false, false
}

// refetch replaces the current stop with one showing frame idx, its locals
// and watches fetched anew (a stop is never changed once its prefetch is
// done: readers use it without the lock). False if the program moved on.
func (s *Session) refetch(ctx context.Context, idx int) bool {
	r, st, err := s.pausedStop(ctx, "fetch the stop's locals")
	if err != nil || idx >= len(st.frames) {
		return false
	}
	nst := &Stop{
		Reason: st.Reason, RawReason: st.RawReason, Description: st.Description, Text: st.Text, ThreadID: st.ThreadID,
		AllThreadsStopped: st.AllThreadsStopped, HitBreakpointIDs: st.HitBreakpointIDs, Time: st.Time,
		ready: make(chan struct{}), noExceptionInfo: st.noExceptionInfo,
		frames: st.frames, top: idx, depth: st.depth, depthKnown: st.depthKnown, exception: st.exception,
	}
	s.fetchFrameData(ctx, r, nst)
	close(nst.ready)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != st {
		return false
	}
	s.stop, s.last = nst, nst
	return true
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// JoinDistinct joins the non-empty parts that do not repeat an earlier one
// ("ValueError: bad value", not "ValueError: ValueError: bad value").
func JoinDistinct(parts ...string) string {
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		dup := p == ""
		for _, o := range out {
			if strings.Contains(o, p) {
				dup = true
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return strings.Join(out, ": ")
}
