package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// okSized calls a tool that must succeed and also returns the size of its
// answer as the agent reads it: the JSON text of content[0].
func (h *harness) okSized(tool string, args map[string]any) (result, int) {
	h.t.Helper()
	res, err := h.cs.CallTool(h.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		h.t.Fatalf("%s: %v %v", tool, err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var out result
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		h.t.Fatalf("%s: %v", tool, err)
	}
	return out, len(text)
}

// The answers an agent reads most often on a loop: a stop with the program's
// output, a page of output and a tracepoint's hits. Each carries the text
// and values once, not wrapped line by line in objects with timestamps.
func TestPythonOutputAndTraceInFewBytes(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "chatty.py")
	tp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 10, "collect": []string{"i", "label"}})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 14})

	first, firstBytes := h.okSized("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "maxBytes": 100000})
	wantStop(t, first, "breakpoint", 14)
	// debugpy delivers output by another path than stops: wait for the
	// lines, so that the next snapshot carries those the first did not.
	h.waitForOutput(id, "line 49 of")
	snap, snapBytes := h.okSized("step_over", map[string]any{"sessionId": id, "maxBytes": 100000})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	page, outputBytes := h.okSized("get_output", map[string]any{"sessionId": id})
	trace, traceBytes := h.okSized("get_trace", map[string]any{"sessionId": id})
	t.Logf("bytes: snapshots %d and %d with %d and %d bytes of output text, get_output of 50 lines %d, get_trace of 20 hits %d",
		firstBytes, snapBytes, len(first.outputText("output")), len(snap.outputText("output")), outputBytes, traceBytes)

	var lines strings.Builder
	for n := range 50 {
		fmt.Fprintf(&lines, "line %d of the program's output\n", n)
	}
	// Streams come by separate pipes: only the order within one is sure.
	shown := ""
	for _, stop := range []result{first, snap, end} {
		if text, ok := stop["output"].(string); ok || stop["output"] == nil {
			shown += text
			continue
		}
		t.Errorf("a snapshot's output should be text: %#v", stop["output"])
	}
	// A snapshot shows the last 40 pieces of output and says where the
	// rest is.
	stdout := strings.Replace(shown, "[stderr] a warning on stderr\n", "", 1)
	full := lines.String() + "labels 20\ndone\n"
	if !strings.HasSuffix(full, stdout) || !strings.Contains(stdout, "line 49 of") || !strings.Contains(end.str("output"), "[stderr] a warning on stderr\n") {
		t.Errorf("the snapshots' output should be the program's text, the stderr line marked: %q", shown)
	}
	if len(stdout) < len(full) && !strings.Contains(first.str("outputNote")+snap.str("outputNote"), "get_output with since=0") {
		t.Errorf("a snapshot that leaves output out should say how to read it: %v %v", first["outputNote"], snap["outputNote"])
	}

	all := lines.String() + "labels 20\ndone\n"
	streams := map[string]string{}
	for _, run := range page.list("entries") {
		streams[run.str("category")] += run.str("output")
	}
	if streams["stdout"] != all || streams["stderr"] != "a warning on stderr\n" || len(page.list("entries")) > 3 {
		t.Errorf("get_output should hold each stream's text in few entries: %v", page)
	}
	// Each entry costs its seq, category and timestamp (the reference's
	// shape), the text its JSON escapes.
	if outputBytes > len(all)+strings.Count(all, "\n")+350 {
		t.Errorf("get_output of %d bytes of text took %d bytes", len(all), outputBytes)
	}
	head := h.ok("get_output", map[string]any{"sessionId": id, "limit": 1})
	rest := h.ok("get_output", map[string]any{"sessionId": id, "since": head.num("nextSince")})
	if got := head.outputText("entries") + rest.outputText("entries"); head["hasMore"] != true || rest["hasMore"] != false || got != page.outputText("entries") {
		t.Errorf("the cursor should give exactly the rest: %q then %q", head.outputText("entries"), rest.outputText("entries"))
	}

	tables := trace.list("tables")
	if len(tables) != 1 {
		t.Fatalf("one tracepoint, one table: %v", trace)
	}
	table := tables[0]
	if table.num("breakpointId") != tp.num("breakpointId") || table.num("line") != 10 || fmt.Sprint(table["columns"]) != "[i label]" {
		t.Errorf("the table names the place and the columns once: %v", table)
	}
	rows, _ := table["rows"].([]any)
	for i, row := range rows {
		if got, wantRow := fmt.Sprint(row), fmt.Sprintf("[%d '%d']", i, i); got != wantRow {
			t.Errorf("row %d = %s, want %s (a str keeps its quotes)", i, got, wantRow)
		}
	}
	if len(rows) != 20 || trace.num("count") != 20 || traceBytes > 700 {
		t.Errorf("20 hits in %d bytes: %v", traceBytes, trace)
	}
	timed := h.ok("get_trace", map[string]any{"sessionId": id, "times": true}).list("tables")
	if cols := fmt.Sprint(timed[0]["columns"]); cols != "[time i label]" {
		t.Errorf("times adds a time column: %s", cols)
	}
}

// traceRow is one row of a get_trace table: its cells by column, and the
// table it is in.
type traceRow struct {
	table result
	cells map[string]any
}

// str is a cell's value ("" for an error or no value).
func (r traceRow) str(column string) string {
	s, _ := r.cells[column].(string)
	return s
}

// failure is a cell's error ("" for a value).
func (r traceRow) failure(column string) string {
	m, _ := r.cells[column].(map[string]any)
	s, _ := m["error"].(string)
	return s
}

// traceRows reads a get_trace answer's rows, table by table: tracepoint
// hits, and traced calls (each with its return column).
func traceRows(t testing.TB, page result) (hits, calls []traceRow) {
	t.Helper()
	for _, table := range page.list("tables") {
		columns, _ := table["columns"].([]any)
		rows, _ := table["rows"].([]any)
		for _, r := range rows {
			cells, _ := r.([]any)
			if len(cells) != len(columns) {
				t.Fatalf("a row of %d cells under %d columns: %v", len(cells), len(columns), table)
			}
			row := traceRow{table: table, cells: map[string]any{}}
			for i, c := range columns {
				row.cells[c.(string)] = cells[i]
			}
			switch table.str("kind") {
			case "tracepoint":
				hits = append(hits, row)
			case "function":
				calls = append(calls, row)
			default:
				t.Fatalf("a table of kind %q: %v", table.str("kind"), table)
			}
		}
	}
	return hits, calls
}
