package httpserver_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
)

// A recording is its session's: another client can neither guess its id
// (once the session's listed id and "-rec1") nor use it, to read the
// recorded calls with query_recording or to run the recorded program,
// with its owner's arguments and environment, to a live stop with
// start_debugging {stopAt}. Shared, the session's recordings are shared
// with it.
func TestRecordingsBelongToTheirSessionsOwner(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice, bob := l.agent(""), l.agent("")
	rec := alice.ok("record", map[string]any{"language": "python", "scriptPath": program(t, "python", "record/scale.py")})
	recID, theirs := rec.str("recordingId"), rec.str("sessionId")
	if !regexp.MustCompile(`^rec-[0-9a-f]{32}$`).MatchString(recID) || strings.Contains(recID, theirs[:8]) {
		t.Errorf("recordingId %q of session %s: want 128 random bits, nothing of the session's id", recID, theirs)
	}
	query := map[string]any{"recordingId": recID, "calls": "scale"}
	alice.ok("query_recording", query)

	refusedAs := func(what string, out result) {
		t.Helper()
		if !strings.Contains(out.str("error"), "belongs to another client") || out.str("hint") == "" || strings.Contains(out.str("error"), "scale(") {
			t.Fatalf("bob's %s: %v, want the refusal another's session gets", what, out)
		}
	}
	refusedAs("query_recording", bob.fail("query_recording", query))
	mine := bob.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	refusedAs("start_debugging {stopAt}", bob.fail("start_debugging", map[string]any{"sessionId": mine, "stopAt": map[string]any{"recordingId": recID, "event": "#1"}}))

	alice.ok("share_debug_session", map[string]any{"sessionId": theirs})
	if page := bob.ok("query_recording", query); page["count"] != float64(4) {
		t.Fatalf("bob's query of the shared session's recording: %v, want its 4 calls of scale", page)
	}
}
