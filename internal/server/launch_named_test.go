package server

import (
	"os"
	"path/filepath"
	"testing"
)

// Programs named by the launch arguments, with no scriptPath: a Python
// module (python -m unittest …) and a JVM main class.

func TestPythonLaunchesAModuleWithoutScriptPath(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	dir := t.TempDir()
	files := map[string]string{
		"calc.py": "def add(a, b):\n    return a + b\n",
		"test_calc.py": `import unittest
from calc import add


class TestAdd(unittest.TestCase):
    def test_add(self):
        got = add(2, 3)
        self.assertEqual(got, 5)
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": filepath.Join(dir, "test_calc.py"), "line": 8})
	snap := h.ok("start_debugging", map[string]any{
		"sessionId":     id,
		"cwd":           dir,
		"args":          []string{"test_calc"},
		"dapLaunchArgs": map[string]any{"module": "unittest"},
	})
	wantStop(t, snap, "breakpoint", 8)
	if got := snap.vars("locals")["got"]; got != "5" {
		t.Errorf("got = %q, want 5: %v", got, snap)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Errorf("the test passes and unittest ends with 0: %v", end)
	}
	h.fail("start_debugging", map[string]any{"sessionId": h.sessionFor("python")}, "scriptPath")
}

func TestJavaLaunchesAMainClassWithoutScriptPath(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJavaFile(t, "Lines.java")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": javaSource(t, "Lines.java"), "line": 21})
	snap := h.ok("start_debugging", map[string]any{
		"sessionId":     id,
		"dapLaunchArgs": map[string]any{"mainClass": "Lines", "classPaths": []string{classes}},
	})
	wantStop(t, snap, "breakpoint", 21)
	if i := snap.vars("locals")["i"]; i != "0" {
		t.Errorf("i = %q, want 0: %v", i, snap)
	}
}
