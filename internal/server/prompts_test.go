package server

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestPromptsNameTheOneCallWorkflows(t *testing.T) {
	h := newHarness(t)
	list, err := h.cs.ListPrompts(h.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Prompts) != len(workflows) {
		t.Fatalf("prompts: %d, want %d", len(list.Prompts), len(workflows))
	}
	got, err := h.cs.GetPrompt(h.ctx, &mcp.GetPromptParams{Name: "debug-failing-test", Arguments: map[string]string{
		"language": "python", "path": "tests/test_cart.py", "name": "test_total",
	}})
	if err != nil {
		t.Fatal(err)
	}
	text := got.Messages[0].Content.(*mcp.TextContent).Text
	if !strings.Contains(text, `debug_test {language: "python", path: "tests/test_cart.py", name: "test_total"}`) {
		t.Errorf("the prompt should spell out the call: %s", text)
	}
	_, err = h.cs.GetPrompt(h.ctx, &mcp.GetPromptParams{Name: "find-what-changes", Arguments: map[string]string{"language": "go"}})
	if err == nil || !strings.Contains(err.Error(), "scriptPath") {
		t.Errorf("a missing argument should be named: %v", err)
	}
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("a missing argument should be JSON-RPC invalid params (%d): %#v", jsonrpc.CodeInvalidParams, err)
	}
}

// A prompt's language argument completes from the languages the server
// debugs (those debug_test runs, for the failing-test prompt); an open
// argument completes to nothing.
func TestPromptLanguagesComplete(t *testing.T) {
	h := newHarness(t)
	if h.cs.InitializeResult().Capabilities.Completions == nil {
		t.Fatal("completions are not advertised")
	}
	complete := func(prompt, arg, typed string) []string {
		t.Helper()
		res, err := h.cs.Complete(h.ctx, &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: prompt},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: typed},
		})
		if err != nil {
			t.Fatalf("completing %s's %s from %q: %v", prompt, arg, typed, err)
		}
		return res.Completion.Values
	}
	for _, row := range []struct {
		prompt, arg, typed string
		want, notWant      []string
	}{
		{"explain-crash", "language", "", []string{"python", "go", "c", "cpp", "rust", "java", "javascript", "ruby"}, []string{"mock"}},
		{"explain-crash", "language", "j", []string{"java", "javascript"}, []string{"python"}},
		{"debug-failing-test", "language", "", []string{"python", "go", "rust", "java"}, []string{"c", "cpp", "mock"}},
		{"find-what-changes", "expression", "to", nil, nil},
	} {
		got := complete(row.prompt, row.arg, row.typed)
		for _, w := range row.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s %s %q: %v, want %s among them", row.prompt, row.arg, row.typed, got, w)
			}
		}
		for _, w := range row.notWant {
			if slices.Contains(got, w) {
				t.Errorf("%s %s %q: %v offers %s", row.prompt, row.arg, row.typed, got, w)
			}
		}
		if row.want == nil && len(got) != 0 {
			t.Errorf("%s %s (an open argument) completes to %v", row.prompt, row.arg, got)
		}
	}
}

// The server advertises what it does: tools, resources, prompts; not the
// logging it never sends.
func TestCapabilitiesAreWhatIsServed(t *testing.T) {
	h := newHarness(t)
	caps := h.cs.InitializeResult().Capabilities
	raw, _ := json.Marshal(caps)
	if strings.Contains(string(raw), `"logging"`) {
		t.Errorf("logging is advertised, and the server sends no log messages: %s", raw)
	}
	if caps.Tools == nil || caps.Resources == nil || caps.Prompts == nil {
		t.Errorf("capabilities: %+v", caps)
	}
	// Deprecated on purpose: clients of the older revisions still send it.
	//lint:ignore SA1019 the test is of a client that sends the deprecated logging/setLevel
	err := h.cs.SetLoggingLevel(h.ctx, &mcp.SetLoggingLevelParams{Level: "debug"})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("logging/setLevel, not advertised, should be method not found (%d): %#v", jsonrpc.CodeMethodNotFound, err)
	}
}
