package python

import (
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// quirks are debugpy's departures from plain DAP.
// docs/adapter-quirks.md: debugpy-5, debugpy-6, debugpy-18, debugpy-19.
func quirks() adapter.Quirks {
	return adapter.Quirks{
		EvaluateContext: evaluateContext,
		LimitEvaluation: new(evaluationLimiter).limit,
		// A stop by the userUnhandled filter (debug_test's failed
		// assertions) names the raising frame "test_x (Current frame)"
		// and the exception "AssertionError       (note: full exception
		// trace is shown but execution is paused at: test_x)".
		FrameName:   func(name string) string { return strings.TrimSuffix(name, " (Current frame)") },
		ExceptionID: func(id string) string { return strings.TrimSpace(strings.SplitN(id, "(note:", 2)[0]) },
		// pydevd turns a logpoint message into "text %s" % (x,): str(x).
		// repr keeps a string's quotes, as evaluate shows it.
		LogpointExpression: func(expression string) string { return "repr((" + expression + "))" },
		WaitingOn:          waitingOn,
		PauseLimit:         pauseLimit,
		// input() and readline past the end raise EOFError.
		ReadPastInput: func(id, _ string) bool { return id == "EOFError" },
	}
}

// attachQuirks are debugpy's quirks plus the one of its attach: it has no
// stopOnEntry, and a pause lands at the program's next Python line (a
// thread inside a C call, time.sleep or a socket wait, pauses when it
// returns).
// docs/adapter-quirks.md: debugpy-7.
func attachQuirks() adapter.Quirks {
	q := quirks()
	q.PauseAfterAttach = true
	return q
}
