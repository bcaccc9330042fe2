package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// toolTraits are what a client may know of a tool before calling it: a
// title to show, and hints that let it approve calls without asking (MCP
// tool annotations). A tool that only reads (a listing, a value, the
// output) is readOnly; one that only adds (a breakpoint, a watch) or moves
// a program the agent already chose to run (a step, continue, pause) is
// harmless: nothing of the machine changes that running the program would
// not change anyway. What starts a program (which may write files), runs
// code of the agent's choosing (an expression may call os.remove), changes
// the program's values or ends processes keeps MCP's default, destructive.
// No tool reaches beyond the local machine and the programs it debugs:
// every tool says openWorldHint false.
type toolTraits struct {
	title      string
	readOnly   bool
	harmless   bool
	idempotent bool
}

// traits holds every tool's (a test checks that none is missing).
var traits = map[string]toolTraits{
	"create_debug_session":     {title: "Create a debug session", harmless: true},
	"list_supported_languages": {title: "List supported languages", readOnly: true},
	"list_debug_sessions":      {title: "List debug sessions", readOnly: true},
	"close_debug_session":      {title: "Close a debug session"},
	"set_breakpoint":           {title: "Set a breakpoint", harmless: true},
	"list_breakpoints":         {title: "List breakpoints", readOnly: true},
	"remove_breakpoint":        {title: "Remove a breakpoint"},
	"clear_breakpoints":        {title: "Clear breakpoints", idempotent: true},
	"set_data_breakpoint":      {title: "Break when memory changes", harmless: true},
	"add_watch":                {title: "Add a watch", harmless: true},
	"remove_watch":             {title: "Remove a watch"},
	"list_watches":             {title: "List watches", readOnly: true},
	"trace_function":           {title: "Trace a function's calls", harmless: true},
	"get_trace":                {title: "Read a trace", readOnly: true},
	"start_debugging":          {title: "Start debugging"},
	"restart_debugging":        {title: "Restart debugging"},
	"attach_to_process":        {title: "Attach to a process"},
	"detach_from_process":      {title: "Detach from the process"},
	"debug_test":               {title: "Debug a test"},
	"record":                   {title: "Record a run"},
	"query_recording":          {title: "Query a recording", readOnly: true},
	"continue_execution":       {title: "Continue", harmless: true},
	"step_over":                {title: "Step over", harmless: true},
	"step_into":                {title: "Step into", harmless: true},
	"step_out":                 {title: "Step out", harmless: true},
	"pause_execution":          {title: "Pause", harmless: true},
	"wait_for_stop":            {title: "Wait for the next stop", readOnly: true},
	"run_to":                   {title: "Run to a line or function", harmless: true},
	"break_on_change":          {title: "Find the line that changes a value", harmless: true},
	"list_threads":             {title: "List threads", readOnly: true},
	"get_stack_trace":          {title: "Get the stack trace", readOnly: true},
	"get_scopes":               {title: "Get a frame's scopes", readOnly: true},
	"get_variables":            {title: "Get variables", readOnly: true},
	"get_local_variables":      {title: "Get local variables", readOnly: true},
	"get_source_context":       {title: "Get source lines", readOnly: true},
	"get_output":               {title: "Get program output", readOnly: true},
	"disassemble":              {title: "Disassemble", readOnly: true},
	"read_memory":              {title: "Read memory", readOnly: true},
	// An expression may call the program's functions.
	"evaluate_expression": {title: "Evaluate an expression"},
	"set_variable":        {title: "Set a variable"},
	"redefine_classes":    {title: "Hot-swap Java classes"},
	"expose_session":      {title: "Show a session in a browser or IDE", harmless: true},
	"unexpose_session":    {title: "Stop showing a session", idempotent: true},
	"share_debug_session": {title: "Share a session with another client", harmless: true},
}

// annotations are t's MCP tool annotations. A read-only tool's
// destructiveHint is left out (MCP: meaningful only when not read-only), as
// is a destructive one's (true is MCP's default).
func (t toolTraits) annotations() *mcp.ToolAnnotations {
	closedWorld := false
	a := &mcp.ToolAnnotations{ReadOnlyHint: t.readOnly, IdempotentHint: t.idempotent || t.readOnly, OpenWorldHint: &closedWorld}
	if t.harmless && !t.readOnly {
		notDestructive := false
		a.DestructiveHint = &notDestructive
	}
	return a
}
