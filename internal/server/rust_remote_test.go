//go:build unix

package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// A Rust program built and run on another root (a mount namespace's
// /mnt/app) under lldb-server, attached to with pathMappings and the
// agent's copy of the binary: a breakpoint on the agent's main.rs hits
// there, with the toolchain's formatters, a step, and a panic stops at
// the panic! line in the agent's file.
func TestRustAttachAcrossAMountBoundary(t *testing.T) {
	h := newHarness(t)
	rustc := testenv.RequireTool(t, "rustup or apt-get install -y rustc", "rustc")
	src := t.TempDir()
	if err := os.CopyFS(filepath.Join(src, "src"), os.DirFS(nativeProgram(t, "rust", "src"))); err != nil {
		t.Fatal(err)
	}
	rp := newRemoteProgram(t, src, nil)
	rp.run(t, rustc, "--crate-name", "loop_rust", "-g", "-C", "opt-level=0", "-o", "prog", "src/main.rs")
	port := lldbServerInNamespace(t, rp, "./prog", "panic")
	id := h.sessionFor("rust")
	main := rp.local("src/main.rs")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": main, "line": 7})

	hit := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port,
		"pathMappings": rp.mappings(), "adapterConfig": map[string]any{"program": rp.Remote + "/prog"},
		"waitForStop": true, "timeout": 60000})
	wantStop(t, hit, "breakpoint", 7)
	if hit.stopFile(t) != main || !strings.Contains(hit.obj("context").str("lineContent"), "item * factor") {
		t.Fatalf("the stop shows the agent's path and its line: location %v context %v", hit["location"], hit["context"])
	}
	if loc := hit.obj("location"); loc.str("function") != "loop_rust::weigh" || loc["remote"] != nil {
		t.Errorf("frame name, and not remote: %v", loc)
	}
	step := h.ok("step_over", map[string]any{"sessionId": id})
	if step.str("stopReason") != "step" || step.stopFile(t) != main {
		t.Errorf("a step shows the agent's path: %v", step["location"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	panicked := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	if panicked.str("stopReason") != "exception" || !strings.Contains(panicked.str("description"), "panic") {
		t.Fatalf("a panic stops as an exception: %v", panicked)
	}
	if panicked.stopFile(t) != main || panicked.obj("location").num("line") != 21 {
		t.Errorf("the panic's stop at the panic! line in the agent's file: %v", panicked["location"])
	}
}
