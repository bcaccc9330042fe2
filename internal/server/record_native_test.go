package server

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// recordIn runs the record tool for language and returns its answer and
// its report.
func (h *harness) recordIn(language string, args map[string]any) (result, result) {
	h.t.Helper()
	args["language"] = language
	res := h.ok("record", args)
	if res.str("recordingId") == "" || res.str("sessionId") == "" {
		h.t.Fatalf("record names no recording or session: %v", res)
	}
	return res, res.obj("report")
}

// pathCalls are a report's failure path as "call @at" lines.
func pathCalls(rep result) []string {
	var out []string
	for _, f := range rep.list("path") {
		out = append(out, f.str("call")+" @"+f.str("at"))
	}
	return out
}

// wantPath checks a report's failure path, a pattern per call, outermost
// first.
func wantPath(t *testing.T, rep result, patterns ...string) {
	t.Helper()
	path := pathCalls(rep)
	if len(path) != len(patterns) {
		t.Fatalf("path:\n%s\nwant %d calls: %q; report: %v", strings.Join(path, "\n"), len(patterns), patterns, rep)
	}
	for i, p := range patterns {
		if !regexp.MustCompile(p).MatchString(path[i]) {
			t.Errorf("path[%d] = %q, want %s", i, path[i], p)
		}
	}
}

// A Go program that panics three calls deep, recorded through the record
// tool: the tool comes back once the program has ended, the report names
// the panic and its path with the arguments, and a query answers a
// function's calls with their values.
func TestRecordToolGoPanicNamesThePathWithValues(t *testing.T) {
	testenv.RequireAdapter(t, "go")
	h := newHarness(t)
	dir := goCartDir(t)
	res, rep := h.recordIn("go", map[string]any{"scriptPath": dir, "cwd": dir, "args": []string{"panic"}})
	if !strings.Contains(rep.str("outcome"), "bad quantity -1 for ink") || !strings.Contains(rep.str("mechanism"), "breakpoints") {
		t.Errorf("outcome and mechanism: %v", rep)
	}
	want := []string{
		"main.main() @main.go:53",
		"main.(*Cart).Total(c=Cart#1{Items=[…+3]}) @main.go:41",
		`main.price(it=Item#4{Name="ink", Price=5, Qty=-1}) @main.go:32`,
	}
	if got := pathCalls(rep); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("path:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	calls := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "price", "where": "return == 80"})
	if got := rows(t, calls); len(got) != 1 || !strings.Contains(got[0], `Name=\"book\", Price=40, Qty=2`) {
		t.Errorf("price's call returning 80: %v", got)
	}
}

// The record tool on a failing Go test: the report names the test and the
// calls that made the wrong value, with their arguments and returns.
func TestRecordToolGoFailingTestNamesTheTestAndItsCalls(t *testing.T) {
	testenv.RequireAdapter(t, "go")
	h := newHarness(t)
	dir := goCartDir(t)
	_, rep := h.recordIn("go", map[string]any{"path": dir, "name": "TestTotalWithDiscount", "cwd": dir})
	test := rep.obj("test")
	if test.str("name") != "TestTotalWithDiscount" || rep.obj("counts").num("testsFailed") != 1 || !strings.Contains(test.str("msg"), "total 99, want 100") {
		t.Fatalf("the failing test: %v", rep)
	}
	if got := pathCalls(rep); len(got) != 1 || !strings.HasPrefix(got[0], "cart.TestTotalWithDiscount(t=T#") || !strings.HasSuffix(got[0], " @main_test.go:16") {
		t.Errorf("path: %q, want the test function at main_test.go:16", got)
	}
	// A test binary names package main by its import path.
	last := strings.Join(strs(rep["lastCalls"]), "\n")
	for _, want := range []string{"cart.discount(total=110) -> 11 (line 25)", "cart.(*Cart).Total(c=Cart#3{Items=[…+2]}) -> 99 (line 45)"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last calls lack %q:\n%s", want, last)
		}
	}
}

