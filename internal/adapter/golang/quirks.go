package golang

import (
	"strings"
	"sync/atomic"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// quirks are Delve's departures from plain DAP that the engine handles.
// docs/adapter-quirks.md: delve-11, delve-27.
func quirks(namer func(string) string) adapter.Quirks {
	// Delve's totalFrames is len(frames)+stackTraceDepth for any stack it
	// did not walk to the bottom.
	return adapter.Quirks{
		FunctionBreakpointName: namer, IsNoise: isNoise, TotalFramesEstimated: true,
		WaitingOn: waitingOn, LibraryFrame: libraryFrame,
		RuntimeDeadlock: func(text string) bool { return strings.Contains(text, "all goroutines are asleep") },
	}
}

// isNoise drops what Delve says of itself on its console: the line it
// prints on configurationDone for its own terminal users ("Type 'dlv
// help' for list of commands."), "Detaching…" at disconnect and the
// program's exit status at its end. None of it is the program's output.
// docs/adapter-quirks.md: delve-7.
func isNoise(category, text string) bool {
	if category != "console" {
		return false
	}
	return strings.HasPrefix(text, "Type 'dlv help'") || strings.HasPrefix(text, "Detaching") || processExited.MatchString(text)
}

// withoutBuildLine extends isNoise to the line Delve sends, as the
// program's stdout, when it starts building the program to launch
// ("Building /src/app\n", "Building tests of /src/pkg\n"): the program
// cannot have printed anything before it was built, so the first such
// line is Delve's, and only that one is dropped.
// docs/adapter-quirks.md: delve-24.
func withoutBuildLine(isNoise func(category, text string) bool, mode, program string) func(category, text string) bool {
	what := program
	if mode == modeTest {
		what = "tests of " + program
	}
	line := "Building " + what + "\n"
	var seen atomic.Bool
	return func(category, text string) bool {
		if category == "stdout" && text == line && seen.CompareAndSwap(false, true) {
			return true
		}
		return isNoise(category, text)
	}
}
