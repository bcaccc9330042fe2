package server

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests of the agent tools (watches, changes, run_to, answer
// budgets, tracepoints, function traces, break_on_change, debug_test) on
// real debugpy, driving testdata/python/agent.py (lines in its README).

// changeOf finds a change by name in a snapshot.
func changeOf(snap result, name string) (from, to string, ok bool) {
	for _, c := range snap.list("changed") {
		if c.str("name") == name {
			return c.str("from"), c.str("to"), true
		}
	}
	return "", "", false
}

func watchOf(snap result, expr string) result {
	for _, w := range snap.list("watches") {
		if w.str("expression") == expr {
			return w
		}
	}
	return nil
}

func TestPythonWatchesAndChanges(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "agent.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 21})
	first := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	wantStop(t, first, "breakpoint", 21)
	if first["changed"] != nil {
		t.Errorf("the first stop in a function has nothing to compare with: %v", first["changed"])
	}

	added := h.ok("add_watch", map[string]any{"sessionId": id, "expression": "len(paid)"})
	if w := added.obj("watch"); w.str("value") != "0" || w.num("id") == 0 {
		t.Errorf("add_watch while paused evaluates at once: %v", added)
	}
	bad := h.ok("add_watch", map[string]any{"sessionId": id, "expression": "no_such_name * 2"})
	if bad.obj("watch").str("error") == "" {
		t.Errorf("a watch that cannot be evaluated says why, without failing: %v", bad)
	}
	h.fail("add_watch", map[string]any{"sessionId": id, "expression": "len(paid)"}, "already watched")

	second := h.ok("continue_execution", map[string]any{"sessionId": id})
	wantStop(t, second, "breakpoint", 21)
	if w := watchOf(second, "len(paid)"); w.str("value") != "1" {
		t.Errorf("watch at the second stop: %v", second["watches"])
	}
	if w := watchOf(second, "no_such_name * 2"); w.str("error") == "" || !strings.Contains(w.str("error"), "no_such_name") {
		t.Errorf("failing watch at the second stop: %v", w)
	}
	if from, to, ok := changeOf(second, "p"); !ok || from != "10" || to != "20" {
		t.Errorf("p should change 10 -> 20: %v", second["changed"])
	}
	if from, to, ok := changeOf(second, "len(paid)"); !ok || from != "0" || to != "1" {
		t.Errorf("the watch should change 0 -> 1: %v", second["changed"])
	}
	if _, _, ok := changeOf(second, "total"); ok {
		t.Errorf("total did not change: %v", second["changed"])
	}

	third := h.ok("continue_execution", map[string]any{"sessionId": id, "changesOnly": true})
	wantStop(t, third, "breakpoint", 21)
	locals := third.vars("locals")
	if _, ok := locals["p"]; !ok || locals["p"] != "30" {
		t.Errorf("changesOnly keeps changed locals: %v", locals)
	}
	if _, ok := locals["total"]; ok {
		t.Errorf("changesOnly leaves unchanged locals out: %v", locals)
	}
	if unchanged := fmt.Sprint(third["unchanged"]) + third.str("localsNote"); !strings.Contains(unchanged, "total") && !strings.Contains(unchanged, "unchanged") {
		t.Errorf("changesOnly says what it left out: %v %q", third["unchanged"], third.str("localsNote"))
	}
	if w := watchOf(third, "len(paid)"); w.str("value") != "2" {
		t.Errorf("watch at the third stop: %v", third["watches"])
	}

	list := h.ok("list_watches", map[string]any{"sessionId": id})
	if ws := list.list("watches"); len(ws) != 2 || ws[0].str("value") != "2" {
		t.Errorf("list_watches: %v", list)
	}
	h.ok("remove_watch", map[string]any{"sessionId": id, "expression": "no_such_name * 2"})
	h.fail("remove_watch", map[string]any{"sessionId": id, "watchId": 999}, "no watch")
	if ws := h.ok("list_watches", map[string]any{"sessionId": id}).list("watches"); len(ws) != 1 {
		t.Errorf("after remove_watch: %v", ws)
	}
}

func TestPythonRunTo(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "agent.py")
	bp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 21})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 21)

	blocked := h.ok("run_to", map[string]any{"sessionId": id, "file": prog, "line": 22})
	if blocked["reached"] != false || blocked.obj("location").num("line") != 21 || !strings.Contains(blocked.str("message"), "Did not reach") {
		t.Fatalf("the breakpoint on line 21 comes first: %v", blocked)
	}
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp.num("breakpointId")})

	fn := h.ok("run_to", map[string]any{"sessionId": id, "function": "add_item"})
	if fn["reached"] != true || fn.obj("location").str("function") != "add_item" || fn.vars("locals")["item"] != "'apple'" {
		t.Fatalf("run_to function: %v", fn)
	}
	stmt := h.ok("run_to", map[string]any{"sessionId": id, "file": prog, "statement": `add_item(cart, "pear")`})
	if stmt["reached"] != true || stmt.obj("location").num("line") != 23 {
		t.Fatalf("run_to statement: %v", stmt)
	}
	if bps := h.ok("list_breakpoints", map[string]any{"sessionId": id}); len(bps.list("breakpoints")) != 0 {
		t.Errorf("run_to leaves no breakpoint behind: %v", bps)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) {
		t.Errorf("the removed temporary breakpoints do not stop the program again: %v", end)
	}
}

