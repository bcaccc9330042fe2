//go:build unix

package node

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// A Node whose bundled acorn cannot be loaded (a build without it, or
// one that refuses --expose-internals) cannot record: record says so and
// what to do, instead of reporting that the program wrote no recording.
func TestRecordRefusesANodeWithoutItsBundledAcorn(t *testing.T) {
	testenv.RequireAdapter(t, "javascript")
	real, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	// This node drops --expose-internals, the flag that makes
	// internal/deps/acorn loadable: to the recorder it is a Node without it.
	fake := filepath.Join(t.TempDir(), "node")
	script := "#!/bin/sh\nfor a; do shift; [ \"$a\" = --expose-internals ] || set -- \"$@\" \"$a\"; done\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	a, _ := adapter.Lookup("javascript")
	out := new(bytes.Buffer)
	_, err = a.(adapter.Recorder).Record(t.Context(), adapter.RecordConfig{
		Program: recordTestdata("cart.js"), Cwd: recordTestdata(""), ExecutablePath: fake,
		EventsFile: filepath.Join(t.TempDir(), "events.jsonl"), Output: out,
	})
	if err == nil || !strings.Contains(err.Error(), "acorn") || !strings.Contains(err.Error(), "executablePath") {
		t.Fatalf("want an error naming the missing acorn and what to do, got %v (output %q)", err, out)
	}
	if out.Len() > 0 {
		t.Errorf("the program ran anyway: %q", out)
	}
}
