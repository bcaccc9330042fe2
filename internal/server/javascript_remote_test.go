package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// remoteOnlyJS is a module only the program's copy has.
const remoteOnlyJS = "'use strict';\n\nfunction check(n) {\n  const limit = n - 1;\n  throw new RangeError(`too many: ${n} > ${limit}`);\n}\n\nmodule.exports = { check };\n"

// Node on another root (a container's, here a mount namespace's
// /mnt/app) waits under --inspect-brk on every interface; the agent's copy
// is elsewhere and attaches with pathMappings.
func TestJavaScriptAttachAcrossAMountBoundary(t *testing.T) {
	h := newHarness(t)
	node := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	rp := newRemoteProgram(t, nodeProgram(t, "remote"), map[string]string{"remote_only.js": remoteOnlyJS})
	_, ready := rp.start(t, "Debugger listening on", node, "--inspect-brk=0.0.0.0:0", "app.js")
	port := regexp.MustCompile(`ws://0\.0\.0\.0:(\d+)/`).FindStringSubmatch(ready)[1]
	id := h.sessionFor("javascript")
	app := rp.local("app.js")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 9})

	hit := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port,
		"pathMappings": rp.mappings(), "waitForStop": true, "timeout": 60000})
	wantStop(t, hit, "breakpoint", 9)
	if hit.stopFile(t) != app || !strings.Contains(hit.obj("context").str("lineContent"), "s += x") {
		t.Fatalf("the stop shows the agent's path and its line: location %v context %v", hit["location"], hit["context"])
	}
	if hit.obj("location")["remote"] != nil {
		t.Errorf("a file the agent has is not remote: %v", hit["location"])
	}
	step := h.ok("step_over", map[string]any{"sessionId": id})
	if step.stopFile(t) != app || step.obj("location").num("line") != 8 {
		t.Errorf("a step shows the agent's path: %v", step["location"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})

	raised := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	wantStop(t, raised, "exception", 5)
	loc := raised.obj("location")
	if loc.str("file") != remoteRoot+"/remote_only.js" || loc["remote"] != true {
		t.Errorf("a stop in a file only the program has keeps its path and is marked remote: %v", loc)
	}
	if !strings.Contains(raised.obj("context").str("lineContent"), "throw new RangeError") {
		t.Errorf("the remote file's lines come from the adapter: %v %v", loc, raised["context"])
	}
	src := h.ok("get_source_context", map[string]any{"sessionId": id, "file": remoteRoot + "/remote_only.js", "line": 4, "linesContext": 1})
	if src.str("lineContent") != "  const limit = n - 1;" || src["remote"] != true {
		t.Errorf("get_source_context on the remote file: %v", src)
	}
}
