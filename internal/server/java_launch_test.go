package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// How start_debugging finds the main class of compiled classes, and how it
// reports a JVM that could not start the program (testdata/java/README.md).

func TestJavaLaunchesAPackagedClassFileByItsPath(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJava(t)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": javaSource(t, "src/com/example/App.java"), "line": 22})
	// The class is com.example.App: its file alone says so, and where the
	// class path starts.
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(classes, "com", "example", "App.class")})
	wantStop(t, snap, "breakpoint", 22)
	if f := snap.obj("location").str("function"); f != "App.main" {
		t.Errorf("function: %q", f)
	}
}

func TestJavaLaunchesAMainClassByName(t *testing.T) {
	classes := compileJava(t)
	for _, tc := range []struct {
		name  string
		start map[string]any
	}{
		{"with classPaths", map[string]any{"dapLaunchArgs": map[string]any{"classPaths": []string{classes}}}},
		{"from cwd", map[string]any{"cwd": classes}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor("java")
			h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": javaSource(t, "src/com/example/App.java"), "line": 22})
			start := map[string]any{"sessionId": id, "scriptPath": "com.example.App"}
			for k, v := range tc.start {
				start[k] = v
			}
			snap := h.ok("start_debugging", start)
			wantStop(t, snap, "breakpoint", 22)
			if l := snap.vars("locals"); l["greeting"] == "" || l["i"] != "0" {
				t.Errorf("locals: %v", l)
			}
		})
	}
}

func TestJavaLaunchThatCannotLoadTheMainClassFails(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	classes := compileJava(t)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": javaSource(t, "src/com/example/App.java"), "line": 22})
	// The package directory as class path: the JVM finds App.class but it
	// holds com.example.App, and the program never starts.
	out := h.fail("start_debugging", map[string]any{
		"sessionId":     id,
		"scriptPath":    filepath.Join(classes, "com", "example", "App.class"),
		"dapLaunchArgs": map[string]any{"mainClass": "App", "classPaths": []string{filepath.Join(classes, "com", "example")}},
	}, "NoClassDefFoundError")
	msg := out.str("error")
	if !strings.Contains(msg, "wrong name") || !strings.Contains(msg, "exit code 1") {
		t.Errorf("the error should carry the JVM's own words and its exit code: %q", msg)
	}
	if !strings.Contains(msg, `"classPaths"`) {
		t.Errorf("the error should say how to give the class path: %q", msg)
	}
	if out.str("state") != "error" {
		t.Errorf("a launch that failed leaves the session in error: %v", out)
	}
}

func TestJavaSourceThatDoesNotCompileFails(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	src := filepath.Join(t.TempDir(), "Broken.java")
	if err := os.WriteFile(src, []byte("class Broken {\n  public static void main(String[] args) {\n    int x = \"text\";\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": src}, "compilation failed")
	if msg := out.str("error"); !strings.Contains(msg, "Broken.java:3") || !strings.Contains(msg, "incompatible types") {
		t.Errorf("the error should carry javac's message and place: %q", msg)
	} else if strings.Contains(msg, "classPaths") {
		t.Errorf("class path advice does not fit a compile error: %q", msg)
	}
}
