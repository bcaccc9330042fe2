package session

// Go panics in a recording through Delve. Function breakpoints on the
// runtime's gopanic and gorecover stop the program where a panic starts
// and where a deferred function recovers it: the panic is held until the
// recover says which call of the user's handled it — the function that
// deferred the recovering closure — which ends the calls between
// (unwind) and catches it there. A panic nothing recovers ends the
// program, which exception records (Delve's own stop); one a library
// recovers (the testing package's, to report a test's panic) leaves
// nothing but what follows from it.

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/go-dap"
)

// Where the Go runtime starts a panic and where recover() runs.
const (
	goPanic   = "runtime.gopanic"
	goRecover = "runtime.gorecover"
)

// goPanics are the ids of the recording's breakpoints on goPanic and
// goRecover.
type goPanics struct{ panics, recovers int }

// isGoPanic, isGoRecover report a stop at those breakpoints.
func (rec *bpRecorder) isGoPanic(st *Stop) bool { return hitsID(st, rec.goPanics.panics) }

func (rec *bpRecorder) isGoRecover(st *Stop) bool { return hitsID(st, rec.goPanics.recovers) }

// goPanicked holds a panic until a recover or the program's end, and lets
// the program go on. Its value is read at the recover: gopanic's argument
// is unreadable at its breakpoint (Delve 1.27: "error loading module
// data"), and the panic is not linked to the goroutine yet.
func (rec *bpRecorder) goPanicked(ctx context.Context, r *connection, threadID int) {
	rec.thread(threadID).thrown = rec.held(ctx, r, threadID, "panic", "")
	rec.continueHolding(ctx, r, threadID)
}

// goRecovered records a held panic as handled by the call whose deferred
// closure recovers it, when that call is one the recording holds.
func (rec *bpRecorder) goRecovered(ctx context.Context, r *connection, threadID int) {
	// recover() runs where no panic is held too (the testing package's
	// runner calls it after every test): nothing is read then.
	tc := rec.threads[threadID]
	if tc == nil || tc.thrown == nil {
		rec.resume(ctx, r, threadID, stepNone)
		return
	}
	x := tc.thrown
	frames, _ := recordedStack(ctx, r, threadID, 0, 2)
	if len(frames) < 2 {
		rec.resume(ctx, r, threadID, stepNone)
		return
	}
	tc.thrown = nil
	deferrer := closureOf(frames[1].Name)
	for i := len(tc.stack) - 1; i >= 0; i-- {
		if c := tc.stack[i]; c.fn == deferrer {
			var value dap.EvaluateResponseBody
			if r.call(ctx, "evaluate", map[string]any{"expression": "runtime.curg._panic.arg", "frameId": frames[0].Id, "context": "watch"}, &value) == nil {
				x.msg = panicValue(value.Result)
			}
			rec.handled(tc, x, i, x.lines[c])
			break
		}
	}
	rec.resume(ctx, r, threadID, stepNone)
}

// goClosure is the suffix Go gives a function literal's name after the
// function it is in: main.safeDiv.func1, main.run.func2.1.
var goClosure = regexp.MustCompile(`(\.func\d+)(\.\d+)*$`)

// closureOf is the function a closure is declared in, the name itself
// for a function that is no closure.
func closureOf(name string) string { return goClosure.ReplaceAllString(name, "") }

// panicValue is a panic's value as Delve shows gopanic's argument, without
// the interface's type: `interface {}(string) "bad"` → bad.
func panicValue(text string) string {
	if rest, ok := strings.CutPrefix(text, "interface {}("); ok {
		if i := strings.Index(rest, ") "); i >= 0 {
			text = rest[i+2:]
		}
	}
	if s, err := strconv.Unquote(text); err == nil {
		return s
	}
	return text
}
