package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// Answers stay within maxBytes however large the agent's input or the
// program's output, and errors quote only a prefix of what the agent sent.

// size is the byte size of an answer as the agent receives it.
func size(t *testing.T, r result) int {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func TestHugeExpressionErrorsQuoteAPrefix(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "basic.mock")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 2)

	huge := "nosuch_" + strings.Repeat("x", 1<<20)
	bad := h.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": huge}, "nosuch_xxx")
	if n := size(t, bad); n > defaultMaxBytes {
		t.Errorf("evaluate_expression error is %d bytes, want at most %d: %.300s", n, defaultMaxBytes, bad.str("error"))
	}
	if !strings.Contains(bad.str("error"), "(1048583 bytes)") {
		t.Errorf("the error should give the expression's size: %.600s", bad.str("error"))
	}

	watch := h.ok("add_watch", map[string]any{"sessionId": id, "expression": huge})
	if n := size(t, watch); n > defaultMaxBytes {
		t.Errorf("add_watch answer is %d bytes, want at most %d", n, defaultMaxBytes)
	}
	again := h.fail("add_watch", map[string]any{"sessionId": id, "expression": huge}, "already watched")
	if n := size(t, again); n > defaultMaxBytes {
		t.Errorf("add_watch error is %d bytes, want at most %d", n, defaultMaxBytes)
	}
	// The session is unharmed and the watch can be removed by its id.
	h.ok("remove_watch", map[string]any{"sessionId": id, "watchId": watch.obj("watch").num("id")})
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "item"}); ev.str("result") != "1" {
		t.Errorf("evaluate after the huge ones: %v", ev)
	}
}

func TestGetOutputRespectsMaxBytes(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	prog := mockProgram(t, "flood.mock")
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "maxBytes": 4000})
	if end.str("state") != "stopped" {
		t.Fatalf("flood.mock should run to its end: %v", end.str("state"))
	}
	page := h.ok("get_output", map[string]any{"sessionId": id})
	if n := size(t, page); n > defaultMaxBytes {
		t.Fatalf("get_output answer is %d bytes, want at most %d", n, defaultMaxBytes)
	}
	if !page["hasMore"].(bool) || page.obj("budget").num("maxBytes") != defaultMaxBytes {
		t.Fatalf("a cut page should say hasMore and what the budget left out: %v", page["budget"])
	}
	// Paging on with nextSince reaches the end, every page within budget.
	seen := page.outputText("entries")
	for pages := 0; page["hasMore"].(bool); pages++ {
		if pages > 1000 {
			t.Fatal("get_output paging does not advance")
		}
		page = h.ok("get_output", map[string]any{"sessionId": id, "since": page.num("nextSince"), "maxBytes": 2000})
		if n := size(t, page); n > 2000 {
			t.Fatalf("get_output page is %d bytes, want at most 2000", n)
		}
		seen += page.outputText("entries")
	}
	if !strings.Contains(seen, "flood done") {
		t.Errorf("paging never reached the last line")
	}
}

func TestListThreadsPagesTenThousandGoroutines(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	src := goProgram(t, "goroutines", "main.go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 19})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": goProgram(t, "goroutines")}), "breakpoint", 19)

	first := h.ok("list_threads", map[string]any{"sessionId": id})
	if n := size(t, first); n > defaultMaxBytes {
		t.Fatalf("list_threads answer is %d bytes, want at most %d", n, defaultMaxBytes)
	}
	total := first.num("total")
	if total < 1000 || first.num("count") != len(first.list("threads")) || first.num("count") >= total {
		t.Fatalf("want a first page of the goroutines (Delve loads at most 1024): count=%d total=%d", first.num("count"), total)
	}
	if first.obj("budget") == nil || len(first.obj("budget")["leftOut"].([]any)) == 0 {
		t.Fatalf("a cut list should say what was left out: %v", first["budget"])
	}
	// start and count page through the rest.
	page := h.ok("list_threads", map[string]any{"sessionId": id, "start": total - 5, "count": 100})
	if page.num("count") != 5 || page.num("total") != total {
		t.Errorf("the last page: count=%d total=%d, want 5 of %d", page.num("count"), page.num("total"), total)
	}
}

// Output that JSON escapes six bytes for one still fits.
func TestOutputFitCountsEscapes(t *testing.T) {
	res := &outputResult{Success: true, NextSince: 8}
	res.fill([]session.OutputEntry{
		{Seq: 7, Category: "stdout", Output: strings.Repeat("\x01", 50000)},
		{Seq: 8, Category: "stdout", Output: "next\n"},
	}, 2000)
	if n := sizeOf(res); n > 2000 || len(res.Entries) != 1 || res.NextSince != 7 || !res.HasMore {
		t.Fatalf("fill(2000): %d bytes, %d entries, nextSince %d, hasMore %v", n, len(res.Entries), res.NextSince, res.HasMore)
	}
	if len(res.Entries[0].Output) < 100 {
		t.Errorf("the cut entry should keep what fits, kept %d bytes", len(res.Entries[0].Output))
	}
}
