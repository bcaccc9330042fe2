package server

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The prompts are the one-call workflows, for clients that offer prompts as
// slash commands: each turns a few arguments into the request an agent
// would otherwise have to know to make.

// workflow is one prompt: its arguments and the text it asks for.
type workflow struct {
	prompt *mcp.Prompt
	// choices gives the closed set of values an argument takes, by the
	// argument's name, for completion/complete.
	choices map[string]func() []string
	// text builds the request from the arguments given; required ones are
	// present (the handler checks).
	text func(args map[string]string) string
}

var workflows = []workflow{
	{
		prompt: &mcp.Prompt{
			Name:        "debug-failing-test",
			Title:       "Debug a failing test",
			Description: "Run one failing test under the debugger and explain the failure from the stop.",
			Arguments: []*mcp.PromptArgument{
				{Name: "language", Description: "the test's language: python, go, rust, java, javascript, ruby, …", Required: true},
				{Name: "path", Description: "the test file or package directory", Required: true},
				{Name: "name", Description: "the test's name (default: the first failure)"},
			},
		},
		choices: map[string]func() []string{"language": testLanguages},
		text: func(a map[string]string) string {
			call := fmt.Sprintf("debug_test {language: %q, path: %q", a["language"], a["path"])
			if a["name"] != "" {
				call += fmt.Sprintf(", name: %q", a["name"])
			}
			return "Find out why this test fails. Call " + call + "}: it stops where the test fails, " +
				"with the locals of that frame. Read the snapshot first; use get_stack_trace and " +
				"evaluate_expression only for what it does not show. Then say which line is wrong and why, " +
				"and close the session."
		},
	},
	{
		prompt: &mcp.Prompt{
			Name:        "find-what-changes",
			Title:       "Find the line that changes a value",
			Description: "Run a program to a point, then find the line that next changes a value.",
			Arguments: []*mcp.PromptArgument{
				{Name: "language", Description: "the program's language id", Required: true},
				{Name: "scriptPath", Description: "the program to run", Required: true},
				{Name: "file", Description: "where the value is in scope: a file", Required: true},
				{Name: "line", Description: "and a line in it", Required: true},
				{Name: "expression", Description: "the value to watch, e.g. total or order.items", Required: true},
			},
		},
		choices: map[string]func() []string{"language": programLanguages},
		text: func(a map[string]string) string {
			return fmt.Sprintf("Find the line that changes %s. create_debug_session {language: %q}; "+
				"set_breakpoint {file: %q, line: %s}; start_debugging {scriptPath: %q}; then "+
				"break_on_change {expression: %q}: it answers the line that changed it, from and to. "+
				"Say which line changed it and whether that is the bug, and close the session.",
				a["expression"], a["language"], a["file"], a["line"], a["scriptPath"], a["expression"])
		},
	},
	{
		prompt: &mcp.Prompt{
			Name:        "explain-crash",
			Title:       "Explain a crash",
			Description: "Run a program until its uncaught exception or crash, and explain it from the stop.",
			Arguments: []*mcp.PromptArgument{
				{Name: "language", Description: "the program's language id", Required: true},
				{Name: "scriptPath", Description: "the program to run", Required: true},
				{Name: "args", Description: "its command-line arguments, separated by spaces"},
			},
		},
		choices: map[string]func() []string{"language": programLanguages},
		text: func(a map[string]string) string {
			args := ""
			if fields := strings.Fields(a["args"]); len(fields) > 0 {
				args = fmt.Sprintf(", args: %q", fields)
			}
			return fmt.Sprintf("Find out why this program crashes. create_debug_session {language: %q}; "+
				"start_debugging {scriptPath: %q%s}: it stops at the uncaught exception or crash, with its "+
				"type, message and the locals of the frame that raised it. Walk up with get_stack_trace "+
				"only if the cause is in a caller. Say which line is wrong and why, and close the session.",
				a["language"], a["scriptPath"], args)
		},
	},
}

// addPrompts registers the workflows.
func (s *Server) addPrompts() {
	for _, w := range workflows {
		s.mcp.AddPrompt(w.prompt, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			args := req.Params.Arguments
			for _, a := range w.prompt.Arguments {
				if a.Required && strings.TrimSpace(args[a.Name]) == "" {
					// Invalid params, as the protocol asks of a missing
					// argument: a client shows it as the caller's mistake.
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
						Message: fmt.Sprintf("prompt %s needs the argument %q (%s)", w.prompt.Name, a.Name, a.Description)}
				}
			}
			return &mcp.GetPromptResult{
				Description: w.prompt.Description,
				Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: w.text(args)}}},
			}, nil
		})
	}
}

// completeArgument answers completion/complete for a prompt argument with
// a closed set of values (a language): the values that start with what the
// user typed. Any other argument completes to nothing.
func completeArgument(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	if req.Params.Ref == nil || req.Params.Ref.Type != "ref/prompt" {
		return res, nil
	}
	i := slices.IndexFunc(workflows, func(w workflow) bool { return w.prompt.Name == req.Params.Ref.Name })
	if i < 0 {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", req.Params.Ref.Name)}
	}
	values := workflows[i].choices[req.Params.Argument.Name]
	if values == nil {
		return res, nil
	}
	typed := strings.ToLower(strings.TrimSpace(req.Params.Argument.Value))
	for _, v := range values() {
		if strings.HasPrefix(v, typed) {
			res.Completion.Values = append(res.Completion.Values, v)
		}
	}
	res.Completion.Total = len(res.Completion.Values)
	return res, nil
}

// programLanguages are the languages offered to agents (not the
// test-only ones).
func programLanguages() []string { return adapter.OfferedIDs() }

// testLanguages are those offered whose tests debug_test runs.
func testLanguages() []string {
	var ids []string
	for _, a := range adapter.All() {
		if lang := a.Language(); !lang.TestOnly && lang.TestRunner != "" {
			ids = append(ids, lang.ID)
		}
	}
	return ids
}
