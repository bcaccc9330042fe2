package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// scaleProgram is each recorder's program that calls scale(i, i + 10)
// for i in 1..4; scaleBody is where a call of it is entered: the line
// of its body that sets y (Delve: the func line, its entry's line).
var scaleProgram = map[string]struct {
	path      string
	scaleBody int
}{
	"python":     {"python/record/scale.py", 2},
	"javascript": {"record/js/scale.js", 5},
	"java":       {"record/java/Scale.java", 3},
	"go":         {"record/go/scale", 8},
	"c":          {"record/c/scale.c", 5},
	"cpp":        {"record/cpp/scale.cpp", 9},
	"rust":       {"record/rustscale", 5},
}

// recordedCall records program and finds, by a query, the id of the call
// of fn whose arguments satisfy where.
func recordedCall(t *testing.T, h *harness, language, program, fn, where string) (recordingID, sessionID string, call int) {
	t.Helper()
	res := h.ok("record", map[string]any{"language": language, "scriptPath": program, "cwd": filepath.Dir(program)})
	page := h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": fn, "where": where})
	got := rows(t, page)
	if len(got) != 1 {
		t.Fatalf("want one call of %s where %s: %v", fn, where, got)
	}
	var row []any
	if err := json.Unmarshal([]byte(got[0]), &row); err != nil {
		t.Fatal(err)
	}
	id, _ := row[0].(float64)
	return res.str("recordingId"), res.str("sessionId"), int(id)
}

// stopAtEvent starts the recording's program again in session id and
// stops at event, checking that the answer says it reached it.
func stopAtEvent(h *harness, id, recordingID, event string) result {
	h.t.Helper()
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "stopAt": map[string]any{"recordingId": recordingID, "event": event}})
	if snap.str("state") != "paused" || snap.obj("data").obj("stopAt")["reached"] != true {
		h.t.Fatalf("stopAt %s did not stop at the event: %v", event, snap)
	}
	return snap
}

// From a recording's third call of scale to the live frame of that call:
// its locals are the recorded arguments of the third call (x=3,
// factor=13), not the first's, on every language with a recorder.
func TestStopAtARecordedCallStopsLiveInThatCall(t *testing.T) {
	for _, language := range []string{"python", "javascript", "java", "go", "c", "cpp", "rust"} {
		t.Run(language, func(t *testing.T) {
			testenv.RequireAdapter(t, language)
			h := newHarness(t)
			prog := scaleProgram[language]
			program := filepath.Join(repoRoot(t), "testdata", prog.path)
			recID, recSession, call := recordedCall(t, h, language, program, "scale", "x == 3")
			snap := stopAtEvent(h, recSession, recID, fmt.Sprintf("#%d", call))
			// Go's and Rust's programs are their directories.
			f := snap.stopFile(t)
			if filepath.Base(f) != filepath.Base(program) && !strings.HasPrefix(f, program+string(filepath.Separator)) || snap.obj("location").num("line") != prog.scaleBody {
				t.Errorf("want the stop in scale's first line %d: %v", prog.scaleBody, snap["location"])
			}
			locals := snap.vars("locals")
			if locals["x"] != "3" || locals["factor"] != "13" {
				t.Errorf("the live frame's arguments, want x=3 factor=13 as recorded: %v", locals)
			}
			if !strings.Contains(snap.obj("data").obj("stopAt").str("event"), "x=3") {
				t.Errorf("the answer names the event it reached: %v", snap["data"])
			}
			// The recorded run printed its results; the live one has not yet.
			if out := snap.str("output"); strings.Contains(out, "11") {
				t.Errorf("the live stop shows the recorded run's output as its own: %q", out)
			}
		})
	}
}

