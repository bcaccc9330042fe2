package server

import "testing"

// A case variant of a declared argument is refused inside nested objects
// too (Go's decoder would take either spelling, one winning by order), and
// wherever it is, the error names it.
func TestArgumentNamesAreExactAtEveryDepth(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	h.fail("start_debugging", map[string]any{"sessionId": id, "stopAt": map[string]any{"RecordingID": "rec-a", "recordingId": "rec-b", "event": "#1"}},
		`argument "RecordingID" is not "recordingId"`)
	h.fail("set_breakpoint", map[string]any{"sessionId": id, "File": "x.py", "line": 1}, `argument "File" is not "file"`)
	// A key the tool does not declare is ignored, as before.
	h.ok("list_breakpoints", map[string]any{"sessionId": id, "Whatever": 1})
}
