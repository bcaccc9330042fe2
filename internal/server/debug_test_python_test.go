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

// debugDeepTest runs one test of testdata/python/tests/test_deep.py under
// debug_test.
func debugDeepTest(t *testing.T, name string) (*harness, result) {
	t.Helper()
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	file := pythonProgram(t, filepath.Join("tests", "test_deep.py"))
	return h, h.ok("debug_test", map[string]any{"language": "python", "path": file, "name": name})
}

// A RecursionError also reaches debugpy's own trace function, which Python
// then turns off: the failure must still stop, in the recursing function.
func TestPythonDebugTestStopsInTheRecursingFunction(t *testing.T) {
	h, res := debugDeepTest(t, "test_depth_of_a_cycle")
	test := res.obj("test")
	if test["failed"] != true || !strings.HasSuffix(test.str("name"), "::test_depth_of_a_cycle") {
		t.Fatalf("debug_test reports the failing test: %v", res)
	}
	if m := test.str("message"); !strings.HasPrefix(m, "RecursionError: maximum recursion depth exceeded") {
		t.Errorf("the exception's type and message: %q", m)
	}
	if res.str("state") != "paused" || res.str("stopReason") != "exception" || res.obj("location").str("function") != "depth" {
		t.Fatalf("want a stop in depth, the recursing function: state=%s reason=%s location=%v", res.str("state"), res.str("stopReason"), res["location"])
	}
	if l := res.vars("locals"); l["node"] != "{'name': 'root'}" {
		t.Errorf("the recursing frame's locals: %v", l)
	}
	wantNoRunnerInternals(t, res)
	end := h.ok("continue_execution", map[string]any{"sessionId": res.str("sessionId")})
	if end.str("state") != "stopped" || end.num("exitCode") != 1 {
		t.Errorf("continuing lets pytest finish, failed: %v", end)
	}
}

// A ValueError raised three calls below the test stops where it is raised,
// with that frame's locals, not at the test's call.
func TestPythonDebugTestStopsWhereADeepExceptionIsRaised(t *testing.T) {
	_, res := debugDeepTest(t, "test_parse_a_word")
	test := res.obj("test")
	if test["failed"] != true || !strings.HasSuffix(test.str("name"), "::test_parse_a_word") || test.str("message") != "ValueError: not a count: 'ten'" {
		t.Fatalf("debug_test reports the failing test and its exception: %v", test)
	}
	wantStop(t, res, "exception", 20)
	if l := res.vars("locals"); res.obj("location").str("function") != "checked" || l["value"] != "'ten'" || l["limit"] != "10" {
		t.Errorf("the raising frame and its locals: %v %v", res["location"], l)
	}
}

// A strict xfail that passes fails the run without any exception: no stop,
// yet the answer says which test failed and why, from pytest's output.
func TestPythonDebugTestFailureWithoutAStopIsAFailure(t *testing.T) {
	h, res := debugDeepTest(t, "test_parse_a_number")
	test := res.obj("test")
	if res.str("state") != "stopped" || test["failed"] != true || test["passed"] == true {
		t.Fatalf("a run that exits non-zero failed: %v", res)
	}
	if !strings.HasSuffix(test.str("name"), "::test_parse_a_number") || test.str("message") != "[XPASS(strict)] parse rejects words" {
		t.Errorf("the failing test's name and message, from pytest's output: %v", test)
	}

	file := pythonProgram(t, filepath.Join("tests", "test_deep.py"))
	// A name pytest cannot find ran nothing: not a failure of the code
	// (nor a pass), and the answer lists the tests there are.
	missing := h.ok("debug_test", map[string]any{"language": "python", "path": file, "name": "test_missing"}).obj("test")
	if missing["failed"] == true || missing["passed"] == true || missing["noneMatched"] != true ||
		missing.str("message") != `no test matched "test_missing"` || !strings.Contains(fmt.Sprint(missing["available"]), "test_parse_a_number") {
		t.Errorf("a test pytest cannot find: %v", missing)
	}
}

