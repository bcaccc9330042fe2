package server

import "testing"

// A mapping the server cannot use is refused before anything starts, with
// the form it wants.
func TestPathMappingsAreChecked(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "output.mock")
	h.fail("attach_to_process", map[string]any{"sessionId": id, "port": 1,
		"pathMappings": []map[string]any{{"localRoot": ".", "remoteRoot": "app"}}}, `remoteRoot "app" is not absolute`)
	h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog,
		"pathMappings": []map[string]any{{"remoteRoot": "/app"}}}, "needs both localRoot and remoteRoot")
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog,
		"pathMappings": []map[string]any{{"localRoot": "testdata", "remoteRoot": `C:\app`}}})
}
