package server

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// The agent tools on the other adapters: a tracepoint collecting a loop's
// values without a stop, and a function trace, each on a real program.
// (trace_function on Node is tested in node_test.go.)

// traceRun starts a program with a tracepoint on line (collecting i and
// total) and a trace of function, lets it run to its end, and returns the
// tracepoint's rows and the function's (each call with its return).
func traceRun(t *testing.T, h *harness, id string, start map[string]any, file string, line int, function string, exitCode int) (hits, calls []traceRow) {
	t.Helper()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": file, "line": line, "collect": []string{"i", "total"}})
	h.ok("trace_function", map[string]any{"sessionId": id, "function": function})
	start["sessionId"] = id
	end := h.ok("start_debugging", start)
	if end.str("state") != "stopped" || end["exitCode"] != float64(exitCode) {
		t.Fatalf("neither tracepoints nor traces stop the program: %v", end)
	}
	return traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
}

// wantSeries checks that the rows' values are the given series, as
// strings, in the named columns.
func wantSeries(t *testing.T, what string, rows []traceRow, names []string, series ...[]int) {
	t.Helper()
	if len(rows) != len(series[0]) {
		t.Fatalf("%s: want %d rows, got %v", what, len(series[0]), rows)
	}
	for n, row := range rows {
		for k, name := range names {
			if got := row.str(name); got != itoa(series[k][n]) {
				t.Errorf("%s %d: %s = %q, want %d (%v)", what, n, name, got, series[k][n], row.cells)
			}
		}
	}
}

func TestAgentToolsOnC(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	hits, calls := traceRun(t, h, id, map[string]any{"scriptPath": src}, src, 40, "weigh", 3)
	wantSeries(t, "hit", hits, []string{"i", "total"}, []int{0, 1, 2, 3, 4}, []int{0, 0, 3, 9, 18})
	wantSeries(t, "call", calls, []string{"item", "factor"}, []int{0, 1, 2, 3, 4}, []int{3, 3, 3, 3, 3})
	oldDAP := lldbDAPMajor(t) <= 19
	for n, r := range calls {
		if oldDAP {
			// lldb-dap 19.1.7 shows no "(Return Value)" local after a step
			// out (22.1.8 does): the trace says it has none.
			if !strings.Contains(r.failure("return"), "no return value") {
				t.Errorf("return %d: lldb-dap 19 has no return value to show, and the trace should say so: %v", n, r.cells)
			}
			continue
		}
		if v := r.str("return"); v != itoa(n*3) {
			t.Errorf("return %d: lldb-dap's (Return Value) should be %d: %v", n, n*3, r.cells)
		}
	}
}

// lldbDAPMajor is the LLVM major version of the lldb-dap the c adapter
// uses (make test-matrix runs 19 and 22).
func lldbDAPMajor(t *testing.T) int {
	t.Helper()
	v := testenv.RequireAdapter(t, "c").Version
	major, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if err != nil {
		t.Fatalf("lldb-dap version %q: %v", v, err)
	}
	return major
}

func TestAgentToolsOnJavaScript(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	src := nodeProgram(t, "loop.js")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 12, "collect": []string{"i", "total", "w"}})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	if end.str("state") != "stopped" || end["exitCode"] != float64(3) {
		t.Fatalf("a tracepoint never stops the program: %v", end)
	}
	hits, _ := traceRows(t, h.ok("get_trace", map[string]any{"sessionId": id}))
	wantSeries(t, "hit", hits, []string{"i", "total"}, []int{1, 2, 3, 4, 5}, []int{0, 1, 3, 6, 10})
	for n, hit := range hits {
		// A string keeps its quotes, as evaluate shows it.
		if want := fmt.Sprintf(`"w%d"`, (n+1)*10); hit.str("w") != want {
			t.Errorf("hit %d: w = %s, want %s", n, hit.str("w"), want)
		}
	}
}

func TestAgentToolsOnJava(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJava(t)
	start := map[string]any{
		"scriptPath":    filepath.Join(classes, "com", "example", "App.class"),
		"dapLaunchArgs": map[string]any{"mainClass": "com.example.App", "classPaths": []string{classes}},
	}
	hits, calls := traceRun(t, h, id, start, javaSource(t, "src/com/example/App.java"), 22, "Scale.weigh", 5)
	wantSeries(t, "hit", hits, []string{"i", "total"}, []int{0, 1, 2, 3, 4}, []int{0, 30, 40, 80, 90})
	wantSeries(t, "call", calls, []string{"item", "factor"}, []int{3, 1, 4, 1, 5}, []int{10, 10, 10, 10, 10})
	// The adapter shows what weigh returned as "(return) weigh" after the
	// step out: each call's row ends with it.
	for n, want := range []string{"30", "10", "40", "10", "50"} {
		if got := calls[n].str("return"); got != want {
			t.Errorf("return %d: want weigh = %s: %v", n, want, calls[n].cells)
		}
	}
}
