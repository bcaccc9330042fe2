package server

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// investigations are BenchmarkAgentCost's scripts shaped like real agent
// work: each starts from what an agent is told ("this test fails", "this
// total is wrong") and ends when the answers have shown the cause.
var investigations = []struct {
	name, language, prog string
	run                  func(m *meter) bool
}{
	{"pytest_exception_deep_in_code", "python", "testdata/python/shop/test_shop.py", pytestDeepException},
	{"tracepoint_day_use_goes_negative", "python", "testdata/python/readings.py", tracepointNegativeDay},
	{"node_test_function_throws", "javascript", "testdata/node/shop/shop.test.js", nodeTestThrows},
	{"cargo_test_panics_deep_in_code", "rust", "testdata/native/rustshop/src/lib.rs", cargoTestPanics},
	{"stdin_program_fails_on_its_input", "python", "testdata/python/tally.py", stdinProgramFails},
	{"go_subtest_fails_named_as_go_test_prints_it", "go", "testdata/go/subtests/tree_test.go", goSubtestFails},
}

// A program fails on a line of its standard input: tally.py stops with
// ValueError at int('x2'), the line 'pear x2'. The input goes with the
// start, one call (the trial's agents, without it, spent 2-4 calls on
// tricks to feed it).
func stdinProgramFails(m *meter) bool {
	defer m.close()
	return shows(m.do("start_debugging", map[string]any{"language": "python", "scriptPath": m.prog, "stdin": "apple 3\npear x2\nfig 1\n"}), "line", "pear x2")
}

// One subtest of a Go table test fails, named as go test -v prints it
// (spaces as underscores): the answer is the failure with the values, Sum
// of the whole range is 55 where 66 was wanted. (The trial's agent was
// told "passed" for this name: no test had run.)
func goSubtestFails(m *meter) bool {
	defer m.close()
	failed := m.do("debug_test", map[string]any{"language": "go", "path": m.prog, "name": "TestSum/array_with_size_11_(whole)"})
	return showsInOrder(failed, "55", "want", "66")
}

// A pytest test fails with ZeroDivisionError raised in shop.py's
// unit_price, three calls below the test: the cause is the pack it was
// given, (0, 3.5), fig's pack of size 0.
func pytestDeepException(m *meter) bool {
	defer m.close()
	cause := func(text string) bool { return shows(text, "pack", "(0, 3.5)") }
	if cause(m.do("debug_test", map[string]any{"language": "python", "path": m.prog})) {
		return true
	}
	return cause(m.localsOf("unit_price"))
}

// Which day's use goes wrong? readings.py's 17th reading lost a digit, so
// day 17's use is -44035: a tracepoint on the loop's line collects each
// day's use in one run.
func tracepointNegativeDay(m *meter) bool {
	defer m.close()
	m.do("create_debug_session", map[string]any{"language": "python"})
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 16, "collect": []string{"day", "used"}})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog})
	return shows(m.do("get_trace", map[string]any{}), "17", "-44035")
}

// A node:test test fails with a RangeError thrown in shop.js's unitPrice,
// three calls below the test: the cause is the pack it was given, fig's,
// of size 0.
func nodeTestThrows(m *meter) bool {
	defer m.close()
	cause := func(text string) bool { return shows(text, "size", "0") && shows(text, "price", "3.5") }
	if cause(m.do("debug_test", map[string]any{"language": "javascript", "path": m.prog})) {
		return true
	}
	return cause(m.localsOf("unitPrice"))
}

// A cargo test panics (attempt to divide by zero) in lib.rs's unit_price,
// three calls below the test: the cause is the pack it was given, fig's,
// of size 0 and 350 cents.
func cargoTestPanics(m *meter) bool {
	defer m.close()
	cause := func(text string) bool { return shows(text, "size", "0") && shows(text, "cents", "350") }
	failed := m.do("debug_test", map[string]any{"language": "rust", "path": m.prog})
	if cause(failed) {
		return true
	}
	if !shows(failed, "lib.rs", "26") {
		failed = m.localsOf("unit_price")
		if cause(failed) {
			return true
		}
	}
	// lldb-dap shows the &Pack argument as an address: the agent expands
	// it to read the struct's fields.
	ref, ok := referenceOf(failed, "pack")
	if !ok {
		m.h.t.Fatalf("no variablesReference of pack to expand in: %s", failed)
	}
	return cause(m.do("get_variables", map[string]any{"scope": ref}))
}

// referenceOf finds the variablesReference an answer gives the variable
// name: in a JSON answer, wherever its variables are; in a text answer, on
// the line that names it.
func referenceOf(answer, name string) (int, bool) {
	var decoded any
	if json.Unmarshal([]byte(answer), &decoded) == nil {
		return referenceIn(decoded, name)
	}
	pattern := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b[^\n]*?\b(?:variablesReference|ref)\W{0,3}(\d+)`)
	if match := pattern.FindStringSubmatch(answer); match != nil {
		id, err := strconv.Atoi(match[1])
		return id, err == nil
	}
	return 0, false
}

func referenceIn(value any, name string) (int, bool) {
	switch v := value.(type) {
	case map[string]any:
		if ref, ok := v["variablesReference"].(float64); ok && v["name"] == name && ref > 0 {
			return int(ref), true
		}
		for _, child := range v {
			if ref, ok := referenceIn(child, name); ok {
				return ref, true
			}
		}
	case []any:
		for _, child := range v {
			if ref, ok := referenceIn(child, name); ok {
				return ref, true
			}
		}
	}
	return 0, false
}

// localsOf is what an agent does when the stop shows the test's frame but
// the cause lies deeper: read the stack for the frame of function, then its
// locals. It returns both answers' text.
func (m *meter) localsOf(function string) string {
	stack := m.do("get_stack_trace", map[string]any{})
	id, ok := frameIDOf(stack, function)
	if !ok {
		m.h.t.Fatalf("get_stack_trace shows no frame id of %s: %s", function, stack)
	}
	return stack + m.do("get_local_variables", map[string]any{"frameId": id})
}

// frameIDOf finds the id of function's frame in a stack answer: in its
// stackFrames when the answer is JSON, else on the line that names the
// function.
func frameIDOf(stack, function string) (int, bool) {
	var frames struct {
		StackFrames []struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"stackFrames"`
	}
	if json.Unmarshal([]byte(stack), &frames) == nil {
		for _, f := range frames.StackFrames {
			if strings.HasSuffix(f.Name, function) {
				return f.ID, true
			}
		}
		return 0, false
	}
	idOnLine := regexp.MustCompile(`\b(?:id|frame)\W{0,3}(\d+)`)
	for _, line := range strings.Split(stack, "\n") {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(function) + `\b`).MatchString(line) {
			continue
		}
		if match := idOnLine.FindStringSubmatch(line); match != nil {
			id, err := strconv.Atoi(match[1])
			return id, err == nil
		}
	}
	return 0, false
}
