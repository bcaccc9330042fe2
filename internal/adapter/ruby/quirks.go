package ruby

import "github.com/mcp-debugger/mcp-debugger/internal/adapter"

// knownRequests are the requests rdbg 1.4 answers; on any other it raises
// "Unknown request" and closes the connection (ADAPTER-QUIRKS.md, rdbg 5).
var knownRequests = map[string]bool{
	"initialize": true, "launch": true, "attach": true, "setBreakpoints": true,
	"setFunctionBreakpoints": true, "setExceptionBreakpoints": true, "configurationDone": true,
	"disconnect": true, "continue": true, "next": true, "stepIn": true, "stepOut": true,
	"terminate": true, "pause": true, "reverseContinue": true, "stepBack": true, "threads": true,
	"stackTrace": true, "scopes": true, "variables": true, "evaluate": true, "source": true,
	"completions": true,
}

// unsupportedWhy names the adapter in "not supported" answers.
const unsupportedWhy = "rdbg 1.4"

// quirks are rdbg's departures from DAP that the engine handles. The
// Unsupported list names what the engine may send and rdbg does not know
// (the transport refuses anything else unknown too), plus
// setFunctionBreakpoints, which rdbg acknowledges and ignores.
func quirks() adapter.Quirks {
	return adapter.Quirks{
		NoTerminatedEvent: true,
		Unsupported: []string{
			"setFunctionBreakpoints", "exceptionInfo", "setVariable", "setExpression",
			"loadedSources", "modules", "breakpointLocations", "restart", "cancel",
			"dataBreakpointInfo", "setDataBreakpoints", "readMemory", "writeMemory",
			"disassemble", "setInstructionBreakpoints", "gotoTargets", "goto",
			"stepInTargets", "restartFrame", "terminateThreads",
		},
		UnsupportedWhy: unsupportedWhy,
	}
}
