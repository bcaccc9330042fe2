package node

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// The JavaScript recorder on real node and the programs in
// testdata/record/js: each test records a run and reads the JSON Lines
// the recorder wrote (docs/recording-format.md).

func recordTestdata(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "record", "js", name)
}

// event is one recorded event, its fields as JSON decoded them.
type event map[string]any

func (e event) kind() string { return e["k"].(string) }
func (e event) id() int {
	n, _ := e["id"].(float64)
	return int(n)
}
func (e event) int(field string) int {
	n, _ := e[field].(float64)
	return int(n)
}
func (e event) str(field string) string {
	s, _ := e[field].(string)
	return s
}

// record runs cfg (its program under testdata/record/js) with the
// recorder and returns the run's result and events.
func record(t testing.TB, cfg adapter.RecordConfig) (*adapter.RecordResult, []event) {
	t.Helper()
	testenv.RequireAdapter(t, "javascript")
	a, _ := adapter.Lookup("javascript")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg.Cwd = recordTestdata("")
	cfg.EventsFile = filepath.Join(t.TempDir(), "events.jsonl")
	if cfg.Output == nil {
		cfg.Output = io.Discard
	}
	res, err := a.(adapter.Recorder).Record(ctx, cfg)
	if err != nil {
		t.Fatalf("Record: %v", err)
	}
	return res, readEvents(t, cfg.EventsFile)
}

func readEvents(t testing.TB, file string) []event {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []event
	lines := bufio.NewScanner(f)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		var e event
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
			t.Fatalf("line %d is not JSON: %v: %s", len(events)+1, err, lines.Text())
		}
		events = append(events, e)
	}
	if len(events) == 0 || events[0].kind() != "start" || events[len(events)-1].kind() != "end" {
		t.Fatalf("a recording starts with start and ends with end: %v", events)
	}
	return events
}

// calls are the call events of fn, in order.
func calls(events []event, fn string) []event {
	var out []event
	for _, e := range events {
		if e.kind() == "call" && e.str("fn") == fn {
			out = append(out, e)
		}
	}
	return out
}

// of is the events of kind k of call id, in order.
func of(events []event, k string, id int) []event {
	var out []event
	for _, e := range events {
		if e.kind() == k && e.id() == id {
			out = append(out, e)
		}
	}
	return out
}

// brief is e as the test's failure messages show it.
func brief(events []event) string {
	var b strings.Builder
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(&b, "\n  %s", data)
	}
	return b.String()
}

func TestRecordCallTreeHasArgumentsAndReturns(t *testing.T) {
	res, events := record(t, adapter.RecordConfig{Program: recordTestdata("cart.js")})
	if res.ExitCode != 1 || !strings.HasPrefix(res.Runtime, "Node.js v") {
		t.Errorf("result = %+v, want exit 1 (the uncaught checkout error) and the runtime", res)
	}
	checkouts := calls(events, "cart.checkout")
	if len(checkouts) != 2 {
		t.Fatalf("want 2 checkout calls:%s", brief(events))
	}
	first := checkouts[0]
	if args, _ := json.Marshal(first["args"]); string(args) != `[["cart","Cart#1{owner='ada', items=[{…3}, {…3}]}"]]` {
		t.Errorf("checkout's args = %s: want the cart rendered by its fields, its items one level down", args)
	}
	totals := calls(events, "cart.Cart.total")
	if len(totals) == 0 || totals[0].int("p") != first.id() {
		t.Fatalf("Cart.total is called by checkout #%d:%s", first.id(), brief(events))
	}
	discount := calls(events, "cart.applyDiscount")
	if len(discount) != 1 || discount[0].int("p") != totals[0].id() {
		t.Fatalf("applyDiscount is called once, by Cart.total:%s", brief(events))
	}
	if args, _ := json.Marshal(discount[0]["args"]); string(args) != `[["amount","15"],["rate","0.1"]]` {
		t.Errorf("applyDiscount's args = %s", args)
	}
	ret := of(events, "ret", discount[0].id())
	if len(ret) != 1 || ret[0].str("v") != "12.15" || ret[0].int("line") != 34 {
		t.Errorf("applyDiscount returns 12.15 from line 34:%s", brief(ret))
	}
	arrow := calls(events, "cart.arrow")
	if len(arrow) != 1 || of(events, "ret", arrow[0].id())[0].str("v") != "{doubled: 8}" {
		t.Errorf("the expression-bodied arrow returns its object:%s", brief(arrow))
	}
}

