package ruby

import (
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// knownRequests are the requests rdbg answers (the same list in 1.4.0 and
// 1.6.3); on any other it raises "Unknown request", sends terminated (1.6)
// and closes the connection (docs/adapter-quirks.md, rdbg-5).
var knownRequests = map[string]bool{
	"initialize": true, "launch": true, "attach": true, "setBreakpoints": true,
	"setFunctionBreakpoints": true, "setExceptionBreakpoints": true, "configurationDone": true,
	"disconnect": true, "continue": true, "next": true, "stepIn": true, "stepOut": true,
	"terminate": true, "pause": true, "reverseContinue": true, "stepBack": true, "threads": true,
	"stackTrace": true, "scopes": true, "variables": true, "evaluate": true, "source": true,
	"completions": true,
}

// quirks are rdbg's departures from DAP that the engine handles. The
// Unsupported list names what the engine may send and rdbg does not know
// (the transport refuses anything else unknown too), plus
// setFunctionBreakpoints, which rdbg acknowledges and ignores (1.4.0 and
// 1.6.3 alike).
//
// NoTerminatedEvent holds for every release: rdbg's process is the
// program, and a program that ends by exit! or a signal closes the socket
// without terminated (measured on 1.6.3, which sends terminated at a
// normal end; 1.4 never sends it).
// docs/adapter-quirks.md: rdbg-4.
func quirks(d dialect) adapter.Quirks {
	return adapter.Quirks{
		NoTerminatedEvent: true,
		Unsupported: []string{
			"setFunctionBreakpoints", "exceptionInfo", "setVariable", "setExpression",
			"loadedSources", "modules", "breakpointLocations", "restart", "cancel",
			"dataBreakpointInfo", "setDataBreakpoints", "readMemory", "writeMemory",
			"disassemble", "setInstructionBreakpoints", "gotoTargets", "goto",
			"stepInTargets", "restartFrame", "terminateThreads",
		},
		UnsupportedWhy: d.name,
		IsNoise:        isNoise,
	}
}

// isNoise keeps rdbg's own words out of the program's output: rdbg 1.9
// greets a DAP client with its REPL's banner ("Ruby REPL: You can run any
// Ruby expression here. …") as a console output event. The program's own
// output never comes as an event (rdbg-7).
// docs/adapter-quirks.md: rdbg-18.
func isNoise(category, text string) bool {
	return category == "console" && strings.HasPrefix(text, "Ruby REPL:")
}

// LogpointWarning says that rdbg's logpoints are unknown ground and how the
// session handles them: rdbg announces no supportsLogPoints, and the debug
// gem 1.6 ignores logMessage and stops there (server_dap.rb leaves the
// capability commented out), so the session emulates them.
// docs/adapter-quirks.md: rdbg-11.
func (a *Adapter) LogpointWarning() string {
	return "rdbg's logpoint support is unknown (it announces no supportsLogPoints; debug 1.6 ignores logMessage), so the server emulates it: at each hit it stops, evaluates the {expressions}, writes the line to the output and continues"
}
