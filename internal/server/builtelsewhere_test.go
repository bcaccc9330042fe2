package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// A binary built in another directory names that directory's sources: a
// breakpoint on the agent's copy of the same file, with no pathMappings,
// binds and stops all the same, and the answer names the mapping made.
// Built in a directory since removed (movedSources), or with its paths
// remapped or trimmed by the build itself.
func TestBinaryBuiltElsewhereStopsOnTheAgentsCopy(t *testing.T) {
	rows := []struct {
		name, language, dir, binary, file string
		line                              int
		// tool is what the build needs (skipped without it), build its
		// command, run in the build's directory.
		tool  string
		build []string
		// builtIn is the directory the binary names, "" for the build's.
		builtIn string
	}{
		{name: "c moved", language: "c", dir: nativeProgram(t, "c"), binary: "prog", file: "loop.c", line: 40,
			tool: "cc", build: []string{"cc", "-g", "-O0", "-o", "prog", "loop.c"}},
		{name: "c debug-prefix-map", language: "c", dir: nativeProgram(t, "c"), binary: "prog", file: "loop.c", line: 40,
			tool: "cc", build: []string{"sh", "-c", `cc -g -O0 -fdebug-prefix-map="$PWD"=/build/c -o prog loop.c`}, builtIn: "/build/c"},
		{name: "cpp moved", language: "cpp", dir: nativeProgram(t, "cpp"), binary: "prog", file: "shapes.cpp", line: 13,
			tool: "c++", build: []string{"c++", "-g", "-O0", "-o", "prog", "shapes.cpp"}},
		{name: "rust remap-path-prefix", language: "rust", dir: nativeProgram(t, "rust"), binary: "prog", file: "src/main.rs", line: 18,
			tool: "rustc", build: []string{"sh", "-c", `rustc --crate-name loop_rust -g -C opt-level=0 --remap-path-prefix="$PWD"=/build/rust -o prog src/main.rs`}, builtIn: "/build/rust"},
		{name: "go moved", language: "go", dir: goProgram(t, "loop"), binary: "loop", file: "main.go", line: 27,
			tool: "go", build: []string{"go", "build", "-gcflags=all=-N -l", "-o", "loop", "."}},
		{name: "go trimpath", language: "go", dir: goProgram(t, "loop"), binary: "loop", file: "main.go", line: 27,
			tool: "go", build: []string{"go", "build", "-trimpath", "-gcflags=all=-N -l", "-o", "loop", "."}, builtIn: "example.com/loop"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			testenv.RequireTool(t, "install "+row.tool, row.tool)
			id := h.sessionFor(row.language)
			built, bin, copy := movedSources(t, row.dir, row.binary, row.build...)
			if row.builtIn != "" {
				built = row.builtIn
			}
			src := filepath.Join(copy, filepath.FromSlash(row.file))
			h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": row.line})
			snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": bin})
			wantStop(t, snap, "breakpoint", row.line)
			if snap.stopFile(t) != src {
				t.Errorf("the stop shows the agent's copy %s: %v", src, snap["location"])
			}
			if note := snap.str("pathNote"); !strings.Contains(note, "built in "+built+": mapped it to "+copy) {
				t.Errorf("the answer names the mapping from %s to %s: pathNote %q", built, copy, note)
			}
		})
	}
}

// A copy that is not the source the binary was built from is not mapped:
// the unbound breakpoint says which path the program expects and the
// pathMappings that would map it.
func TestBinaryBuiltElsewhereFromAnotherSourceSaysWhatToMap(t *testing.T) {
	h := newHarness(t)
	cc := testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	id := h.sessionFor("c")
	built, bin, copy := movedSources(t, nativeProgram(t, "c"), "prog", cc, "-g", "-O0", "-o", "prog", "loop.c")
	src := filepath.Join(copy, "loop.c")
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// Edited since the build: every line of code moved down by ten.
	if err := os.WriteFile(src, append([]byte(strings.Repeat("\n", 10)), text...), 0o644); err != nil {
		t.Fatal(err)
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 50})
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": bin})
	if end.str("state") == "paused" || end.str("pathNote") != "" {
		t.Fatalf("an edited copy is not mapped: %v", end)
	}
	want := `pass pathMappings [{localRoot: "` + copy + `", remoteRoot: "` + built + `"}]`
	if w := end.str("warning"); !strings.Contains(w, "expects "+filepath.Join(built, "loop.c")) || !strings.Contains(w, want) {
		t.Errorf("the warning names the path the program expects and the mapping: %q", w)
	}
}
