package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// recordProgram is a program of testdata/python/record.
func recordProgram(t *testing.T, name string) string {
	t.Helper()
	return pythonProgram(t, filepath.Join("record", name))
}

// record runs the record tool and returns its answer and its report.
func (h *harness) record(args map[string]any) (result, result) {
	h.t.Helper()
	args["language"] = "python"
	res := h.ok("record", args)
	if res.str("recordingId") == "" || res.str("sessionId") == "" {
		h.t.Fatalf("record names no recording or session: %v", res)
	}
	return res, res.obj("report")
}

// rows are a query answer's rows of its one table, as JSON texts.
func rows(t *testing.T, res result) []string {
	t.Helper()
	tables := res.list("tables")
	if len(tables) != 1 {
		t.Fatalf("want one table: %v", res)
	}
	var out []string
	for _, r := range tables[0]["rows"].([]any) {
		b, _ := json.Marshal(r)
		out = append(out, string(b))
	}
	return out
}

// A test that fails on a value computed three calls deep: the report names
// the failing test, its path, and the calls that made the wrong value with
// their arguments; a query finds the call that returned it.
func TestRecordAFailingPytestNamesThePathAndTheCallsWithValues(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	res, rep := h.record(map[string]any{"path": recordProgram(t, "test_pricing.py")})
	if size := sizeOf(res); size > defaultRecordMaxBytes {
		t.Errorf("the report is %d bytes, over %d: %v", size, defaultRecordMaxBytes, res)
	}
	test := rep.obj("test")
	if !strings.HasSuffix(test.str("name"), "::test_bulk_order") || !strings.Contains(test.str("msg"), "assert 10.975 == 9.9775") {
		t.Fatalf("the failing test: %v", rep)
	}
	path := rep.list("path")
	if len(path) != 1 || path[0].str("call") != "test_pricing.test_bulk_order()" || !strings.HasSuffix(path[0].str("at"), "test_pricing.py:10") {
		t.Errorf("the failure's path: %v", rep["path"])
	}
	last := strings.Join(strs(rep["lastCalls"]), "\n")
	for _, want := range []string{
		"pricing.discount_rate(qty=10) -> 0.0 (line 15)",
		// Item#1 was the passing test's. Each item's fields are shown
		// once, on the latest line that has it.
		"pricing.line_total(item=Item#3) -> 9.975 (line 20)",
		"pricing.order_total(items=[Item#2{name='pen', price=0.5, qty=2}, Item#3{name='pad', price=0.9975, qty=10}]) -> 10.975 (line 28)",
	} {
		if !strings.Contains(last, want) {
			t.Errorf("the last calls lack %q:\n%s", want, last)
		}
	}
	if rep.str("mechanism") == "" || rep.obj("counts").num("testsPassed") != 1 || rep.obj("counts").num("testsFailed") != 1 {
		t.Errorf("mechanism and counts: %v", rep)
	}
	first := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "discount_rate", "where": "qty >= 10 && return == 0.0", "first": true})
	if got := rows(t, first); len(got) != 1 || !strings.HasSuffix(got[0], `,"10","0.0"]`) {
		t.Errorf("the first discount_rate(qty >= 10) returning 0.0: %v", got)
	}
	h.fail("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "discount_rate", "where": "__import__('os').system('true')"}, "expected one of")
}

// Where did total become 10.975? The history of a local in a function
// named in lines says each value and the line that set it.
func TestRecordHistoryOfALocalGivesTheLineThatSetIt(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	res, _ := h.record(map[string]any{"path": recordProgram(t, "test_pricing.py"), "name": "test_bulk_order", "lines": []string{"order_total"}})
	hist := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "history": "order_total", "local": "total"})
	got := rows(t, hist)
	if len(got) != 3 || !strings.HasSuffix(got[0], `,24,"0"]`) || !strings.HasSuffix(got[1], `,27,"1.0"]`) || !strings.HasSuffix(got[2], `,27,"10.975"]`) {
		t.Errorf("total's history (call, line, value): %v", got)
	}
	h.fail("query_recording", map[string]any{"recordingId": res.str("recordingId"), "history": "line_total", "local": "rate"}, "no line events")
}

