package session

// Rust panics in a recording through lldb-dap. The program stops where
// it panics (the rust_panic breakpoint every lldb launch sets,
// docs/adapter-quirks.md lldb-15) and, with a breakpoint on std's
// __rust_panic_cleanup, where catch_unwind takes the panic: the panic is
// held until then — a catch_unwind in the user's code ends the calls
// between (unwind) and catches it there; std's own around main, which
// turns a panic into exit code 101, leaves it held, and the program's end
// unwinds every call still open (unwindUnhandled).

import (
	"context"
	"strings"
)

// rustPanicCleanup is where std's catch_unwind takes a panic it caught.
const rustPanicCleanup = "__rust_panic_cleanup"

// isRustCatch reports a stop at the catch_unwind breakpoint.
func (rec *bpRecorder) isRustCatch(st *Stop) bool { return hitsID(st, rec.rustCatch) }

// rustPanicked holds a Rust panic, with its message from the program's
// output; it reports false for any other stop.
func (rec *bpRecorder) rustPanicked(ctx context.Context, r *connection, st *Stop) bool {
	if rec.rustCatch == 0 || st.Reason != "exception" || !strings.HasPrefix(st.Description, "Rust panic") {
		return false
	}
	tc := rec.thread(st.ThreadID)
	kind, msg := rec.nativeFailure(ctx, "panic", st.Description)
	tc.thrown = rec.held(ctx, r, st.ThreadID, kind, msg)
	rec.continueHolding(ctx, r, st.ThreadID)
	return true
}

// rustCaught records a held panic as caught by the innermost recorded
// call under catch_unwind's cleanup; one no recorded call catches stays
// held.
func (rec *bpRecorder) rustCaught(ctx context.Context, r *connection, threadID int) {
	tc := rec.thread(threadID)
	frames, _ := recordedStack(ctx, r, threadID, 0, prefetchFrames)
	handler, line := rec.handlerCall(tc, frames)
	if x := tc.thrown; x != nil && handler >= 0 {
		tc.thrown = nil
		rec.handled(tc, x, handler, line)
		rec.towardsInnermost(ctx, r, threadID, tc, frames[0])
		return
	}
	rec.resume(ctx, r, threadID, stepNone)
}

// unwindUnhandled ends, at the program's end, the calls a held exception
// or panic left without anything handling it, and makes it the run's
// failure.
func (rec *bpRecorder) unwindUnhandled() {
	for _, tc := range rec.threads {
		x := tc.thrown
		if x == nil {
			continue
		}
		tc.thrown = nil
		rec.propagate(tc, x, -1)
		tc.stack = nil
		if rec.failed == nil {
			rec.failed = &failure{kind: x.kind, msg: x.msg}
		}
	}
}
