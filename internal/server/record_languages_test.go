package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// The record tool on each language's recorder: JavaScript and Java record
// in the program's own process and through JDWP. A query for one function's calls answers with its arguments
// and its return, read from the recording without running anything again.
func TestRecordToolOnEveryRecorder(t *testing.T) {
	for _, tc := range []struct {
		language, program, function string
		want                        []string
	}{
		{"javascript", "record/js/cart.js", "applyDiscount", []string{"15", "0.1", "12.15"}},
		{"java", "record/java/Orders.java", "square", []string{"2", "4"}},
	} {
		t.Run(tc.language, func(t *testing.T) {
			testenv.RequireAdapter(t, tc.language)
			h := newHarness(t)
			program := filepath.Join(repoRoot(t), "testdata", tc.program)
			res := h.ok("record", map[string]any{"language": tc.language, "scriptPath": program, "cwd": filepath.Dir(program)})
			if res.str("recordingId") == "" || res.obj("report").str("mechanism") == "" {
				t.Fatalf("record names no recording or mechanism: %v", res)
			}
			calls := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": tc.function})
			found := false
			for _, row := range rows(t, calls) {
				if showsInOrder(row, tc.want...) {
					found = true
				}
			}
			if !found {
				t.Errorf("no call of %s shows %v: %v", tc.function, tc.want, calls)
			}
		})
	}
}

// A JavaScript program outside the server's directory, recorded with no
// cwd, runs in its own directory, which is its user code: its calls are
// recorded (they were not: the server's directory was taken instead).
func TestRecordJavaScriptOutsideTheServersDirectory(t *testing.T) {
	testenv.RequireAdapter(t, "javascript")
	prog := filepath.Join(t.TempDir(), "double.js")
	if err := os.WriteFile(prog, []byte("function double(n) {\n  return 2 * n;\n}\nconsole.log(double(21));\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	res := h.ok("record", map[string]any{"language": "javascript", "scriptPath": prog})
	if calls := res.obj("report").obj("counts").num("calls"); calls != 1 {
		t.Errorf("recorded %d calls of double, want 1: %v", calls, res["report"])
	}
	h.ok("close_debug_session", map[string]any{"sessionId": res.str("sessionId")})
}