func TestPythonAnswerBudget(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "agent.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 24})
	full := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	wantStop(t, full, "breakpoint", 24)
	if full["budget"] != nil {
		t.Fatalf("a small snapshot is not cut by the default budget: %v", full["budget"])
	}

	// Five locals of 150 characters pass 1000 bytes.
	wide := h.sessionFor("python")
	h.ok("set_breakpoint", map[string]any{"sessionId": wide, "file": pythonProgram(t, "wide.py"), "line": 10})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": wide, "scriptPath": pythonProgram(t, "wide.py")}), "breakpoint", 10)
	res, err := h.cs.CallTool(h.ctx, &mcp.CallToolParams{Name: "wait_for_stop", Arguments: map[string]any{"sessionId": wide, "maxBytes": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(res.Content[0].(*mcp.TextContent).Text)
	if len(body) > 1000 {
		t.Errorf("answer of %d bytes exceeds maxBytes 1000: %s", len(body), body)
	}
	var cut result
	if err := json.Unmarshal(body, &cut); err != nil {
		t.Fatal(err)
	}
	if cut.obj("location").num("line") != 10 {
		t.Errorf("the location survives the cut: %v", cut)
	}
	left := cut.obj("budget")
	notes, _ := json.Marshal(left["leftOut"])
	if left.num("maxBytes") != 1000 || !strings.Contains(string(notes), "get_") {
		t.Errorf("budget names what was left out and how to get it: %v (%d bytes: %s)", left, len(body), body)
	}

	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 29})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id}), "breakpoint", 29)

	table := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "table"})
	vars := h.ok("get_variables", map[string]any{"sessionId": id, "scope": table.num("variablesReference"), "maxBytes": 2000})
	kept := len(vars.list("variables"))
	notes, _ = json.Marshal(vars.obj("budget")["leftOut"])
	if kept == 0 || kept >= 200 || !strings.Contains(string(notes), "start=") {
		t.Errorf("get_variables cut to 2000 bytes keeps %d of 200 entries and says how to page: %s", kept, notes)
	}
}

func TestPythonWaitReportsProgressAndCancels(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": pythonProgram(t, "busy.py"), "waitForStop": false})
	h.waitForOutput(id, "busy")

	ctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	params := &mcp.CallToolParams{Name: "wait_for_stop", Arguments: map[string]any{"sessionId": id, "timeout": 60000}}
	params.SetProgressToken("wait-1")
	done := make(chan error, 1)
	go func() {
		_, err := h.cs.CallTool(ctx, params)
		done <- err
	}()
	select {
	case p := <-h.progress:
		if p.ProgressToken != "wait-1" || p.Total != 60 || !strings.Contains(p.Message, "running") {
			t.Errorf("progress notification: %+v", p)
		}
	case err := <-done:
		t.Fatalf("wait_for_stop returned before reporting progress: %v", err)
	case <-h.ctx.Done():
		t.Fatal("no progress notification while waiting")
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a cancelled wait_for_stop should end with the cancellation")
	}
	if st := h.ok("list_debug_sessions", map[string]any{}).list("sessions")[0].str("state"); st != "running" {
		t.Errorf("after a cancelled wait the program runs on: %s", st)
	}
	paused := h.ok("pause_execution", map[string]any{"sessionId": id})
	if paused.str("state") != "paused" || paused.obj("location").str("function") == "" {
		t.Errorf("the session stays usable after a cancelled wait: %v", paused)
	}
}

