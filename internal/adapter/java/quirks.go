package java

import (
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// quirks: frames of the JDK have no source here; an exception stop is
// shown at the first frame of the program's own code.
// docs/adapter-quirks.md: jvm-2, jvm-4, jvm-9, jvm-12.
func quirks() adapter.Quirks {
	return adapter.Quirks{
		EvaluateContext: "repl",
		LimitEvaluation: adapter.LimitByArgument,
		InternalFrame: func(name, path string) bool {
			return path == "" || isJDKClass(name)
		},
		// A logpoint's {x} is x as string concatenation shows it: a
		// string without quotes, a newline in it breaking the line the
		// session reads a tracepoint's values from. {x,q} is one line.
		LogpointExpression: func(expression string) string { return expression + quotedSpec },
		WaitingOn:          waitingOn,
		// Scanner.nextLine past the end: NoSuchElementException "No
		// line found" (nextInt and next: without a message).
		ReadPastInput: func(id, message string) bool {
			return id == "java.util.NoSuchElementException" && strings.Contains(message, "No line found")
		},
	}
}