// A Go test that panics deep in the code under test, and one that stops
// at t.Fatalf: each is a failed test with its message, and the failure's
// path ends where it was raised (the panic in price, the t.Fatalf in the
// test); the t.Fatalf test runs no further.
func TestRecordToolGoTestThatPanicsOrCallsFatal(t *testing.T) {
	testenv.RequireAdapter(t, "go")
	h := newHarness(t)
	dir := goCartDir(t)
	for _, tc := range []struct {
		name, msg, innermost string
	}{
		{"TestTotalOfABadQuantity", "bad quantity -1 for ink", "cart.price(it=Item#"},
		{"TestTotalOfAnEmptyCart", "discount 20 on an empty cart, want 0", "cart.TestTotalOfAnEmptyCart(t=T#"},
	} {
		res, rep := h.recordIn("go", map[string]any{"path": dir, "name": tc.name, "cwd": dir})
		test := rep.obj("test")
		if test.str("name") != tc.name || rep.obj("counts").num("testsFailed") != 1 || !strings.Contains(test.str("msg"), tc.msg) {
			t.Errorf("%s: want it failed with %q: %v", tc.name, tc.msg, rep)
			continue
		}
		path := pathCalls(rep)
		if len(path) == 0 || !strings.HasPrefix(path[0], "cart."+tc.name+"(t=T#") || !strings.HasPrefix(path[len(path)-1], tc.innermost) {
			t.Errorf("%s: path %q, want from the test to %s", tc.name, path, tc.innermost)
		}
		out := h.ok("get_output", map[string]any{"sessionId": res.str("sessionId")}).outputText("entries")
		if !strings.Contains(out, "--- FAIL: "+tc.name) || strings.Contains(out, "not reached") {
			t.Errorf("%s: want the runner's FAIL line and nothing logged after t.Fatalf:\n%s", tc.name, out)
		}
	}
}

// A Go program whose panic a deferred closure recovers two calls up: the
// panic is recorded where it was raised, with its value, the call between
// unwound by it, and the recovering function as where it was caught; the
// calls made by a return statement's results are that call's own.
func TestRecordToolGoRecoveredPanicNamesWhereRaisedAndRecovered(t *testing.T) {
	testenv.RequireAdapter(t, "go")
	h := newHarness(t)
	dir := filepath.Join(repoRoot(t), "testdata", "record", "go", "orders")
	res, rep := h.recordIn("go", map[string]any{"scriptPath": dir, "cwd": dir})
	want := "panic: negative quantity -2 raised in main.parseQty (main.go:14), caught in main.qtyOrZero (main.go:31)"
	if rep.str("outcome") != "exited with code 0" || strings.Join(strs(rep["swallowed"]), "\n") != want {
		t.Errorf("outcome and swallowed panics: %v\nwant swallowed: %s", rep, want)
	}
	lineQty := rows(t, h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "lineQty"}))
	if len(lineQty) != 3 || !strings.Contains(lineQty[1], `{"line":21,"raised":"panic"}`) {
		t.Errorf("lineQty's calls, the second unwound at line 21: %v", lineQty)
	}
	// lineQty is called by qtyOrZero's return statement: qtyOrZero is
	// its caller, not main.
	page, err := json.Marshal(h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "from": 2, "to": 3}))
	if err != nil || !strings.Contains(string(page), `"function":"main.lineQty","rows":[[3,2,`) {
		t.Errorf("calls 2 and 3 (id, caller, …), want lineQty #3 called by qtyOrZero #2: %s", page)
	}
	// return lineQty(text): qtyOrZero returns what that call returned.
	qty := rows(t, h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "qtyOrZero"}))
	if len(qty) != 3 || !strings.HasSuffix(qty[0], `"3"]`) || !strings.HasSuffix(qty[2], `"4"]`) {
		t.Errorf("qtyOrZero's calls (id, text, return), want the first returning 3 and the last 4: %v", qty)
	}
}

// A C program that fails an assertion three calls deep, recorded through
// lldb-dap: the report names the failing path with the arguments, a query
// answers a function's calls with their returns, and the history of a
// local in a function named in lines gives each value and its line.
func TestRecordToolCAssertionNamesThePathWithValues(t *testing.T) {
	testenv.RequireAdapter(t, "c")
	h := newHarness(t)
	program := filepath.Join(repoRoot(t), "testdata", "record", "c", "cart.c")
	res, rep := h.recordIn("c", map[string]any{"scriptPath": program, "cwd": filepath.Dir(program), "lines": []string{"total"}})
	if !strings.HasSuffix(rep.str("outcome"), "cart.c:22: price: Assertion `it.qty >= 0' failed.") || !strings.Contains(rep.str("mechanism"), "lldb-dap function breakpoints") {
		t.Errorf("outcome and mechanism: %v", rep)
	}
	path := pathCalls(rep)
	want := []string{
		`total(items=item#2{name="pen", price=3, qty=10}, n=3) @cart.c:30`,
		`price(it=item#5{name="ink", price=5, qty=-1}) @cart.c:22`,
	}
	if len(path) != 3 || !strings.HasPrefix(path[0], "main(argc=1, ") || strings.Join(path[1:], "\n") != strings.Join(want, "\n") {
		t.Errorf("path:\n%s\nwant main, then:\n%s", strings.Join(path, "\n"), strings.Join(want, "\n"))
	}
	calls := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "price"})
	got := rows(t, calls)
	if len(got) != 3 || !strings.HasSuffix(got[0], `{name=\"pen\", price=3, qty=10}","30"]`) || !strings.HasSuffix(got[1], `{name=\"book\", price=40, qty=2}","80"]`) ||
		!strings.Contains(got[2], `"raised":"signal"`) {
		t.Errorf("price's calls (id, it, return): %v", got)
	}
	// sum's first value, 0, may be the stack's before line 28 ran: the
	// values the loop set are the history's last two.
	hist := rows(t, h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "history": "total", "local": "sum"}))
	if n := len(hist); n < 2 || !strings.HasSuffix(hist[n-2], `,30,"30"]`) || !strings.HasSuffix(hist[n-1], `,30,"110"]`) {
		t.Errorf("sum's history (call, line, value): %v", hist)
	}
}