func TestRecordSwallowedAndRethrownException(t *testing.T) {
	_, events := record(t, adapter.RecordConfig{Program: recordTestdata("cart.js")})
	lineTotals := calls(events, "cart.lineTotal")
	bad := lineTotals[len(lineTotals)-1]
	total := calls(events, "cart.Cart.total")[1]
	checkout := calls(events, "cart.checkout")[1]
	want := []string{
		fmt.Sprintf(`exc %d RangeError line 26 raised=true`, bad.id()),
		fmt.Sprintf(`unwind %d RangeError line 26`, bad.id()),
		fmt.Sprintf(`exc %d RangeError line 19 raised=false`, total.id()),
		fmt.Sprintf(`unwind %d RangeError line 19`, total.id()),
		fmt.Sprintf(`exc %d RangeError line 39 raised=false`, checkout.id()),
		fmt.Sprintf(`catch %d RangeError line 41`, checkout.id()),
		fmt.Sprintf(`exc %d Error line 41 raised=true`, checkout.id()),
		fmt.Sprintf(`unwind %d Error line 41`, checkout.id()),
	}
	var got []string
	for _, e := range events {
		switch e.kind() {
		case "exc":
			got = append(got, fmt.Sprintf("exc %d %s line %d raised=%v", e.id(), e.str("type"), e.int("line"), e["raised"]))
		case "catch", "unwind":
			got = append(got, fmt.Sprintf("%s %d %s line %d", e.kind(), e.id(), e.str("type"), e.int("line")))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("exception events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	end := events[len(events)-1]
	if end.int("exit") != 1 || end.str("type") != "Error" || !strings.Contains(end.str("msg"), "checkout failed for ada: bad quantity -1") {
		t.Errorf("end = %v: want exit 1 and the uncaught Error's message", end)
	}
}

func TestRecordLinesOfANamedFunctionWithTheSettingLine(t *testing.T) {
	_, events := record(t, adapter.RecordConfig{Program: recordTestdata("cart.js"), Lines: []string{"applyDiscount"}})
	call := calls(events, "cart.applyDiscount")[0]
	var got []string
	for _, e := range events {
		if e.id() != call.id() {
			continue
		}
		switch e.kind() {
		case "line":
			got = append(got, fmt.Sprintf("line %d", e.int("line")))
		case "set":
			got = append(got, fmt.Sprintf("set %d %s=%s", e.int("line"), e.str("n"), e.str("v")))
		}
	}
	want := []string{"line 31", "set 31 discounted=15", "line 32", "set 32 discounted=13.5", "line 33", "set 33 discounted=12.15", "line 34"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("applyDiscount's lines and sets:\n got %s\nwant %s", strings.Join(got, "; "), strings.Join(want, "; "))
	}
	if others := calls(events, "cart.lineTotal"); len(of(events, "line", others[0].id())) != 0 {
		t.Errorf("a function not named in lines has no line events")
	}
}

func TestRecordKeepsTheStartAndTheEndPastMaxEvents(t *testing.T) {
	const maxEvents = 1000
	_, events := record(t, adapter.RecordConfig{Program: recordTestdata("calls.js"), Args: []string{"15"}, MaxEvents: maxEvents})
	var gap event
	for _, e := range events {
		if e.kind() == "gap" {
			gap = e
		}
	}
	// fib(15) makes 1973 fib calls and 987 weigh calls: 5920 call and ret events.
	if gap == nil || gap.int("n") != 5920-maxEvents+1 || gap.int("first") == 0 || gap.int("last") < gap.int("first") {
		t.Fatalf("want one gap of the %d events not kept:%s", 5920-maxEvents+1, brief(append(events[:3:3], gap)))
	}
	if len(events) != maxEvents+2 {
		t.Errorf("%d events written, want maxEvents (%d) with the start counted, plus gap and end", len(events), maxEvents)
	}
	last := events[len(events)-2]
	if last.kind() != "ret" || last.str("v") != "610" {
		t.Errorf("the ring keeps the last events: the outer fib's return 610, not %v", last)
	}
}

func TestRecordFailingNodeTest(t *testing.T) {
	file := recordTestdata("cart.test.js")
	res, events := record(t, adapter.RecordConfig{Test: &adapter.TestRequest{Path: file}})
	if res.ExitCode != 1 || res.Runner != "node:test" {
		t.Errorf("result = %+v, want the failing run's exit 1 from node:test", res)
	}
	var tests []string
	for _, e := range events {
		if e.kind() == "test" {
			tests = append(tests, fmt.Sprintf("%s %s %q line %d", e.str("name"), e.str("outcome"), e.str("msg"), e.int("line")))
		}
	}
	want := []string{`prices a line passed "" line 17`, `totals an order failed "Expected values to be strictly equal:\n\n12 !== 13\n" line 21`}
	if strings.Join(tests, "\n") != strings.Join(want, "\n") {
		t.Errorf("test events:\n%s\nwant:\n%s", strings.Join(tests, "\n"), strings.Join(want, "\n"))
	}
	fetch := calls(events, "cart.test.fetchTotal")
	if len(fetch) != 1 || of(events, "ret", fetch[0].id())[0].str("v") != "12" {
		t.Fatalf("fetchTotal returns 12 across its awaits:%s", brief(events))
	}
	testFn := fetch[0].int("p")
	var callers []int
	for _, price := range calls(events, "cart.test.price")[1:] {
		callers = append(callers, price.int("p"))
	}
	// fetchTotal calls price(1, 2), awaits; the test calls price(1, 1);
	// fetchTotal resumes and calls price(2, 5).
	if fmt.Sprint(callers) != fmt.Sprint([]int{fetch[0].id(), testFn, fetch[0].id()}) {
		t.Errorf("price's callers = %v, want fetchTotal #%d, the test #%d (while fetchTotal awaits), fetchTotal:%s", callers, fetch[0].id(), testFn, brief(events))
	}
	raised := of(events, "exc", testFn)
	if len(raised) != 1 || raised[0].str("type") != "AssertionError" || raised[0].int("line") != 24 || of(events, "unwind", testFn) == nil {
		t.Errorf("the failing test's function raises the AssertionError at line 24 and unwinds:%s", brief(events))
	}
}
