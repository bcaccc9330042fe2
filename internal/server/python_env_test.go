package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// venvProject copies testdata/pyvenvproject and makes the copy's .venv as
// a user would (python -m venv, python3 on PATH unless python is given),
// with greeting importable only through the venv (see the folder's
// README.md).
func venvProject(t *testing.T, python string, venvFlags ...string) string {
	t.Helper()
	testenv.RequireAdapter(t, "python")
	if python == "" {
		python = testenv.RequireTool(t, "apt-get install -y python3", "python3")
	}
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(repoRoot(t), "testdata", "pyvenvproject"))); err != nil {
		t.Fatal(err)
	}
	makeVenv(t, python, filepath.Join(dir, ".venv"), venvFlags, filepath.Join(dir, "localpkg"))
	return dir
}

// makeVenv creates, with python, a virtualenv without pip at dir whose
// interpreter also imports from each of paths (a .pth file in its
// site-packages), and returns that interpreter.
func makeVenv(t *testing.T, python, dir string, venvFlags []string, paths ...string) string {
	t.Helper()
	args := append([]string{"-m", "venv", "--without-pip"}, venvFlags...)
	if out, err := exec.Command(python, append(args, dir)...).CombinedOutput(); err != nil {
		t.Fatalf("%s -m venv %s: %v: %s", python, dir, err, out)
	}
	sites, _ := filepath.Glob(filepath.Join(dir, "lib", "python3*", "site-packages"))
	if len(sites) != 1 {
		t.Fatalf("the venv's site-packages: %v", sites)
	}
	pth := strings.Join(paths, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(sites[0], "project.pth"), []byte(pth), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "bin", "python")
}

// pythonWithPytest is an interpreter of this machine that imports
// pytest, for a venv that sees its packages (--system-site-packages): the
// venv has no pip to install pytest with, and no network.
func pythonWithPytest(t *testing.T) string {
	t.Helper()
	for _, python := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(python, "-c", "import pytest").Run() == nil {
			return python
		}
	}
	msg := "pytest not importable by python3; install with: apt-get install -y python3-pytest"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// A project's .venv runs its program, with no executablePath: the module
// only the venv can import is found, and the answer says which
// interpreter ran it and why.
func TestPythonRunsTheProjectVenv(t *testing.T) {
	project := venvProject(t, "")
	h := newHarness(t)
	app := filepath.Join(project, "src", "app.py")

	end := h.ok("start_debugging", map[string]any{"sessionId": h.sessionFor("python"), "scriptPath": app})
	out := end.outputText("output")
	venvPython := filepath.Join(project, ".venv", "bin", "python")
	if end.str("state") != "stopped" || end.num("exitCode") != 0 || !strings.Contains(out, "interpreter "+venvPython+"\n") || !strings.Contains(out, "hello, venv") {
		t.Fatalf("the program ran under %s, importing greeting: state=%s exitCode=%v output=%q", venvPython, end.str("state"), end["exitCode"], out)
	}
	if rt := end.obj("data").str("runtime"); !strings.HasPrefix(rt, "python: "+venvPython+" (project venv, Python 3.") {
		t.Errorf("data.runtime names the venv's interpreter and why: %q", rt)
	}
}

// An activated virtualenv (VIRTUAL_ENV in the server's environment) comes
// before the project's own .venv.
func TestPythonVirtualEnvBeforeTheProjectVenv(t *testing.T) {
	project := venvProject(t, "")
	active := filepath.Join(t.TempDir(), "active")
	activePython := makeVenv(t, testenv.RequireTool(t, "apt-get install -y python3", "python3"), active, nil, filepath.Join(project, "localpkg"))
	t.Setenv("VIRTUAL_ENV", active)
	h := newHarness(t)
	id := h.sessionFor("python")
	app := filepath.Join(project, "src", "app.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 5})

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": app})
	wantStop(t, snap, "breakpoint", 5)
	if rt := snap.obj("data").str("runtime"); !strings.HasPrefix(rt, "python: "+activePython+" (VIRTUAL_ENV, ") {
		t.Errorf("data.runtime names the activated venv: %q", rt)
	}
	ev := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "sys.executable"})
	if got := ev.str("result"); got != "'"+activePython+"'" {
		t.Errorf("sys.executable = %s, want the activated venv's %s", got, activePython)
	}
}

// debug_test runs the project venv's pytest: the test imports a module
// only the venv has, and fails at its own assertion, not at collection.
func TestPythonDebugTestRunsTheProjectVenvPytest(t *testing.T) {
	project := venvProject(t, pythonWithPytest(t), "--system-site-packages")
	h := newHarness(t)
	file := filepath.Join(project, "tests", "test_greeting.py")

	res := h.ok("debug_test", map[string]any{"language": "python", "path": file})
	test := res.obj("test")
	if test["failed"] != true || !strings.HasSuffix(test.str("name"), "::test_greets_by_name") || !strings.HasPrefix(test.str("message"), "AssertionError") {
		t.Fatalf("the test fails at its assertion: %v", test)
	}
	wantStop(t, res, "exception", 6)
	if l := res.vars("locals"); l["said"] != "'hello, pytest'" {
		t.Errorf("the test's locals: %v", l)
	}
	// The tests run from the project's root: the runtime line names the
	// venv's interpreter relative to it.
	if rt := test.str("runtime"); !strings.HasPrefix(rt, "python: .venv/bin/python (project venv, ") {
		t.Errorf("test.runtime names the venv's interpreter: %q", rt)
	}
}

// A project venv without pytest is where the tests must run (another
// interpreter's pytest would not import the project): debug_test says so
// and how to install it there.
func TestPythonDebugTestAsksForPytestInTheProjectVenv(t *testing.T) {
	project := venvProject(t, "")
	h := newHarness(t)
	venvPython := filepath.Join(project, ".venv", "bin", "python")
	out := h.fail("debug_test", map[string]any{"language": "python", "path": filepath.Join(project, "tests")},
		"pytest cannot be imported by "+venvPython+" (project venv)")
	if hint := out.str("hint"); !strings.Contains(hint, venvPython+" -m pip install pytest") {
		t.Errorf("the hint installs pytest into the venv: %q", hint)
	}
}
