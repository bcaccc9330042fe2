package node

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// Differences between Node versions that the adapter absorbs, with the
// inspector's own messages as measured (Node 20.20.2 / V8 11.3, Node
// 22.23.3 / V8 12.4). make test-matrix runs the integration tests under
// both.

func TestPauseReasonAcrossV8Versions(t *testing.T) {
	hit := []string{"4:5:11:78"}
	for _, tc := range []struct {
		name   string
		pause  cdp.Paused
		reason string
	}{
		{"node 20: a step ends", cdp.Paused{Reason: "other"}, "other"},
		{"node 22: a step ends", cdp.Paused{Reason: "step"}, "other"},
		{"node 20: a step meets a breakpoint", cdp.Paused{Reason: "other", HitBreakpoints: hit}, "other"},
		{"node 22: a step meets a breakpoint", cdp.Paused{Reason: "ambiguous", HitBreakpoints: hit,
			Data: json.RawMessage(`{"reasons":[{"reason":"step"},{"reason":"other"}]}`)}, "other"},
		{"a breakpoint on the first line", cdp.Paused{Reason: "ambiguous", HitBreakpoints: hit,
			Data: json.RawMessage(`{"reasons":[{"reason":"other"},{"reason":"Break on start"}]}`)}, "Break on start"},
		{"a step meets a throw", cdp.Paused{Reason: "ambiguous",
			Data: json.RawMessage(`{"reasons":[{"reason":"step"},{"reason":"exception","auxData":{"type":"object"}}]}`)}, "exception"},
	} {
		if got, _ := pauseReason(tc.pause); got != tc.reason {
			t.Errorf("%s: reason %q, want %q", tc.name, got, tc.reason)
		}
	}
}

func TestInspectorHelpLineIsNoise(t *testing.T) {
	for _, line := range []string{
		"For help, see: https://nodejs.org/en/docs/inspector\n",                 // Node 20
		"For help, see: https://nodejs.org/learn/getting-started/debugging\r\n", // Node 22
	} {
		if !isNoise(line) {
			t.Errorf("%q should be dropped from the program's output", line)
		}
	}
	if isNoise("For help, see my README\n") {
		t.Error("a program's own line was dropped")
	}
}

// TestTypeScriptBindsAsWritten: under Node's type stripping a .ts file is
// the script itself, so its breakpoints bind by its own lines; compiled (or
// run by a loader such as tsx) it binds through source maps.
func TestTypeScriptBindsAsWritten(t *testing.T) {
	compiled := &server{}
	stripped := &server{stripsTypes: true}
	for _, tc := range []struct {
		s    *server
		path string
		want bool
	}{
		{compiled, "/p/app.js", true},
		{compiled, "/p/app.ts", false},
		{stripped, "/p/app.ts", true},
		{stripped, "/p/app.mts", true},
		{stripped, "/p/app.coffee", false},
	} {
		if got := tc.s.runsAsWritten(tc.path); got != tc.want {
			t.Errorf("stripsTypes=%v %s: runsAsWritten %v, want %v", tc.s.stripsTypes, tc.path, got, tc.want)
		}
	}
	for opts, want := range map[string]bool{
		"--import tsx":                       true,
		"--import=tsx":                       true,
		"-r ts-node/register":                true,
		"--loader ts-node/esm":               true,
		"--max-old-space-size=4096":          false,
		"--enable-source-maps --no-warnings": false,
	} {
		if got := hasLoader(strings.Fields(opts)); got != want {
			t.Errorf("hasLoader(%q) = %v, want %v", opts, got, want)
		}
	}
}

// TestNoOSRUnderNode22: Node 22 gets --no-use-osr, so that a pause
// reaches a loop in a script's top-level code; other versions need
// nothing.
func TestNoOSRUnderNode22(t *testing.T) {
	for version, want := range map[string]string{"v20.20.2": "", "v22.23.3": "--no-use-osr", "v22.12.0": "--no-use-osr", "v24.21.0": ""} {
		node := filepath.Join(t.TempDir(), "node")
		if err := os.WriteFile(node, []byte("#!/bin/sh\necho "+version+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(launchFlags(node), " "); got != want {
			t.Errorf("node %s: flags %q, want %q", version, got, want)
		}
	}
}