// A live run that does not repeat the recorded one (its input changed)
// still stops at the same call of the function by count, and the answer
// says that call's arguments are not the recorded ones.
func TestStopAtSaysWhenTheLiveCallIsNotTheRecordedOne(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	h := newHarness(t)
	program := pythonProgram(t, "record/scale_input.py")
	input := filepath.Join(t.TempDir(), "numbers.txt")
	if err := os.WriteFile(input, []byte("1 2 3 4"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := h.ok("record", map[string]any{"language": "python", "scriptPath": program, "args": []string{input}, "cwd": filepath.Dir(program)})
	recID := res.str("recordingId")
	got := rows(t, h.ok("query_recording", map[string]any{"recordingId": recID, "calls": "scale", "where": "x == 3"}))
	if len(got) != 1 {
		t.Fatalf("want one call of scale with x == 3: %v", got)
	}
	var row []any
	if err := json.Unmarshal([]byte(got[0]), &row); err != nil {
		t.Fatal(err)
	}
	event := fmt.Sprintf("#%d", int(row[0].(float64)))

	same := stopAtEvent(h, res.str("sessionId"), recID, event)
	if msg := same.str("message"); !strings.HasPrefix(msg, "Stopped live at recorded ") {
		t.Errorf("the same input, the same call: %q", msg)
	}
	if end := h.ok("continue_execution", map[string]any{"sessionId": res.str("sessionId")}); end.str("state") != "stopped" {
		t.Fatalf("the first live run goes on to its end: %v", end)
	}
	if err := os.WriteFile(input, []byte("1 2 7 4"), 0o600); err != nil {
		t.Fatal(err)
	}
	changed := stopAtEvent(h, res.str("sessionId"), recID, event)
	if msg := changed.str("message"); !strings.Contains(msg, "arguments differ: x=7 (recorded 3), factor=17 (recorded 13)") {
		t.Errorf("another input: %q, want the differing arguments named", msg)
	}
}

// stopAt into a C++ method written on one line, which lldb stops in
// before its prologue: the answer says the live locals are not its
// arguments yet, rather than claiming the recorded call's values live.
func TestStopAtAOneLineFunctionSaysItsArgumentsAreNotStoredYet(t *testing.T) {
	testenv.RequireAdapter(t, "cpp")
	h := newHarness(t)
	program := filepath.Join(repoRoot(t), "testdata", "record", "cpp", "cart.cpp")
	res := h.ok("record", map[string]any{"language": "cpp", "scriptPath": program, "cwd": filepath.Dir(program)})
	added := rows(t, h.ok("query_recording", map[string]any{"recordingId": res.str("recordingId"), "calls": "Cart::add"}))
	if len(added) < 2 {
		t.Fatalf("Cart::add's calls: %v", added)
	}
	var row []any
	if err := json.Unmarshal([]byte(added[1]), &row); err != nil {
		t.Fatal(err)
	}
	snap := stopAtEvent(h, res.str("sessionId"), res.str("recordingId"), fmt.Sprintf("#%d", int(row[0].(float64))))
	if msg := snap.str("message"); !strings.Contains(msg, "its arguments are not stored yet") {
		t.Errorf("a stop at a one-line method's entry: %q", msg)
	}
}

// A return goes to the caller just after the recorded call, and a line of
// the call stops in that call before the line runs, with the values the
// recording says it had there.
func TestStopAtAReturnAndALineOfARecordedCall(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	h := newHarness(t)
	program := pythonProgram(t, "record/scale.py")
	recID, recSession, call := recordedCall(t, h, "python", program, "scale", "factor == 12")

	ret := stopAtEvent(h, recSession, recID, fmt.Sprintf("#%d return", call))
	if ret.obj("location").str("function") != "main" || ret.obj("location").num("line") != 9 {
		t.Errorf("a return stops in main, at the call's line 9: %v", ret["location"])
	}
	if locals := ret.vars("locals"); locals["i"] != "2" {
		t.Errorf("main's loop is at the second call (i=2): %v", locals)
	}
	if end := h.ok("continue_execution", map[string]any{"sessionId": recSession}); end.str("state") != "stopped" {
		t.Fatalf("the run goes on to its end: %v", end)
	}

	line := stopAtEvent(h, recSession, recID, fmt.Sprintf("#%d line 3", call))
	if line.obj("location").num("line") != 3 {
		t.Errorf("line 3 of the call: %v", line["location"])
	}
	if locals := line.vars("locals"); locals["x"] != "2" || locals["y"] != "24" {
		t.Errorf("the call's locals before its return line, want x=2 y=24: %v", locals)
	}
}

// stopAt re-runs the recorded program: another program is refused, and so
// is an event the recording does not have.
func TestStopAtRefusesAnotherProgramAndAnUnknownEvent(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	h := newHarness(t)
	recID, recSession, call := recordedCall(t, h, "python", pythonProgram(t, "record/scale.py"), "scale", "x == 1")
	h.fail("start_debugging", map[string]any{"sessionId": recSession, "scriptPath": pythonProgram(t, "loop.py"),
		"stopAt": map[string]any{"recordingId": recID, "event": fmt.Sprintf("#%d", call)}}, "stopAt's recording ran")
	h.fail("start_debugging", map[string]any{"sessionId": recSession,
		"stopAt": map[string]any{"recordingId": recID, "event": "#999"}}, "no call #999")
	h.fail("start_debugging", map[string]any{"sessionId": recSession,
		"stopAt": map[string]any{"recordingId": recID, "event": "the third call"}}, `name an event as "#7"`)
}

// debug_test with record: one call answers the recording's report (with
// its id for query_recording) and the live stop in the failing test,
// before the failing line runs, with the test's locals.
func TestDebugTestRecordReportsAndStopsLiveAtTheFailure(t *testing.T) {
	for _, tc := range []struct {
		language, path, name, test, called string
		line                               int
		local                              string
	}{
		{"python", "python/record/test_pricing.py", "", "test_bulk_order", "order_total", 10, "items"},
		{"javascript", "record/js/cart.test.js", "", "totals an order", "price", 24, "pending"},
		{"go", "record/go/cart", "TestTotalWithDiscount", "TestTotalWithDiscount", "discount", 16, "got"},
	} {
		t.Run(tc.language, func(t *testing.T) {
			testenv.RequireAdapter(t, tc.language)
			h := newHarness(t)
			args := map[string]any{"language": tc.language, "path": filepath.Join(repoRoot(t), "testdata", tc.path), "record": true}
			if tc.name != "" {
				args["name"] = tc.name
			}
			res := h.ok("debug_test", args)
			rec := res.obj("recording")
			if rec.str("recordingId") == "" || !strings.Contains(rec.obj("report").obj("test").str("name"), tc.test) {
				t.Fatalf("the recording's report names the failing test %q: %v", tc.test, rec)
			}
			if !res.obj("test")["failed"].(bool) || !strings.Contains(res.obj("test").str("name"), tc.test) {
				t.Errorf("test: %v", res["test"])
			}
			if res.str("state") != "paused" || res.obj("data").obj("stopAt")["reached"] != true || res.obj("location").num("line") != tc.line {
				t.Fatalf("want a live stop at the failing line %d: %v", tc.line, res)
			}
			if _, ok := res.vars("locals")[tc.local]; !ok {
				t.Errorf("the test's locals lack %s: %v", tc.local, res["locals"])
			}
			h.ok("query_recording", map[string]any{"recordingId": rec.str("recordingId"), "calls": tc.called})
		})
	}
}

// A second start in a session whose program ended stops at its breakpoint:
// the first run's adapter, still exiting, must not end the second run (a
// second stopAt in the recording's session starts this way).
func TestStartAgainAfterTheProgramEndedStopsAtTheBreakpoint(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "record/scale.py")
	h.stopAt(id, prog, 2, prog)
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2})
	if end := h.ok("continue_execution", map[string]any{"sessionId": id}); end.str("state") != "stopped" {
		t.Fatalf("the first run goes on to its end: %v", end)
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 3})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}), "breakpoint", 3)
}
