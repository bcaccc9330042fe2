package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// toolTraits are what a client may know of a tool before calling it: a
// title to show, and hints that let it approve calls without asking (MCP
// tool annotations). A tool that only reads (a listing, a value, the
// output) is readOnly; one that only adds (a breakpoint, a watch) is
// additive; anything that runs the program, changes its state or ends
// processes keeps MCP's default, destructive.
type toolTraits struct {
	title      string
	readOnly   bool
	additive   bool
	idempotent bool
}

// traits holds every tool's (a test checks that none is missing).
var traits = map[string]toolTraits{
	"create_debug_session":     {title: "Create a debug session", additive: true},
	"list_supported_languages": {title: "List supported languages", readOnly: true},
	"list_debug_sessions":      {title: "List debug sessions", readOnly: true},
	"close_debug_session":      {title: "Close a debug session"},
	"set_breakpoint":           {title: "Set a breakpoint", additive: true},
	"list_breakpoints":         {title: "List breakpoints", readOnly: true},
	"remove_breakpoint":        {title: "Remove a breakpoint"},
	"clear_breakpoints":        {title: "Clear breakpoints", idempotent: true},
	"set_data_breakpoint":      {title: "Break when memory changes", additive: true},
	"add_watch":                {title: "Add a watch", additive: true},
	"remove_watch":             {title: "Remove a watch"},
	"list_watches":             {title: "List watches", readOnly: true},
	"trace_function":           {title: "Trace a function's calls", additive: true},
	"get_trace":                {title: "Read a trace", readOnly: true},
	"start_debugging":          {title: "Start debugging"},
	"restart_debugging":        {title: "Restart debugging"},
	"attach_to_process":        {title: "Attach to a process"},
	"detach_from_process":      {title: "Detach from the process"},
	"debug_test":               {title: "Debug a test"},
	"record":                   {title: "Record a run"},
	"query_recording":          {title: "Query a recording", readOnly: true},
	"continue_execution":       {title: "Continue"},
	"step_over":                {title: "Step over"},
	"step_into":                {title: "Step into"},
	"step_out":                 {title: "Step out"},
	"pause_execution":          {title: "Pause"},
	"wait_for_stop":            {title: "Wait for the next stop", readOnly: true},
	"run_to":                   {title: "Run to a line or function"},
	"break_on_change":          {title: "Find the line that changes a value"},
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
	"expose_session":      {title: "Show a session in a browser or IDE", additive: true},
	"unexpose_session":    {title: "Stop showing a session", idempotent: true},
	"share_debug_session": {title: "Share a session with another client", additive: true},
}

// annotations are t's MCP tool annotations; nil when they would only
// repeat MCP's defaults (neither read-only nor idempotent, destructive).
func (t toolTraits) annotations() *mcp.ToolAnnotations {
	if !t.readOnly && !t.additive && !t.idempotent {
		return nil
	}
	a := &mcp.ToolAnnotations{ReadOnlyHint: t.readOnly, IdempotentHint: t.idempotent || t.readOnly}
	if t.additive {
		notDestructive := false
		a.DestructiveHint = &notDestructive
	}
	return a
}