// A failed assertion's message is said once, and pytest's own variables
// and frames stay out of the answer.
func TestPythonDebugTestSaysTheAssertionOnce(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "python")
	file := pythonProgram(t, filepath.Join("tests", "test_cart.py"))
	res := h.ok("debug_test", map[string]any{"language": "python", "path": file})
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	wantNoRunnerInternals(t, res)
	text := string(raw)
	// pytest's rewritten assertion says "assert 30.0 == 40": the source
	// line, shown in the context, says "got == 40".
	if n := strings.Count(text, "assert 30.0 == 40"); n != 1 {
		t.Errorf("the assertion's message appears %d times in %d bytes: %s", n, len(text), text)
	}
	if m := res.obj("test").str("message"); !strings.Contains(m, "AssertionError: discounted total") || !strings.Contains(m, "assert 30.0 == 40") {
		t.Errorf("test.message keeps the assertion: %q", m)
	}
}

// wantNoRunnerInternals checks that an answer shows none of pytest's own
// locals or frames.
func wantNoRunnerInternals(t *testing.T, res result) {
	t.Helper()
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, internal := range []string{"@py_assert", "@py_format", "_pytest", "pluggy"} {
		if strings.Contains(string(raw), internal) {
			t.Errorf("the answer shows pytest's %s: %s", internal, raw)
		}
	}
}

// unittestProject copies testdata/python/unittestproject, a unittest
// suite whose tests import their package from the project's root.
func unittestProject(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(dir, os.DirFS(pythonProgram(t, "unittestproject"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A unittest suite runs with unittest from the project's root, where its
// tests import the package, whether the interpreter has pytest (it is not
// the project's runner) or not (the project's venv has none): the stop is
// the failing assertion, named as unittest names the test.
func TestPythonDebugTestRunsAUnittestSuiteFromTheProjectRoot(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	for _, venv := range []bool{false, true} {
		t.Run(fmt.Sprintf("venv=%v", venv), func(t *testing.T) {
			project := unittestProject(t)
			if venv {
				makeVenv(t, testenv.RequireTool(t, "apt-get install -y python3", "python3"), filepath.Join(project, ".venv"), nil)
			}
			h := newHarness(t)
			file := filepath.Join(project, "tests", "test_area.py")
			res := h.ok("debug_test", map[string]any{"language": "python", "path": file})
			test := res.obj("test")
			if test["failed"] != true || test.str("name") != "test_area.AreaTest.test_square" || test.str("runner") != "unittest" {
				t.Fatalf("debug_test runs unittest and names the failing test: %v\noutput: %s", test, res.outputText("output"))
			}
			if m := test.str("message"); !strings.Contains(m, "12 != 9 : square of three") {
				t.Errorf("the assertion's message: %q", m)
			}
			wantStop(t, res, "exception", 13)
			if l := res.vars("locals"); l["got"] != "12" || l["side"] != "3" {
				t.Errorf("the test's locals: %v", l)
			}
			passing := h.ok("debug_test", map[string]any{"language": "python", "path": file, "name": "test_rectangle"}).obj("test")
			if passing["passed"] != true || passing["failed"] == true {
				t.Errorf("the passing test alone passes: %v", passing)
			}
		})
	}
}

// The runner, the working directory and the environment can be chosen:
// pytest runs the unittest suite when asked, and the test sees the env.
func TestPythonDebugTestTakesRunnerCwdAndEnv(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	project := unittestProject(t)
	h := newHarness(t)
	python := pythonWithPytest(t)
	res := h.ok("debug_test", map[string]any{"language": "python", "path": filepath.Join(project, "tests"), "runner": "pytest",
		"executablePath": python, "cwd": project, "env": map[string]string{"SHAPES_MODE": "strict"}})
	test := res.obj("test")
	if test["failed"] != true || test.str("runner") != "pytest" || !strings.HasSuffix(test.str("name"), "AreaTest::test_square") {
		t.Fatalf("pytest runs the suite from cwd: %v\noutput: %s", test, res.outputText("output"))
	}
	wantStop(t, res, "exception", 13)
	id := res.str("sessionId")
	if ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": `__import__("os").environ.get("SHAPES_MODE")`}); ev.str("result") != "'strict'" {
		t.Errorf("the test sees env: %v", ev)
	}
	h.fail("debug_test", map[string]any{"language": "python", "path": project, "runner": "nose"}, "pytest or unittest")
}