// A C++ program that throws three calls deep, through a method and a
// namespace: calls are named by their qualified names (the overload's
// parameters cut off), the one-line method's arguments are read after its
// prologue (lldb stops GCC's one-liners before it), strings and vectors
// show their contents, and the outcome is the exception the C++ runtime
// named, with its what().
func TestRecordToolCppExceptionNamesThePathWithValues(t *testing.T) {
	testenv.RequireAdapter(t, "cpp")
	h := newHarness(t)
	program := filepath.Join(repoRoot(t), "testdata", "record", "cpp", "cart.cpp")
	res, rep := h.recordIn("cpp", map[string]any{"scriptPath": program, "cwd": filepath.Dir(program), "lines": []string{"total"}})
	if rep.str("outcome") != "uncaught std::invalid_argument: bad quantity for ink" {
		t.Errorf("outcome: %q", rep.str("outcome"))
	}
	wantPath(t, rep,
		`^main\(argc=1, .*\) @cart\.cpp:59$`,
		`^shop::Cart::total\(this=Cart#\d+\{items=\[…\+3\]\}\) @cart\.cpp:39$`,
		`^shop::price\(it=Item#\d+\{name="ink", price=5, qty=-1\}\) @cart\.cpp:27$`)
	// lldb's step out knows no return line: none is shown.
	if last := strings.Join(strs(rep["lastCalls"]), "\n"); !strings.Contains(last, "shop::price(it=Item#") || strings.Contains(last, "(line 0)") {
		t.Errorf("last calls, want price's without a line 0:\n%s", last)
	}
	id := res.str("recordingId")
	added := rows(t, h.ok("query_recording", map[string]any{"recordingId": id, "calls": "Cart::add"}))
	if len(added) != 3 {
		t.Fatalf("Cart::add's calls: %v", added)
	}
	for i, item := range []string{`name=\"pen\", price=3, qty=10`, `name=\"book\", price=40, qty=2`, `name=\"ink\", price=5, qty=-1`} {
		if !strings.Contains(added[i], item) {
			t.Errorf("Cart::add's call %d: %s, want the item %s", i+1, added[i], item)
		}
	}
	wantCartQueries(t, h, id, "total", 39)
}

// A C++ program whose exceptions are caught two calls up: each throw is
// recorded, with the type thrown, where it was thrown — by the user's
// code, or by the library (std::stoi) into the user's call — the call
// between unwound by it, and the catch in the handler's call, which
// returns normally.
func TestRecordToolCppCaughtExceptionsNameWhereThrownAndCaught(t *testing.T) {
	testenv.RequireAdapter(t, "cpp")
	h := newHarness(t)
	program := filepath.Join(repoRoot(t), "testdata", "record", "cpp", "orders.cpp")
	res, rep := h.recordIn("cpp", map[string]any{"scriptPath": program, "cwd": filepath.Dir(program)})
	want := []string{
		"std::invalid_argument raised in shop::parse_qty (orders.cpp:14), caught in shop::qty_or_zero (orders.cpp:29)",
		"std::invalid_argument raised in shop::parse_qty (orders.cpp:16), caught in shop::qty_or_zero (orders.cpp:29)",
	}
	if rep.str("outcome") != "exited with code 0" || strings.Join(strs(rep["swallowed"]), "\n") != strings.Join(want, "\n") {
		t.Errorf("outcome and swallowed exceptions: %v\nwant swallowed:\n%s", rep, strings.Join(want, "\n"))
	}
	id := res.str("recordingId")
	lineQty := rows(t, h.ok("query_recording", map[string]any{"recordingId": id, "calls": "line_qty"}))
	if len(lineQty) != 4 || !strings.HasSuffix(lineQty[0], `"3"]`) || !strings.Contains(lineQty[1], `{"line":21,"raised":"std::invalid_argument"}`) ||
		!strings.Contains(lineQty[2], `"raised"`) || !strings.HasSuffix(lineQty[3], `"4"]`) {
		t.Errorf("line_qty's calls, the second and third unwound at line 21: %v", lineQty)
	}
	handled := rows(t, h.ok("query_recording", map[string]any{"recordingId": id, "calls": "qty_or_zero"}))
	if len(handled) != 4 || !strings.HasSuffix(handled[1], `"0"]`) || !strings.HasSuffix(handled[2], `"0"]`) || !strings.HasSuffix(handled[3], `"4"]`) {
		t.Errorf("qty_or_zero's calls, each returning after its catch: %v", handled)
	}
}

