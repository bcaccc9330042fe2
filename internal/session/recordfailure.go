package session

// How a recorded run fails (through breakpoints): an exception stop —
// a Go panic, a signal, a Rust panic — ends every recorded call it
// leaves, named in the program's own words where the adapter's are
// bare, and the end event says what ended the run.

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/go-dap"
)

// exception records an exception stop (a Go panic, a signal) for every
// recorded call it leaves: raised in the innermost, propagated through
// the others, each ended by it.
func (rec *bpRecorder) exception(ctx context.Context, r *connection, st *Stop) {
	kind, msg := exceptionText(ctx, r, st)
	kind, msg = rec.nativeFailure(ctx, kind, msg)
	rec.failed = &failure{kind: kind, msg: msg}
	tc := rec.thread(st.ThreadID)
	tc.thrown = nil
	lines := callLines(ctx, r, st.ThreadID, tc.stack)
	var raised *testFailure
	for i := len(tc.stack) - 1; i >= 0; i-- {
		c, line := tc.stack[i], lines[i]
		if raised == nil {
			raised = &testFailure{msg: kind + ": " + msg, file: rec.funcs[c.fn].file, line: line}
		}
		rec.passed(c, kind, msg, line, i == len(tc.stack)-1, true)
		// A test the exception leaves (a Go test that panics) failed
		// with it: the runner reports it so, and ends the run. The
		// runner marks the test failed before the panic goes on, with
		// no message (testFailed): the panic's is the test's.
		if c.failure == nil {
			c.failure = raised
		} else if c.failure.msg == "" {
			c.failure.msg = raised.msg
		}
		rec.testEnded(c)
	}
	tc.stack = nil
}

// passed records an exception passing through call c at line: raised
// there or propagated into it, and, when ended, leaving it.
func (rec *bpRecorder) passed(c *activeCall, kind, msg string, line int, raised, ended bool) {
	rec.out.add(recordEvent{kind: "exc", call: c.id, fields: []field{{"id", c.id}, {"type", kind}, {"msg", msg}, {"line", line}, {"raised", raised}}})
	if ended {
		rec.out.add(recordEvent{kind: "unwind", call: c.id, fields: []field{{"id", c.id}, {"type", kind}, {"line", line}}})
	}
}

// callLines is the line each recorded call of a thread's stack is at,
// innermost last as the stack is, read from the adapter's frames (0 where
// no frame names the call's function).
func callLines(ctx context.Context, r *connection, threadID int, calls []*activeCall) []int {
	frames, _ := recordedStack(ctx, r, threadID, 0, exceptionFrames)
	lines := make([]int, len(calls))
	for i := len(calls) - 1; i >= 0; i-- {
		for j, f := range frames {
			if f.Name == calls[i].fn {
				lines[i], frames = f.Line, frames[j+1:]
				break
			}
		}
	}
	return lines
}

// exceptionText is an exception stop's type and message, as the
// adapter's exceptionInfo says them (Delve: "panic" and the panic's
// value; lldb-dap: "signal" and "signal SIGABRT").
func exceptionText(ctx context.Context, r *connection, st *Stop) (string, string) {
	var info dap.ExceptionInfoResponseBody
	if err := r.call(ctx, "exceptionInfo", map[string]any{"threadId": st.ThreadID}, &info); err != nil {
		return st.Reason, st.Description
	}
	kind, msg := info.ExceptionId, info.Description
	if info.Details != nil && info.Details.TypeName != "" {
		kind = info.Details.TypeName
	}
	if kind == "" {
		kind = st.Reason
	}
	if msg == "" {
		msg = st.Description
	}
	return kind, msg
}

// writeEnd writes the end event: the exit code, or what ended the
// program (a panic, a signal, the recording's time running out).
func (rec *bpRecorder) writeEnd(info Info, endedOnItsOwn bool) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.unwindUnhandled()
	if rec.tests != nil {
		rec.endOpenTests()
	}
	var fields []field
	if info.ExitCode != nil {
		fields = append(fields, field{"exit", *info.ExitCode})
	}
	switch {
	case !endedOnItsOwn:
		fields = append(fields, field{"type", "timeout"}, field{"msg", errRecordingTimedOut.Error()})
	case rec.failed != nil:
		fields = append(fields, field{"type", rec.failed.kind}, field{"msg", rec.failed.msg})
	case info.Signal != "":
		fields = append(fields, field{"type", info.Signal}, field{"msg", fmt.Sprintf("killed by %s", info.Signal)})
	}
	rec.out.always(recordEvent{kind: "end", fields: fields})
}

// lastWordsWait bounds the wait at a native exception stop for the
// program's words about it: lldb-dap forwards the program's output apart
// from its stops, so the words printed just before may come just after.
const lastWordsWait = 500 * time.Millisecond

// nativeFailure is an exception stop's type and message for a C, C++ or
// Rust program: as its output since the last one says them
// (failureFromOutput), waiting a moment for that output; the adapter's
// words (kind, msg) otherwise. lldb-dap runs the program on a terminal of
// its own, so its stderr comes as stdout.
func (rec *bpRecorder) nativeFailure(ctx context.Context, kind, msg string) (string, string) {
	switch rec.s.Language.ID {
	case "c", "cpp", "rust":
	default:
		return kind, msg
	}
	ctx, cancel := context.WithTimeout(ctx, lastWordsWait)
	defer cancel()
	var said strings.Builder
	for {
		page := rec.s.out.Since(rec.outputRead, 0)
		rec.outputRead = page.NextSince
		for _, e := range page.Entries {
			if e.Category == "stdout" || e.Category == "stderr" {
				said.WriteString(e.Output)
			}
		}
		if k, m := failureFromOutput(kind, msg, said.String()); k != kind || m != msg {
			return k, m
		}
		if !rec.s.out.Wait(ctx, rec.outputRead) {
			return kind, msg
		}
	}
}

// Where lldb-dap's exceptionInfo names only the stop ("signal SIGABRT",
// "breakpoint 1.1" for the rust_panic breakpoint), the program said what
// went wrong on its standard error before it stopped: a Rust panic's
// message, the C++ runtime's line for an uncaught exception with its
// what(), a failed C assertion.
var (
	rustPanicText   = regexp.MustCompile(`panicked at [^\n]*:\r?\n([^\n]+)`)
	cppUncaughtText = regexp.MustCompile(`terminate called after throwing an instance of '([^']+)'\s*what\(\):\s*([^\n]+)`)
	cAssertionText  = regexp.MustCompile(`(?m)^[^\n]*Assertion [^\n]* failed\.?\r?$`)
)

// failureFromOutput is how an exception stop ended the program as the
// program's own last words say it, where they say more than the adapter
// did (kind and msg otherwise).
func failureFromOutput(kind, msg, output string) (string, string) {
	if m := lastMatch(rustPanicText, output); m != nil {
		return "panic", m[1]
	}
	if m := lastMatch(cppUncaughtText, output); m != nil {
		return m[1], m[2]
	}
	if m := lastMatch(cAssertionText, output); m != nil {
		return kind, m[0]
	}
	return kind, msg
}

func lastMatch(re *regexp.Regexp, text string) []string {
	all := re.FindAllStringSubmatch(text, -1)
	if len(all) == 0 {
		return nil
	}
	m := all[len(all)-1]
	for i := range m {
		m[i] = strings.TrimRight(m[i], "\r")
	}
	return m
}