func TestPythonTracepointCollectsWithoutStopping(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "agent.py")
	tp := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 17, "collect": []string{"i", "total"}})
	if !strings.Contains(tp.str("message"), "Tracepoint") {
		t.Errorf("set_breakpoint with collect: %v", tp)
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 21, "collect": []string{"p"}, "maxHits": 2})

	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) {
		t.Fatalf("tracepoints never stop the program: %v", end)
	}
	var hits, capped []traceRow
	var cappedNotes []any
	since, mixed := 0, false
	for {
		// 60 a page: the second holds the last hits of line 17 and those of 21.
		page := h.ok("get_trace", map[string]any{"sessionId": id, "since": since, "limit": 60})
		rows, _ := traceRows(t, page)
		for _, row := range rows {
			switch row.table.num("breakpointId") {
			case tp.num("breakpointId"):
				hits = append(hits, row)
			default:
				capped = append(capped, row)
			}
		}
		if len(page.list("tables")) > 1 {
			// Rows of several tables carry their seq, which orders them
			// across tables: line 21 runs after the loop of line 17.
			mixed = true
			if last, first := hits[len(hits)-1].cells["seq"], capped[0].cells["seq"]; last == nil || first == nil || last.(float64) >= first.(float64) {
				t.Errorf("the seq column should order the rows of both tables: %v", page)
			}
		}
		for _, table := range page.list("tables") {
			if table.num("breakpointId") != tp.num("breakpointId") {
				cappedNotes, _ = table["notes"].([]any)
			}
		}
		since = page.num("nextSince")
		if page["more"] != true {
			break
		}
	}
	if len(hits) != 100 {
		t.Fatalf("want 100 hits of line 17, got %d", len(hits))
	}
	for n, hit := range hits {
		delete(hit.cells, "seq")
		if hit.table.num("line") != 17 || len(hit.cells) != 2 || hit.str("i") != strconv.Itoa(n) || hit.str("total") != strconv.Itoa(n*(n-1)/2) {
			t.Fatalf("hit %d: %v", n, hit.cells)
		}
	}
	if !mixed {
		t.Errorf("no page held both tracepoints' rows")
	}
	if len(capped) != 2 || capped[0].str("p") != "10" || capped[1].str("p") != "20" || len(cappedNotes) != 1 || !strings.Contains(cappedNotes[0].(string), "maxHits") {
		t.Errorf("maxHits 2 records two hits and says the tracepoint was removed: %v %v", capped, cappedNotes)
	}
	out := h.ok("get_output", map[string]any{"sessionId": id})
	if text := out.outputText("entries"); strings.Contains(text, "mcp-trace") || !strings.Contains(text, "total 4950") {
		t.Errorf("tracepoint reports stay out of the program's output, which is whole: %q", text)
	}
}

func TestPythonBreakOnChangeFindsTheMutatingLine(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "agent.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 15})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 15)

	found := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "cart"})
	by := found.obj("changedBy")
	if found["changed"] != true || found.str("from") != "[]" || found.str("to") != "['apple']" ||
		by.num("line") != 10 || by.str("function") != "add_item" || found.str("method") != "single steps" {
		t.Fatalf("break_on_change should find cart.append in add_item (line 10): %v", found)
	}
	if found.str("state") != "paused" || !strings.Contains(found.str("message"), "agent.py:10") {
		t.Errorf("the program stays paused just after the change: %v", found)
	}

	capped := h.ok("break_on_change", map[string]any{"sessionId": id, "expression": "total", "maxSteps": 3})
	if capped["changed"] != false || !strings.Contains(capped.str("why"), "maxSteps") || capped.num("steps") != 3 {
		t.Errorf("a search capped by maxSteps says so: %v", capped)
	}
	h.fail("break_on_change", map[string]any{"sessionId": id, "expression": "no_such_name"}, "no_such_name")
}

