package server

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// remoteOnlyPython is a module only the program's copy has.
const remoteOnlyPython = "def check(n):\n    limit = n - 1\n    raise ValueError(\"too many: %d > %d\" % (n, limit))\n"

// The reference users' scenario: debugpy in a container whose files are at
// /app (here /mnt/app in a mount namespace), the agent's copy elsewhere,
// one attach_to_process call with pathMappings.
func TestPythonAttachAcrossAMountBoundary(t *testing.T) {
	h := newHarness(t)
	av := testenv.RequireAdapter(t, "python")
	rp := newRemoteProgram(t, pythonProgram(t, "remote"), map[string]string{"remote_only.py": remoteOnlyPython})
	port := freePort(t)
	rp.start(t, "", av.Path, "-u", "-m", "debugpy", "--listen", "127.0.0.1:"+strconv.Itoa(port), "--wait-for-client", "app.py")
	id := h.sessionFor("python")
	app := rp.local("app.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 7})

	hit := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port,
		"pathMappings": rp.mappings(), "breakOnExceptions": "all", "waitForStop": true, "timeout": 60000})
	wantStop(t, hit, "breakpoint", 7)
	if hit.stopFile(t) != app || !strings.Contains(hit.obj("context").str("lineContent"), "s += x") {
		t.Fatalf("the stop shows the agent's path and its line: location %v context %v", hit["location"], hit["context"])
	}
	if hit.obj("location")["remote"] != nil {
		t.Errorf("a file the agent has is not remote: %v", hit["location"])
	}
	step := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, step, "step", 6)
	if step.stopFile(t) != app {
		t.Errorf("a step shows the agent's path: %v", step["location"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})

	raised := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	wantStop(t, raised, "exception", 3)
	loc := raised.obj("location")
	if loc.str("file") != remoteRoot+"/remote_only.py" || loc["remote"] != true {
		t.Errorf("a stop in a file only the program has keeps its path and is marked remote: %v", loc)
	}
	if !strings.Contains(raised.obj("context").str("lineContent"), "raise ValueError") {
		t.Errorf("the remote file's lines come from the adapter: %v", raised["context"])
	}
	src := h.ok("get_source_context", map[string]any{"sessionId": id, "file": remoteRoot + "/remote_only.py", "line": 2, "linesContext": 1})
	if src.str("lineContent") != "    limit = n - 1" || src["remote"] != true {
		t.Errorf("get_source_context on the remote file: %v", src)
	}

	// breakOnExceptions all: debugpy stops again where the exception
	// enters the caller, in the agent's file.
	caller := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	wantStop(t, caller, "exception", 14)
	if caller.stopFile(t) != app || !strings.Contains(caller.obj("context").str("lineContent"), "remote_only.check(3)") {
		t.Errorf("the exception stop in the agent's file shows its path and line: %v %v", caller["location"], caller["context"])
	}
	if trace := caller.obj("exception").str("stackTrace"); trace != "" && strings.Contains(trace, remoteRoot+"/app.py") {
		t.Errorf("the exception's stack trace names the agent's copy of app.py: %s", trace)
	}
}

// A mapping that names the wrong root: the breakpoint's path is one the
// program never loaded, and the answers say so, with paths it did load.
func TestPythonWrongMappingSaysWhatTheProgramLoaded(t *testing.T) {
	h := newHarness(t)
	av := testenv.RequireAdapter(t, "python")
	rp := newRemoteProgram(t, pythonProgram(t, "remote"), map[string]string{"remote_only.py": remoteOnlyPython})
	port := freePort(t)
	rp.start(t, "", av.Path, "-u", "-m", "debugpy", "--listen", "127.0.0.1:"+strconv.Itoa(port), "--wait-for-client", "app.py")
	id := h.sessionFor("python")
	app := rp.local("app.py")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 7})
	wrong := []map[string]any{{"localRoot": rp.Local, "remoteRoot": "/srv/wrong"}}
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "pathMappings": wrong})
	warning := att.str("warning")
	if !strings.Contains(warning, "/srv/wrong/app.py") || !strings.Contains(warning, "matched nothing the program loaded") || !strings.Contains(warning, remoteRoot+"/app.py") {
		t.Errorf("the attach's answer names the unbound breakpoint's path and paths the program loaded: %q", warning)
	}
	again := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 8})
	if again["verified"] != false || !strings.Contains(again.str("message")+again.str("warning"), remoteRoot+"/app.py") {
		t.Errorf("set_breakpoint's answer says the same: %v", again)
	}
}