// A Rust program that panics three calls deep, built by Cargo: the calls
// are named as Rust names them (crate::module::function), main's first
// line, where std's code is inlined, still records main, and the outcome
// is the panic's message.
func TestRecordToolRustPanicNamesThePathWithValues(t *testing.T) {
	testenv.RequireAdapter(t, "rust")
	h := newHarness(t)
	dir := filepath.Join(repoRoot(t), "testdata", "record", "rust")
	res, rep := h.recordIn("rust", map[string]any{"scriptPath": dir, "cwd": dir, "lines": []string{"cart::total"}})
	if !strings.HasPrefix(rep.str("outcome"), "uncaught panic: bad quantity -1 for ink") {
		t.Errorf("outcome: %q", rep.str("outcome"))
	}
	wantPath(t, rep,
		`^record_cart::main\(\) @src/main\.rs:43$`,
		`^record_cart::cart::total\(items=\[Item#\d+, Item#\d+, Item#\d+\]\) @src/main\.rs:28$`,
		`^record_cart::price\(it=Item#\d+\{name="ink", price=5, qty=-1\}\) @src/main\.rs:19$`)
	wantCartQueries(t, h, res.str("recordingId"), "cart::total", 28)
}

// A Rust panic that catch_unwind takes two calls up: recorded where it
// was raised, with its message, the call between unwound, and caught in
// the function that called catch_unwind, which returns normally.
func TestRecordToolRustCaughtPanicNamesWhereRaisedAndCaught(t *testing.T) {
	testenv.RequireAdapter(t, "rust")
	h := newHarness(t)
	dir := filepath.Join(repoRoot(t), "testdata", "record", "rustcatch")
	res, rep := h.recordIn("rust", map[string]any{"scriptPath": dir, "cwd": dir})
	want := "panic: negative quantity -2 raised in record_catch::parse_qty (src/main.rs:7), caught in record_catch::qty_or_zero (src/main.rs:18)"
	if rep.str("outcome") != "exited with code 0" || strings.Join(strs(rep["swallowed"]), "\n") != want {
		t.Errorf("outcome and swallowed panics: %v\nwant swallowed: %s", rep, want)
	}
	handled := rows(t, h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "qty_or_zero"}))
	if len(handled) != 3 || !strings.HasSuffix(handled[1], `"0"]`) || !strings.HasSuffix(handled[2], `"4"]`) {
		t.Errorf("qty_or_zero's calls, the second returning 0 after its catch: %v", handled)
	}
}

// wantCartQueries checks the queries of a recorded cart program: price's
// three calls (30, 80, then the failure raised), and the history of sum
// in total (named by totalFn), the loop's line setting 30 then 110.
func wantCartQueries(t *testing.T, h *harness, id, totalFn string, loopLine int) {
	t.Helper()
	priced := rows(t, h.ok("query_recording", map[string]any{"recordingId": id, "calls": "price"}))
	if len(priced) != 3 || !strings.HasSuffix(priced[0], `"30"]`) || !strings.HasSuffix(priced[1], `"80"]`) || !strings.Contains(priced[2], `"raised"`) {
		t.Errorf("price's calls (id, it, return): %v", priced)
	}
	hist := rows(t, h.ok("query_recording", map[string]any{"recordingId": id, "history": totalFn, "local": "sum"}))
	at := fmt.Sprintf(",%d,", loopLine)
	if n := len(hist); n < 2 || !strings.HasSuffix(hist[n-2], at+`"30"]`) || !strings.HasSuffix(hist[n-1], at+`"110"]`) {
		t.Errorf("sum's history (call, line, value): %v", hist)
	}
}
