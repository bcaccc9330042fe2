package server

import (
	"encoding/json"
	"strings"
	"testing"

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
	if _, err := h.cs.GetPrompt(h.ctx, &mcp.GetPromptParams{Name: "find-what-changes", Arguments: map[string]string{"language": "go"}}); err == nil || !strings.Contains(err.Error(), "scriptPath") {
		t.Errorf("a missing argument should be named: %v", err)
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
}