// A ValueError swallowed in read_setting comes back as a ConfigError two
// calls up: the report shows both, where each was raised and caught.
func TestRecordShowsAnExceptionSwallowedAndRaisedAsAnother(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	_, rep := h.record(map[string]any{"scriptPath": recordProgram(t, "config_app.py")})
	if rep.str("outcome") != "uncaught ConfigError: no usable port in settings (exit code 1)" {
		t.Errorf("outcome: %v", rep["outcome"])
	}
	var path []string
	for _, f := range rep.list("path") {
		path = append(path, f.str("call")+" @"+f.str("at"))
	}
	if want := []string{"config_app.<module>() @config_app.py:28", "config_app.load(settings={'port': 'eighty'}) @config_app.py:22"}; !slices.Equal(path, want) {
		t.Errorf("path:\n got %q\nwant %q", path, want)
	}
	swallowed := strs(rep["swallowed"])
	want := "ValueError: invalid literal for int() with base 10: 'eighty' raised in config_app.parse_port (config_app.py:9), caught in config_app.read_setting (config_app.py:15)"
	if len(swallowed) != 1 || swallowed[0] != want {
		t.Errorf("swallowed:\n got %q\nwant %q", swallowed, want)
	}
}

// The bolt count goes wrong in restock, two calls before the ship that
// fails: one query over every call on bolts shows it.
func TestRecordQueryFindsTheEarlierCallThatCorruptedTheState(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	res, rep := h.record(map[string]any{"scriptPath": recordProgram(t, "inventory.py")})
	if !strings.HasPrefix(rep.str("outcome"), "uncaught RuntimeError: cannot ship 4 bolt: only 2 left") {
		t.Errorf("outcome: %v", rep["outcome"])
	}
	page := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "where": "name == 'bolt'"})
	var calls []string
	for _, table := range page.list("tables") {
		for _, row := range table["rows"].([]any) {
			b, _ := json.Marshal(row)
			calls = append(calls, table.str("function")+string(b))
		}
	}
	want := []string{
		`inventory.reserve[3,2,"{'bolt': 10, 'nut': 8}","'bolt'","3","7"]`,
		`inventory.restock[4,2,"{'bolt': 7, 'nut': 8}","'bolt'","2","2"]`,
		`inventory.ship[7,2,"{'bolt': 2, 'nut': 5}","'bolt'","4",{"line":17,"raised":"RuntimeError"}]`,
	}
	if !slices.Equal(calls, want) {
		t.Errorf("calls on bolts:\n got %q\nwant %q", calls, want)
	}
	between := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "from": 4, "to": 5, "limit": 1})
	if between.num("count") != 1 || between["more"] != true || between.num("nextCursor") != 4 {
		t.Errorf("the first page of calls 4..5: %v", between)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": res.str("sessionId")})
	h.fail("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "ship"}, "no recording")
}

// sys.monitoring (3.12+) and sys.settrace (below) record the same run the
// same way: the reports and a history agree.
func TestRecordMonitoringAgreesWithSettrace(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	old := findPython(t, func(minor int) bool { return minor < 12 })
	recent := findPython(t, func(minor int) bool { return minor >= 12 })
	if old == "" || recent == "" {
		t.Skipf("needs a Python below 3.12 (found %q) and one of 3.12 or later (found %q)", old, recent)
	}
	answers := map[string][]string{}
	for _, python := range []string{old, recent} {
		for _, program := range []string{"config_app.py", "inventory.py"} {
			res, rep := h.record(map[string]any{"scriptPath": recordProgram(t, program), "executablePath": python, "lines": []string{"run"}})
			mechanism := rep.str("mechanism")
			delete(rep, "mechanism")
			delete(rep, "runtime")
			delete(rep, "elapsedMs")
			b, _ := json.Marshal(rep)
			answers[mechanism] = append(answers[mechanism], string(b))
			if program == "inventory.py" {
				hist := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "history": "run", "local": "stock"})
				answers[mechanism] = append(answers[mechanism], strings.Join(rows(t, hist), " "))
			}
		}
	}
	settrace, monitoring := answers["sys.settrace"], answers["sys.monitoring"]
	if len(settrace) != 3 || len(monitoring) != 3 {
		t.Fatalf("want each mechanism once per interpreter: %v", answers)
	}
	for i := range settrace {
		if settrace[i] != monitoring[i] {
			t.Errorf("the mechanisms differ:\nsys.settrace   %s\nsys.monitoring %s", settrace[i], monitoring[i])
		}
	}
	if !strings.Contains(settrace[2], `,25,"{'bolt': 2, 'nut': 8}"]`) {
		t.Errorf("stock's history lacks restock's line 25 setting bolt to 2: %s", settrace[2])
	}
}

