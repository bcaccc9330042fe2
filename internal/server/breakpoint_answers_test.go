package server

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A breakpoint asked for on a line without code lands on the next line with
// code of the same block, and the answer says so; a line between blocks is
// refused with the nearest lines that have code. debugpy would otherwise
// move it back into the function above (line 12 into scale), and before
// the start nothing would tell the agent.
func TestPythonBreakpointOnLineWithoutCode(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := filepath.Join(repoRoot(t), "testdata", "python", "lines.py")

	comment := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 6})
	if comment.num("line") != 7 || comment.num("requestedLine") != 6 || !strings.Contains(comment.str("warning"), "moved to line 7") {
		t.Errorf("a breakpoint on a comment line should move to line 7 and say so: %v", comment)
	}
	between := h.fail("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12}, "line 12 has no code")
	if hint := between.str("hint"); !strings.Contains(hint, "10") || !strings.Contains(hint, "13") {
		t.Errorf("the refusal should name the nearest lines with code, 10 and 13: %v", between)
	}

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	wantStop(t, snap, "breakpoint", 7)

	afterLoop := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 9})
	if afterLoop.num("line") != 10 || !strings.Contains(afterLoop.str("warning"), "moved to line 10") {
		t.Errorf("a breakpoint on the blank line after the loop should bind on line 10: %v", afterLoop)
	}
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 6})
	snap = h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, snap, "breakpoint", 10)
}

// Delve refuses a blank or comment line outright ("could not find
// statement"); the server places it on the next line with code instead, or
// refuses with the nearest lines when the next code is another function.
func TestGoBreakpointOnLineWithoutCode(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	src := goProgram(t, "lines", "main.go")

	comment := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 8})
	if comment.num("line") != 9 || !strings.Contains(comment.str("warning"), "moved to line 9") {
		t.Errorf("a breakpoint on a comment line should move to line 9 and say so: %v", comment)
	}
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "lines")})
	wantStop(t, snap, "breakpoint", 9)

	blank := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12})
	if blank.num("line") != 13 || blank["verified"] != true || !strings.Contains(blank.str("warning"), "moved to line 13") {
		t.Errorf("a breakpoint on the blank line before return should bind on line 13: %v", blank)
	}
	between := h.fail("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 15}, "line 15 has no code")
	if hint := between.str("hint"); !strings.Contains(hint, "14") || !strings.Contains(hint, "16") {
		t.Errorf("the refusal should name the nearest lines with code, 14 and 16: %v", between)
	}
}

// A breakpoint set after the program ended cannot bind until the program
// runs again; the answer says so, and restart_debugging binds it.
func TestBreakpointAfterEndSaysRestart(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := filepath.Join(repoRoot(t), "testdata", "python", "lines.py")
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if end.str("state") != "stopped" {
		t.Fatalf("the program should run to its end: %v", end)
	}
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 18})
	if bp["verified"] != false || !strings.Contains(bp.str("message"), "ended") || !strings.Contains(bp.str("message"), "restart_debugging") {
		t.Errorf("a breakpoint set after the end should say it binds on restart_debugging: %v", bp)
	}
	snap := h.ok("restart_debugging", map[string]any{"sessionId": id})
	wantStop(t, snap, "breakpoint", 18)
}

