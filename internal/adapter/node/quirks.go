package node

import (
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// quirks are what the engine must know about this adapter.
// docs/adapter-quirks.md: node-17.
var quirks = adapter.Quirks{
	EvaluateContext: "repl",
	LimitEvaluation: adapter.LimitByArgument,
	// Packages' code is not the user's: shown in stacks only when asked.
	InternalFrame: func(_, path string) bool { return strings.Contains(path, "/node_modules/") },
	// A logpoint's {x} becomes ${x} in a template literal: String(x),
	// which loses a string's quotes. JSON quotes it as evaluate shows it.
	LogpointExpression: func(expression string) string {
		return `((v) => typeof v === "string" ? JSON.stringify(v) : v)((` + expression + `))`
	},
}
