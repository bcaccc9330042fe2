package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// get_source_context {linesContext: 1e9} on a 2M-line file answered the
// whole file (150 MB, the server at 1.5 GB), and a minified script's one
// line whole: the window is bounded in lines and bytes, and says so.
func TestSourceContextIsBoundedAndSaysItWasCut(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	dir := t.TempDir()
	long := filepath.Join(dir, "long.py")
	if err := os.WriteFile(long, []byte(strings.Repeat("x=1\n", 2_000_000)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, isErr, size := h.callSize("get_source_context", map[string]any{"sessionId": id, "file": long, "line": 1_000_000, "linesContext": 1e9})
	t.Logf("linesContext 1e9 on 2M lines: %d bytes, %d lines", size, len(out.list("surrounding")))
	if isErr || size > 40<<10 || len(out.list("surrounding")) != 1001 ||
		!strings.Contains(strings.Join(stringsOf(out.obj("budget")["leftOut"]), " "), "at most 500 lines either side") {
		t.Fatalf("linesContext 1e9: error %v, %d bytes, %d lines, budget %v; want 1001 lines, under 40 KB, saying what was cut",
			isErr, size, len(out.list("surrounding")), out["budget"])
	}

	minified := filepath.Join(dir, "min.js")
	if err := os.WriteFile(minified, []byte("var a=1;"+strings.Repeat("a+=1;", 1_000_000)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, isErr, size = h.callSize("get_source_context", map[string]any{"sessionId": id, "file": minified, "line": 1})
	t.Logf("a 5 MB line: %d bytes", size)
	if isErr || size > 10<<10 || !strings.Contains(strings.Join(stringsOf(out.obj("budget")["leftOut"]), " "), "the ends of lines longer than 2000 bytes") {
		t.Fatalf("a 5 MB line: error %v, %d bytes, budget %v; want it cut, saying so", isErr, size, out["budget"])
	}

	wide := filepath.Join(dir, "wide.py")
	if err := os.WriteFile(wide, []byte(strings.Repeat("y = '"+strings.Repeat("w", 1000)+"'\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, isErr, size = h.callSize("get_source_context", map[string]any{"sessionId": id, "file": wide, "line": 500, "linesContext": 100})
	t.Logf("linesContext 100 of 1 KB lines: %d bytes, %d lines", size, len(out.list("surrounding")))
	if isErr || size > 40<<10 || len(out.list("surrounding")) > 40 || out["budget"] == nil {
		t.Fatalf("linesContext 100 of 1 KB lines: error %v, %d bytes, %d lines, budget %v; want about 32 KB of lines, saying so",
			isErr, size, len(out.list("surrounding")), out["budget"])
	}

	// A window within the bounds is whole, with nothing said.
	out, _, _ = h.callSize("get_source_context", map[string]any{"sessionId": id, "file": long, "line": 10, "linesContext": 20})
	if len(out.list("surrounding")) != 30 || out["budget"] != nil {
		t.Fatalf("linesContext 20 at line 10: %d lines, budget %v; want lines 1-30 and no budget", len(out.list("surrounding")), out["budget"])
	}
}

func stringsOf(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, s := range list {
		out = append(out, s.(string))
	}
	return out
}

// set_breakpoint with a 1 MB logMessage answered 2 MB, and so did every
// list_breakpoints after it: each text is capped at 4 KB with an error
// saying so, and answers repeat at most 300 bytes of it.
func TestBreakpointTextsAreCappedAndTheirEchoesCut(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	huge := strings.Repeat("m", 1<<20)
	for _, field := range []string{"logMessage", "condition", "hitCondition"} {
		out, isErr, size := h.callSize("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12, field: huge})
		t.Logf("a 1 MB %s: %d bytes", field, size)
		if !isErr || !strings.Contains(out.str("error"), field+" is 1048576 bytes; set_breakpoint takes at most 4096") || out.str("hint") == "" || size > 2000 {
			t.Errorf("a 1 MB %s: %d bytes, %v; want a short refusal saying the cap", field, size, out)
		}
	}
	long := strings.Repeat("n", 4000)
	out, _, size := h.callSize("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12, "logMessage": long})
	if size > 2000 || !strings.HasPrefix(out.str("logMessage"), "nnn") {
		t.Errorf("a 4000-byte logMessage: answer of %d bytes (logMessage %d bytes); want it cut to about 300", size, len(out.str("logMessage")))
	}
	for _, tool := range []string{"list_breakpoints", "remove_breakpoint"} {
		if _, _, size := h.callSize(tool, map[string]any{"sessionId": id, "breakpointId": out.num("breakpointId")}); size > 2000 {
			t.Errorf("%s after a 4000-byte logMessage: %d bytes", tool, size)
		}
	}
}
