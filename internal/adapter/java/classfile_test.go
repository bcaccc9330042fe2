package java

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// compileApp compiles testdata's com.example classes into a temp directory.
func compileApp(t *testing.T) string {
	t.Helper()
	javac := testenv.RequireTool(t, installHint(platform.Linux), "javac")
	out := t.TempDir()
	srcs, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "java", "src", "com", "example", "*.java"))
	if b, err := exec.Command(javac, append([]string{"-d", out}, srcs...)...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	return out
}

func TestClassFileRunsAsTheClassItDefines(t *testing.T) {
	classes := compileApp(t)
	lc := &launchConfig{Program: filepath.Join(classes, "com", "example", "App.class"), JavaPath: "java"}
	if err := lc.resolveMain(); err != nil {
		t.Fatal(err)
	}
	if lc.MainClass != "com.example.App" || !slices.Equal(lc.ClassPaths, []string{classes}) {
		t.Fatalf("main class %q from class path %v", lc.MainClass, lc.ClassPaths)
	}
	if cmd := strings.Join(lc.command(), " "); !strings.HasSuffix(cmd, " -cp "+classes+" com.example.App") {
		t.Errorf("command: %s", cmd)
	}
}

func TestClassFileOutsideItsPackageDirectoryIsRefused(t *testing.T) {
	classes := compileApp(t)
	moved := filepath.Join(t.TempDir(), "App.class")
	b, err := os.ReadFile(filepath.Join(classes, "com", "example", "App.class"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(moved, b, 0o644); err != nil {
		t.Fatal(err)
	}
	lc := &launchConfig{Program: moved, JavaPath: "java"}
	err = lc.resolveMain()
	if err == nil || !strings.Contains(err.Error(), "com.example.App") || !strings.Contains(err.Error(), filepath.FromSlash("com/example")) {
		t.Fatalf("want an error naming the class and its package directory, got %v", err)
	}
}

func TestClassNamesAreTakenOnlyWhereNoFileIs(t *testing.T) {
	dir := t.TempDir()
	for program, want := range map[string]bool{
		filepath.Join(dir, "com.example.App"): true,
		filepath.Join(dir, "Main"):            true,
		filepath.Join(dir, "Missing.java"):    false,
		filepath.Join(dir, "Missing.class"):   false,
		filepath.Join(dir, "app-1.0"):         false,
		dir:                                   false,
	} {
		if got := namesClass(program); got != want {
			t.Errorf("namesClass(%s) = %v, want %v", program, got, want)
		}
	}
}
