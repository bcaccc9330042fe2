package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// remoteOnlyGo is a file only the program's copy has.
const remoteOnlyGo = "package main\n\nfunc limit(n int) int {\n\treturn n - 1\n}\n"

// A headless dlv on another root (a container's, here a mount namespace's
// /mnt/app) holds a binary built there, whose debug information names
// /mnt/app files; the agent's copy is elsewhere.
func TestGoAttachAcrossAMountBoundary(t *testing.T) {
	h := newHarness(t)
	av := testenv.RequireAdapter(t, "go")
	gobin := testenv.RequireTool(t, "install Go from go.dev/dl", "go")
	rp := newRemoteProgram(t, goProgram(t, "remote"), map[string]string{"limit.go": remoteOnlyGo})
	rp.run(t, gobin, "build", "-gcflags=all=-N -l", "-o", "prog", ".")
	_, ready := rp.start(t, "API server listening at:", av.Path, "exec", "--headless", "--accept-multiclient", "--api-version", "2",
		"--check-go-version=false", "--listen", "127.0.0.1:0", "./prog")
	port := listeningPort(t, ready)
	id := h.sessionFor("go")
	main := rp.local("main.go")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": main, "line": 10})

	hit := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port,
		"pathMappings": rp.mappings(), "waitForStop": true, "timeout": 60000})
	wantStop(t, hit, "breakpoint", 10)
	if hit.stopFile(t) != main || !strings.Contains(hit.obj("context").str("lineContent"), "s += x") {
		t.Fatalf("the stop shows the agent's path and its line: location %v context %v", hit["location"], hit["context"])
	}
	step := h.ok("step_over", map[string]any{"sessionId": id})
	if step.stopFile(t) != main || step.obj("location").num("line") != 9 {
		t.Errorf("a step shows the agent's path: %v", step["location"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": main, "line": 18})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000}), "breakpoint", 18)

	into := h.ok("step_into", map[string]any{"sessionId": id})
	loc := into.obj("location")
	if loc.str("file") != remoteRoot+"/limit.go" || loc["remote"] != true {
		t.Errorf("a stop in a file only the program has keeps its path and is marked remote: %v", loc)
	}
	if into["context"] != nil || !strings.Contains(loc.str("sourceNote"), "no copy here") {
		t.Errorf("Delve serves no source: the answer says so and shows no lines: %v %v", loc, into["context"])
	}

	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	panicked := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	wantStop(t, panicked, "exception", 19)
	if panicked.stopFile(t) != main || !strings.Contains(panicked.obj("context").str("lineContent"), "panic(") {
		t.Errorf("the panic stop shows the agent's path and line: %v %v", panicked["location"], panicked["context"])
	}
}

// listeningPort reads the port a headless dlv prints it listens on.
func listeningPort(t *testing.T, output string) string {
	t.Helper()
	m := regexp.MustCompile(`API server listening at: [^\s]*:(\d+)`).FindStringSubmatch(output)
	if m == nil {
		t.Fatalf("no listening address in %q", output)
	}
	return m[1]
}

// A mapping that names the wrong root, on Delve, which has neither
// loadedSources nor modules: the paths it loaded come from the stack.
func TestGoWrongMappingSaysWhatTheProgramLoaded(t *testing.T) {
	h := newHarness(t)
	av := testenv.RequireAdapter(t, "go")
	gobin := testenv.RequireTool(t, "install Go from go.dev/dl", "go")
	rp := newRemoteProgram(t, goProgram(t, "remote"), map[string]string{"limit.go": remoteOnlyGo})
	rp.run(t, gobin, "build", "-gcflags=all=-N -l", "-o", "prog", ".")
	_, ready := rp.start(t, "API server listening at:", av.Path, "exec", "--headless", "--accept-multiclient", "--api-version", "2",
		"--check-go-version=false", "--listen", "127.0.0.1:0", "./prog")
	id := h.sessionFor("go")
	main := rp.local("main.go")
	wrong := []map[string]any{{"localRoot": rp.Local, "remoteRoot": "/srv/wrong"}}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": main, "line": 10})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": listeningPort(t, ready), "pathMappings": wrong})
	if warning := att.str("warning"); !strings.Contains(warning, "/srv/wrong/main.go") || !strings.Contains(warning, "matched nothing the program loaded") {
		t.Errorf("the attach's answer names the unbound breakpoint's path: %q", warning)
	}
	// Stopped in the program's own code, its path is one the program loaded.
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "function": "main.total"})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000}), "function breakpoint", 7)
	again := h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": main, "line": 10})
	if again["verified"] != false || !strings.Contains(again.str("warning"), remoteRoot+"/main.go") {
		t.Errorf("set_breakpoint's answer names paths the program loaded: %v", again)
	}
}