// findPython is an interpreter on this machine whose 3.x minor version
// satisfies want: on PATH, in /usr/bin or among pyenv's versions; "" if
// none.
func findPython(t *testing.T, want func(minor int) bool) string {
	t.Helper()
	var cands []string
	for _, name := range []string{"python3", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13", "python3.14"} {
		if p, err := exec.LookPath(name); err == nil {
			cands = append(cands, p)
		}
	}
	cands = append(cands, "/usr/bin/python3")
	home, _ := os.UserHomeDir()
	pyenv, _ := filepath.Glob(filepath.Join(home, ".pyenv", "versions", "3.*", "bin", "python3"))
	cands = append(cands, pyenv...)
	for _, p := range cands {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		out, err := exec.CommandContext(ctx, p, "-c", "import sys; print(sys.version_info[1] if sys.version_info[0] == 3 else 0)").Output()
		cancel()
		if err != nil {
			continue
		}
		minor, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err == nil && minor >= 7 && want(minor) {
			return p
		}
	}
	return ""
}

func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// A RecursionError reaches the recorder's own callbacks too: the program
// must still end as it would (its traceback free of the recorder), and the
// report must still show the recursing calls, with the middle counted.
func TestRecordARecursionErrorKeepsTheRecursingPath(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	pythons := []string{findPython(t, func(minor int) bool { return minor < 12 }), findPython(t, func(minor int) bool { return minor >= 12 })}
	for _, python := range pythons {
		if python == "" {
			continue
		}
		res, rep := h.record(map[string]any{"scriptPath": recordProgram(t, "deep.py"), "executablePath": python})
		t.Run(rep.str("mechanism"), func(t *testing.T) {
			if !strings.HasPrefix(rep.str("outcome"), "uncaught RecursionError: maximum recursion depth exceeded") {
				t.Errorf("outcome: %v", rep["outcome"])
			}
			path := rep.list("path")
			if len(path) < 4 || rep.num("pathLeftOut") < 100 || !strings.HasPrefix(path[len(path)-1].str("call"), "deep.depth") {
				t.Errorf("the recursing path, its middle counted: %v (left out %v)", rep["path"], rep["pathLeftOut"])
			}
			out := allOutput(h, res.str("sessionId"))
			if !strings.Contains(out, "RecursionError") || strings.Contains(out, "mcp_debugger_recorder") {
				t.Errorf("the program's traceback, without the recorder: %s", out)
			}
		})
	}
}

// allOutput reads all of a session's output, page by page.
func allOutput(h *harness, id string) string {
	var out strings.Builder
	for since := 0; ; {
		page := h.ok("get_output", map[string]any{"sessionId": id, "since": since, "maxBytes": 1 << 20})
		if len(page.list("entries")) == 0 {
			return out.String()
		}
		out.WriteString(page.outputText("entries"))
		since = page.num("nextSince")
	}
}

// A run that outgrows maxEvents loses the middle of its recording: the
// report says how many events went and how to record them all.
func TestRecordPastMaxEventsWarnsOfTheDroppedEvents(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	_, rep := h.record(map[string]any{"scriptPath": recordProgram(t, "calls.py"), "args": []string{"2"}, "maxEvents": 100})
	dropped := rep.obj("counts").num("dropped")
	if dropped < 1000 {
		t.Fatalf("2 000 calls within maxEvents 100 drop most of their events: %v", rep)
	}
	warning := rep.str("warning")
	for _, want := range []string{strconv.Itoa(dropped) + " events", "maxEvents", "include", "lines"} {
		if !strings.Contains(warning, want) {
			t.Errorf("the warning lacks %q: %q", want, warning)
		}
	}
}
