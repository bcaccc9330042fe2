package session

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// testFailureType is the exception type a failed Go test's recording
// shows: t.Errorf and t.Fatal raise nothing, so the recorder writes the
// failure as an exception raised where the test called them, which ends
// the test function (an unwind) — what the report reads as a failure.
const testFailureType = "test failure"

// goTestLog is where every message of a Go test passes, formatted
// (t.Errorf logs, then fails). The output the test runner prints reaches
// the session after the stop at the failure, so the recorder breaks here
// to have the message when the test fails.
const goTestLog = "testing.(*common).log"

// recordedTests follows the tests of a recorded test run: which of the
// recording's breakpoints catch a failure or a test's message, and each
// thread's last message.
type recordedTests struct {
	failures map[int]bool // our ids of the failure breakpoints
	logs     map[int]bool // our ids of the message breakpoints
	lastLog  map[int]string
	reported map[int]bool
}

// newRecordedTests follows the tests of plan; the breakpoints are added
// by the caller.
func newRecordedTests() *recordedTests {
	return &recordedTests{failures: map[int]bool{}, logs: map[int]bool{}, lastLog: map[int]string{}, reported: map[int]bool{}}
}

// testFailure is a failed test's message and where it was said.
type testFailure struct {
	msg  string
	file string
	line int
}

// recordLaunch is what a recording launches: cfg's program, or the test
// runner's plan for cfg.Test (nil tests for a program).
func (s *Session) recordLaunch(ctx context.Context, cfg adapter.RecordConfig) (LaunchSpec, *adapter.TestPlan, error) {
	spec := LaunchSpec{Program: cfg.Program, Args: cfg.Args, Cwd: cfg.Cwd, Env: cfg.Env, StopOnEntry: true, ExecutablePath: cfg.ExecutablePath, StdinFile: cfg.StdinFile}
	if cfg.Test == nil {
		return spec, nil, nil
	}
	tr, ok := s.adapter.(adapter.TestRunner)
	if !ok || s.Language.ID != "go" {
		return spec, nil, errorf("record the test binary as a program (scriptPath), or use debug_test", "recording a test run is not supported for %s", s.Language.ID)
	}
	plan, err := tr.TestPlan(ctx, *cfg.Test)
	if err != nil {
		var ua *adapter.UnavailableError
		if errors.As(err, &ua) {
			return spec, nil, &Error{Msg: ua.Error(), Hint: "install it with: " + ua.InstallHint, Err: err}
		}
		return spec, nil, fmt.Errorf("planning the test run of %s: %w", cfg.Test.Path, err)
	}
	env := maps.Clone(plan.Env)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, cfg.Env)
	spec = LaunchSpec{Program: plan.Program, Args: plan.Args, Cwd: plan.Cwd, Env: env, DapLaunchArgs: plan.Extra, StopOnEntry: true,
		ExecutablePath: plan.ExecutablePath, ExecutableReason: plan.ExecutableReason, StdinFile: cfg.StdinFile}
	return spec, plan, nil
}

// hitsID reports a stop at breakpoint id (0: none).
func hitsID(st *Stop, id int) bool {
	return id != 0 && slices.Contains(st.HitBreakpointIDs, id)
}

// hits reports a stop at one of the breakpoints of ids.
func hits(st *Stop, ids map[int]bool) bool {
	for _, id := range st.HitBreakpointIDs {
		if ids[id] {
			return true
		}
	}
	return false
}

// isTestFailure reports a stop at one of the failure breakpoints.
func (rec *bpRecorder) isTestFailure(st *Stop) bool {
	return rec.tests != nil && hits(st, rec.tests.failures)
}

// isTestLog reports a stop where a test logs a message.
func (rec *bpRecorder) isTestLog(st *Stop) bool {
	return rec.tests != nil && hits(st, rec.tests.logs)
}

// testLogged keeps the message a test logs: its parameter s.
func (rec *bpRecorder) testLogged(ctx context.Context, r *connection, threadID int) {
	frame, err := topFrame(ctx, r, threadID)
	if err != nil {
		return
	}
	vars, err := frameLocals(ctx, r, frame.Id)
	if err != nil {
		return
	}
	for _, v := range vars {
		if v.Name == "s" {
			msg, err := strconv.Unquote(v.Value)
			if err != nil {
				msg = v.Value
			}
			rec.tests.lastLog[threadID] = msg
		}
	}
}

// testFailed records a test's failure (a stop in testing's Fail) as an
// exception raised in the innermost recorded call of the thread and
// passing through the others; the test function ends with it.
func (rec *bpRecorder) testFailed(ctx context.Context, r *connection, threadID int) {
	tc := rec.thread(threadID)
	if len(tc.stack) == 0 {
		return
	}
	lines := callLines(ctx, r, threadID, tc.stack)
	inner := tc.stack[len(tc.stack)-1]
	fail := testFailure{msg: strings.TrimSpace(rec.tests.lastLog[threadID]), file: rec.funcs[inner.fn].file}
	for i := len(tc.stack) - 1; i >= 0; i-- {
		c, line := tc.stack[i], lines[i]
		if c == inner {
			fail.line = line
		}
		rec.passed(c, testFailureType, fail.msg, line, c == inner, false)
	}
	if test := tc.stack[0]; test.failure == nil {
		test.failure = &fail
	}
}

// isTestFunction reports a Go test function: TestXxx in a _test.go file.
func (rec *bpRecorder) isTestFunction(fn string) bool {
	f, ok := rec.funcs[fn]
	if !ok || !strings.HasSuffix(f.file, "_test.go") {
		return false
	}
	short := fn[strings.LastIndex(fn, ".")+1:]
	return strings.HasPrefix(short, "Test")
}

// endCall writes a call's end: its return, or, for a failed test, the
// failure leaving it; a test function's end is its test's end too.
func (rec *bpRecorder) endCall(c *activeCall, value any, line int) {
	if c.failure != nil {
		rec.out.add(recordEvent{kind: "unwind", call: c.id, fields: []field{{"id", c.id}, {"type", testFailureType}, {"line", line}}})
	} else {
		rec.out.add(recordEvent{kind: "ret", call: c.id, fields: []field{{"id", c.id}, {"v", value}, {"line", line}}})
	}
	rec.testEnded(c)
}

// testEnded writes the test event of a test function's call.
func (rec *bpRecorder) testEnded(c *activeCall) {
	if rec.tests == nil || rec.tests.reported[c.id] || !rec.isTestFunction(c.fn) {
		return
	}
	rec.tests.reported[c.id] = true
	fields := []field{{"name", c.fn[strings.LastIndex(c.fn, ".")+1:]}}
	if f := c.failure; f != nil {
		fields = append(fields, field{"outcome", "failed"}, field{"msg", f.msg})
		if f.file != "" {
			fields = append(fields, field{"file", f.file}, field{"line", f.line})
		}
	} else {
		fields = append(fields, field{"outcome", "passed"})
	}
	rec.out.always(recordEvent{kind: "test", fields: fields})
}

// endOpenTests ends the test calls still open when the program ended: a
// t.Fatal leaves its test by runtime.Goexit, past every return site.
func (rec *bpRecorder) endOpenTests() {
	for _, tc := range rec.threads {
		for i := len(tc.stack) - 1; i >= 0; i-- {
			if c := tc.stack[i]; c.failure != nil || rec.isTestFunction(c.fn) {
				rec.endCall(c, nil, 0)
			}
		}
		tc.stack = nil
	}
}
