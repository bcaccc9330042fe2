package golang

import (
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// quirks are Delve's departures from plain DAP that the engine handles.
// docs/adapter-quirks.md: delve-11.
func quirks(namer func(string) string) adapter.Quirks {
	// Delve's totalFrames is len(frames)+stackTraceDepth for any stack it
	// did not walk to the bottom.
	return adapter.Quirks{FunctionBreakpointName: namer, IsNoise: isNoise, TotalFramesEstimated: true}
}

// isNoise drops the line Delve prints on configurationDone for its own
// terminal users ("Type 'dlv help' for list of commands."): it is not the
// program's output.
// docs/adapter-quirks.md: delve-7.
func isNoise(category, text string) bool {
	return category == "console" && strings.HasPrefix(text, "Type 'dlv help'")
}
