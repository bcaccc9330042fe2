package recording

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func open(t *testing.T, name string) *Recording {
	t.Helper()
	r, err := Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func report(t *testing.T, name string) *Report {
	t.Helper()
	rep, err := open(t, name).Report()
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestReportOfAFailingTestNamesItsPathAndTheCallsBeforeIt(t *testing.T) {
	rep := report(t, "failing_test.jsonl")
	if rep.Test == nil || rep.Test.Name != "test_pricing.py::test_bulk_order" || rep.Test.File != "test_pricing.py" {
		t.Fatalf("failing test: %+v", rep.Test)
	}
	if !strings.Contains(rep.Outcome, "assert 10.975 == 9.9775") {
		t.Errorf("outcome: %s", rep.Outcome)
	}
	if len(rep.Path) != 1 || rep.Path[0].Call != "test_pricing.test_bulk_order()" || rep.Path[0].At != "test_pricing.py:10" {
		t.Errorf("path: %+v", rep.Path)
	}
	// The items' fields are shown once, on the latest line.
	want := "#4 pricing.order_total(items=[Item#1{name='pen', price=0.5, qty=2}, Item#2{name='pad', price=0.9975, qty=10}]) -> 10.975 (line 28)"
	last := strings.Join(rep.LastCalls, "\n")
	if !strings.Contains(last, want) || !strings.Contains(last, "#7 pricing.line_total(item=Item#2) -> 9.975 (line 20)") || !strings.Contains(last, "#8 pricing.discount_rate(qty=10) -> 0.0 (line 15)") {
		t.Errorf("last calls lack the wrong value's chain:\n%s", last)
	}
	if rep.Counts != (Counts{Calls: 8, Events: 21, Passed: 1, Failed: 1}) {
		t.Errorf("counts: %+v", rep.Counts)
	}
}

func TestReportOfAnUncaughtExceptionShowsTheOneSwallowedBeforeIt(t *testing.T) {
	rep := report(t, "swallowed.jsonl")
	if rep.Outcome != "uncaught ConfigError: no usable port in settings (exit code 1)" {
		t.Errorf("outcome: %s", rep.Outcome)
	}
	var path []string
	for _, f := range rep.Path {
		path = append(path, f.Call+" @"+f.At)
	}
	want := "config_app.<module>() @config_app.py:28 | config_app.load(settings={'port': 'eighty'}) @config_app.py:22"
	if strings.Join(path, " | ") != want {
		t.Errorf("path:\n got %s\nwant %s", strings.Join(path, " | "), want)
	}
	if rep.SwallowedCount != 1 || len(rep.Swallowed) != 1 ||
		rep.Swallowed[0] != "ValueError: invalid literal for int() with base 10: 'eighty' raised in config_app.parse_port (config_app.py:9), caught in config_app.read_setting (config_app.py:15)" {
		t.Errorf("swallowed: %q", rep.Swallowed)
	}
	if !strings.Contains(strings.Join(rep.LastCalls, "\n"), "#3 config_app.read_setting(settings={'port': 'eighty'}, key='port') -> None (line 16)") {
		t.Errorf("last calls: %q", rep.LastCalls)
	}
}

func TestReportOfADeepRecursionAfterAGapKeepsItsEnds(t *testing.T) {
	rep := report(t, "recursion_gap.jsonl")
	if rep.Counts.Dropped != 500 {
		t.Errorf("dropped: %d", rep.Counts.Dropped)
	}
	if !strings.Contains(rep.Warning, "500 events (of calls #4 to #503) were not recorded") || !strings.Contains(rep.Warning, "maxEvents") {
		t.Errorf("warning: %q", rep.Warning)
	}
	if len(rep.Path) != 2 || rep.Path[1].Call != "deep.down(n=503)" || rep.Path[0].Call != "deep.down(n=502)" {
		t.Errorf("path: %+v", rep.Path)
	}
}

func TestCallsOfAFunctionFilteredByAPredicate(t *testing.T) {
	r := open(t, "failing_test.jsonl")
	page, err := r.Calls(CallsQuery{Fn: "discount_rate"})
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 3 || len(page.Tables) != 1 || strings.Join(page.Tables[0].Columns, ",") != "id,qty,return" {
		t.Fatalf("page: %s", js(page))
	}
	where, err := ParsePredicate("qty >= 10 && return == 0.0")
	if err != nil {
		t.Fatal(err)
	}
	page, err = r.Calls(CallsQuery{Fn: "pricing.discount_rate", Where: where, First: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(page.Tables[0].Rows); got != `[[8,"10","0.0"]]` {
		t.Errorf("first call with qty >= 10: %s", got)
	}
	where, _ = ParsePredicate("item == 'x'")
	if page, _ = r.Calls(CallsQuery{Fn: "line_total", Where: where}); page.Count != 0 {
		t.Errorf("a string compared with an object matched: %s", js(page))
	}
}

func TestCallsPageWithACursorAndBetweenTwoIDs(t *testing.T) {
	r := open(t, "failing_test.jsonl")
	page, err := r.Calls(CallsQuery{From: 4, To: 7, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 2 || !page.More || page.NextCursor != 5 {
		t.Fatalf("first page: %s", js(page))
	}
	page, err = r.Calls(CallsQuery{From: 4, To: 7, Limit: 2, Cursor: page.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if page.Count != 2 || page.More || js(page.Tables[0].Rows[0][:2]) != "[6,5]" {
		t.Fatalf("second page: %s", js(page))
	}
	_, err = r.Calls(CallsQuery{Fn: "nosuch"})
	if !errors.Is(err, ErrUnknownFunction) || !strings.Contains(err.Error(), "pricing.line_total") {
		t.Errorf("unknown function: %v", err)
	}
}

func TestUnwoundCallsShowTheirException(t *testing.T) {
	page, err := open(t, "swallowed.jsonl").Calls(CallsQuery{Fn: "parse_port"})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(page.Tables[0].Rows); got != `[[4,"'eighty'",{"raised":"ValueError","line":9}]]` {
		t.Errorf("rows: %s", got)
	}
}

func TestHistoryOfALocalSaysTheLineThatSetEachValue(t *testing.T) {
	r := open(t, "lines.jsonl")
	page, err := r.History(HistoryQuery{Fn: "order_total", Name: "total"})
	if err != nil {
		t.Fatal(err)
	}
	if got := js(page.Tables[0].Rows); got != `[[1,24,"0"],[1,27,"1.0"],[1,27,"10.975"]]` {
		t.Errorf("history of total: %s", got)
	}
	page, err = r.History(HistoryQuery{Fn: "order_total", Limit: 2})
	if err != nil || !page.More || page.Count != 2 {
		t.Fatalf("first page: %v %s", err, js(page))
	}
	page, err = r.History(HistoryQuery{Fn: "order_total", Cursor: page.NextCursor})
	if err != nil || page.More || page.Count != 5 || js(page.Tables[0].Rows[0]) != `[1,26,"subtotal","1.0"]` {
		t.Fatalf("second page: %v %s", err, js(page))
	}
	if _, err := r.History(HistoryQuery{Fn: "line_total", Name: "rate"}); !errors.Is(err, ErrNoLines) {
		t.Errorf("a function without lines: %v", err)
	}
}

func TestPredicates(t *testing.T) {
	values := map[string]string{"n": "4", "name": "'x'", "ok": "True", "v": "None", "total": "10.975"}
	for src, want := range map[string]bool{
		"n > 3": true, "n > 4": false, "n <= 4 && name == 'x'": true, `name == "x"`: true,
		"name != 'y'": true, "ok == true": true, "v == None": true, "v == null": true,
		"total == 10.975": true, "missing == 1": false, "name > 3": false,
	} {
		p, err := ParsePredicate(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got := p.Holds(values); got != want {
			t.Errorf("%s: %v, want %v", src, got, want)
		}
	}
	for _, bad := range []string{"", "n", "n >", "== 3", "n = 3", "n == 'x", "n == f(1)", "__import__('os') == 1"} {
		if _, err := ParsePredicate(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// One object passed down a chain of calls is shown once on a page: later
// rows name the call whose row shows it. Short values are repeated.
func TestCallsPageShowsALongValueOnce(t *testing.T) {
	order := `{'id': 'B-2', 'method': 'express', 'items': [dict(len=3)]}`
	events := strings.Join([]string{
		`{"k":"start","t":0,"lang":"python","version":1,"cwd":"/proj","argv":["shipping.py"]}`,
		`{"k":"call","t":1,"id":1,"p":0,"fn":"shipping.order_total","file":"/proj/shipping.py","line":30,"args":[["order",` + strconv.Quote(order) + `]]}`,
		`{"k":"call","t":2,"id":2,"p":1,"fn":"shipping.shipping","file":"/proj/shipping.py","line":20,"args":[["order",` + strconv.Quote(order) + `],["kg","8.0"]]}`,
		`{"k":"call","t":3,"id":3,"p":2,"fn":"shipping.surcharge","file":"/proj/shipping.py","line":9,"args":[["kg","8.0"]]}`,
		`{"k":"ret","t":4,"id":3,"v":"270.0","line":12}`,
		`{"k":"ret","t":5,"id":2,"v":"282.0","line":22}`,
		`{"k":"ret","t":6,"id":1,"v":"410.5","line":33}`,
		`{"k":"end","t":7,"exit":0}`,
	}, "\n") + "\n"
	file := filepath.Join(t.TempDir(), "chain.jsonl")
	if err := os.WriteFile(file, []byte(events), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	page, err := r.Calls(CallsQuery{From: 1, To: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := js(page)
	if strings.Count(got, "B-2") != 1 || !strings.Contains(got, `"(as #1)"`) || strings.Count(got, `"8.0"`) != 2 {
		t.Errorf("want the order shown in call 1's row alone, the short kg in both rows: %s", got)
	}
}