func TestPythonTraceFunctionRecordsArgumentsAndReturns(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "agent.py")
	h.ok("trace_function", map[string]any{"sessionId": id, "function": "discount"})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if end.str("state") != "stopped" || end["exitCode"] != float64(0) {
		t.Fatalf("a traced function never stops the program for the agent: %v", end)
	}
	page := h.ok("get_trace", map[string]any{"sessionId": id})
	hits, calls := traceRows(t, page)
	if len(hits) != 0 || len(calls) != 3 || page.num("count") != 6 {
		t.Fatalf("want 3 calls and their 3 returns, got %v", page)
	}
	if table := calls[0].table; table.str("function") != "discount" || fmt.Sprint(table["columns"]) != "[price rate return]" {
		t.Errorf("the function's table: %v", table)
	}
	for n, price := range []string{"10", "20", "30"} {
		call := calls[n]
		want := []string{"5.0", "10.0", "15.0"}[n]
		if call.str("price") != price || call.str("rate") != "0.5" || call.str("return") != want {
			t.Errorf("call %d: want discount(%s, 0.5) = %s: %v", n, price, want, call.cells)
		}
	}
}

func TestPythonDebugTestStopsAtTheFailingAssertion(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	file := pythonProgram(t, filepath.Join("tests", "test_cart.py"))
	res := h.ok("debug_test", map[string]any{"language": "python", "path": file})
	test := res.obj("test")
	if test.str("runner") != "pytest" || test["failed"] != true || test.str("name") != "test_cart.py::test_total_with_discount" && !strings.HasSuffix(test.str("name"), "::test_total_with_discount") {
		t.Fatalf("debug_test names the failing test: %v", res)
	}
	if m := test.str("message"); !strings.HasPrefix(m, "AssertionError: discounted total") || !strings.Contains(m, "assert 30.0 == 40") {
		t.Errorf("the assertion's message: %q", test.str("message"))
	}
	wantStop(t, res, "exception", 15)
	if l := res.vars("locals"); l["got"] != "30.0" || res.obj("location").str("function") != "test_total_with_discount" {
		t.Errorf("the snapshot shows the test's locals: %v", l)
	}
	id := res.str("sessionId")
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "total(prices, 0)"}); ev.str("result") != "60" {
		t.Errorf("the session stays open for inspection: %v", ev)
	}

	passing := h.ok("debug_test", map[string]any{"language": "python", "path": file, "name": "test_total_without_discount"})
	if pt := passing.obj("test"); pt["passed"] != true || pt["failed"] != false || passing.str("state") != "stopped" {
		t.Errorf("a passing test: %v", passing)
	}

	// A name that is no test ran nothing: neither passed nor failed, and
	// the answer lists the tests there are.
	none := h.ok("debug_test", map[string]any{"language": "python", "path": file, "name": "test_no_such_thing"})
	nt := none.obj("test")
	if nt["passed"] == true || nt["failed"] == true || nt["noneMatched"] != true || !strings.Contains(fmt.Sprint(nt["available"]), "test_total_with_discount") {
		t.Errorf("a name that matches nothing: %v", none)
	}
}

// A breakpoint of the agent's inside a function under trace_function
// stops there (debugpy does not say which breakpoint a stop is for: the
// stop was taken for a traced call and stepped out of), and the trace
// still records the calls.
func TestPythonBreakpointInsideATracedFunctionStops(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := filepath.Join(repoRoot(t), "examples", "python", "orders.py")
	h.ok("trace_function", map[string]any{"sessionId": id, "function": "line_total"})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 13})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	wantStop(t, snap, "breakpoint", 13)
	if f := snap.obj("location").str("function"); f != "line_total" {
		t.Fatalf("the stop is in line_total: %v", snap["location"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("continue_execution", map[string]any{"sessionId": id})
	if tr := fmt.Sprint(h.ok("get_trace", map[string]any{"sessionId": id})); !strings.Contains(tr, "line_total") {
		t.Errorf("the trace records line_total's calls: %s", tr)
	}
}
