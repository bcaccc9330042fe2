package server

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// The mock language exists for tests: an agent offered it debugs nothing.
// Every real language is offered, in the listing and where
// create_debug_session says which it takes.
func TestAgentsAreOfferedRealLanguagesOnly(t *testing.T) {
	h := newHarnessWith(t, Options{})
	var listed []string
	for _, l := range h.ok("list_supported_languages", nil).list("languages") {
		listed = append(listed, l.str("id"))
	}
	if slices.Contains(listed, "mock") {
		t.Errorf("list_supported_languages offers the test-only mock: %v", listed)
	}
	list, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var described string
	for _, tool := range list.Tools {
		if tool.Name == "create_debug_session" {
			raw, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)["language"].(map[string]any)["description"].(string)
			described = raw
		}
	}
	if strings.Contains(described, "mock") {
		t.Errorf("create_debug_session offers the test-only mock: %q", described)
	}
	for _, id := range adapter.OfferedIDs() {
		if !slices.Contains(listed, id) {
			t.Errorf("list_supported_languages leaves out %s: %v", id, listed)
		}
		if !slices.Contains(strings.FieldsFunc(described, func(r rune) bool { return !('a' <= r && r <= 'z') }), id) {
			t.Errorf("create_debug_session's language does not name %s: %q", id, described)
		}
	}
}