// The answer that reports the program's end names the breakpoints that
// never hit during the run, so that an agent knows which code did not run.
func TestRunEndNamesBreakpointsNeverHit(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := filepath.Join(repoRoot(t), "testdata", "python", "lines.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 5})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 14})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 10, "condition": "total > 1000"})

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	wantStop(t, snap, "breakpoint", 5)
	if _, ok := snap["neverHit"]; ok {
		t.Errorf("a stop is not the end of the run: %v", snap)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.str("neverHit") != "lines.py:10, lines.py:14" {
		t.Errorf("the end should name lines.py:10 and lines.py:14 as never hit: neverHit=%q %v", end.str("neverHit"), end)
	}

	again := h.ok("restart_debugging", map[string]any{"sessionId": id})
	wantStop(t, again, "breakpoint", 5)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	if end := h.ok("continue_execution", map[string]any{"sessionId": id}); end.str("state") != "stopped" || end["neverHit"] != nil {
		t.Errorf("with every breakpoint removed, the end names none: %v", end)
	}
}

// list_supported_languages gives one entry per language with every fact an
// agent needs once: availability or what to install, adapter and version,
// the runtime, and debug_test's runner. Before, three sections repeated
// the languages (installed, available, languages) in 4.3 KB.
func TestListSupportedLanguagesOneEntryPerLanguage(t *testing.T) {
	t.Setenv("DLV_PATH", "/nonexistent/dlv")
	h := newHarness(t)
	res, err := h.cs.CallTool(h.ctx, &mcp.CallToolParams{Name: "list_supported_languages", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if len(text) > 3000 {
		t.Errorf("list_supported_languages is %d bytes, want at most 3000", len(text))
	}
	out := h.ok("list_supported_languages", nil)
	for key := range out {
		if key != "success" && key != "languages" && key != "count" {
			t.Errorf("section %q besides languages: %v", key, out[key])
		}
	}
	seen := map[string]bool{}
	for _, l := range out.list("languages") {
		id := l.str("id")
		if seen[id] {
			t.Errorf("%s is listed twice", id)
		}
		seen[id] = true
		if l.str("displayName") == "" || l.str("adapter") == "" {
			t.Errorf("%s lacks its name or adapter: %v", id, l)
		}
		if l["installed"] == true && l.str("version") == "" {
			t.Errorf("%s is installed without a version: %v", id, l)
		}
	}
	if len(seen) != out.num("count") {
		t.Errorf("count %d for %d languages", out.num("count"), len(seen))
	}
	for _, l := range out.list("languages") {
		switch l.str("id") {
		case "go":
			if l["installed"] != false || !strings.Contains(l.str("reason"), "DLV_PATH") || !strings.Contains(l.str("installHint"), "go install") || l.str("debugTest") != "go test" {
				t.Errorf("go with DLV_PATH wrong should say why and what to install, and its runner: %v", l)
			}
		case "python":
			if l.str("runtime") != "python3" || l.str("debugTest") != "pytest" || !strings.Contains(l.str("adapter"), "debugpy") {
				t.Errorf("python's runtime, runner and adapter: %v", l)
			}
		}
	}
}

// After a start that failed, a new breakpoint says the run failed and why,
// not that it waits for a start that already happened.
func TestBreakpointAfterFailedStartSaysWhy(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "syntax.mock")}, "syntax error")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": mockProgram(t, "basic.mock"), "line": 2})
	if msg := bp.str("message"); !strings.Contains(msg, "last run failed") || !strings.Contains(msg, "syntax error") || !strings.Contains(msg, "restart_debugging") {
		t.Errorf("a breakpoint after a failed start should say the run failed, why, and what binds it: %v", bp)
	}
}

// rdbg does not say which breakpoint a stop is for; the stop's line tells,
// so the end still names only the breakpoint that never stopped.
func TestRubyRunEndNamesBreakpointsNeverHit(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 4, "condition": "item == 9"})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13, "condition": "i == 5"})
	started := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, started, "breakpoint", 13)
	if rt := started.obj("data").str("runtime"); !strings.HasPrefix(rt, "ruby: /") || !strings.HasSuffix(rt, ")") {
		t.Errorf("the start should name the ruby that runs the program and why: runtime %q", rt)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.str("neverHit") != "loop.rb:4" {
		t.Errorf("the end should name loop.rb:4 alone as never hit: neverHit=%q %v", end.str("neverHit"), end)
	}
}

// A line the server takes for code may still have nothing to stop at for
// the adapter (the mock's `end`); the adapter's answer says where it bound
// the breakpoint, and the answer passes that on.
func TestAdapterMovedBreakpointSaysWhere(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": true})
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 5})
	if bp.num("line") != 8 || bp.num("requestedLine") != 5 || !strings.Contains(bp.str("warning"), "moved to line 8 by the debugger") {
		t.Errorf("the adapter moved the breakpoint from line 5 to 8; the answer should say so: %v", bp)
	}
}
