package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// movedSources builds dir's program with build (run in a copy at A, the
// build's directory), then removes A's sources, keeping only the binary:
// its debug information names A's files, which no longer exist. It returns
// A, the binary, and B, the agent's copy of the sources.
func movedSources(t *testing.T, dir, binary string, build ...string) (a, bin, b string) {
	t.Helper()
	a, b = t.TempDir(), t.TempDir()
	for _, to := range []string{a, b} {
		if err := os.CopyFS(to, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(build[0], build[1:]...)
	cmd.Dir = a
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(build, " "), err, out)
	}
	bin = filepath.Join(t.TempDir(), filepath.Base(binary))
	if err := os.Rename(filepath.Join(a, binary), bin); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(a); err != nil {
		t.Fatal(err)
	}
	return a, bin, b
}

// A Go binary built elsewhere (its sources since moved) is started with
// pathMappings from the build's directory to the agent's copy: a
// breakpoint on the copy binds and hits, and the stop shows the copy.
func TestGoStartWithPathMappingsForABinaryBuiltElsewhere(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "go")
	gobin := testenv.RequireTool(t, "install Go from go.dev/dl", "go")
	built, bin, copy := movedSources(t, goProgram(t, "loop"), "loop", gobin, "build", "-gcflags=all=-N -l", "-o", "loop", ".")
	id := h.sessionFor("go")
	src := filepath.Join(copy, "main.go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 27})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": bin,
		"pathMappings": []map[string]any{{"localRoot": copy, "remoteRoot": built}}})
	wantStop(t, snap, "breakpoint", 27)
	if snap.stopFile(t) != src || !strings.Contains(snap.obj("context").str("lineContent"), "weigh(i, 3)") || snap.obj("location")["remote"] != nil {
		t.Fatalf("the stop shows the agent's copy and its line: %v %v", snap["location"], snap["context"])
	}
	step := h.ok("step_over", map[string]any{"sessionId": id})
	if step.stopFile(t) != src {
		t.Errorf("a step shows the agent's copy: %v", step["location"])
	}
}

// The same for a C binary under lldb-dap.
func TestCStartWithPathMappingsForABinaryBuiltElsewhere(t *testing.T) {
	h := newHarness(t)
	cc := testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	built, bin, copy := movedSources(t, nativeProgram(t, "c"), "prog", cc, "-g", "-O0", "-o", "prog", "loop.c")
	id := h.sessionFor("c")
	src := filepath.Join(copy, "loop.c")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 40})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": bin,
		"pathMappings": []map[string]any{{"localRoot": copy, "remoteRoot": built}}})
	wantStop(t, snap, "breakpoint", 40)
	if snap.stopFile(t) != src || !strings.Contains(snap.obj("context").str("lineContent"), "weigh(i, 3)") || snap.obj("location")["remote"] != nil {
		t.Fatalf("the stop shows the agent's copy and its line: %v %v", snap["location"], snap["context"])
	}
	step := h.ok("step_over", map[string]any{"sessionId": id})
	if step.stopFile(t) != src {
		t.Errorf("a step shows the agent's copy: %v", step["location"])
	}
}
