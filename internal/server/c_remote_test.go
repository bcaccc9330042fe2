//go:build unix

package server

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// remoteOnlyC is a file only the program's copy has: its line 3 reads
// through a null pointer.
const remoteOnlyC = "int limit(int n) {\n\tint *cap = 0;\n\treturn n - *cap;\n}\n"

// lldbServerInNamespace starts `lldb-server gdbserver 127.0.0.1:0 --
// argv…` in the program's namespace and returns the port it listens on,
// which it writes to the pipe given by --pipe once it listens.
func lldbServerInNamespace(t *testing.T, rp *remoteProgram, argv ...string) int {
	t.Helper()
	_, port := startLLDBServer(t, func(argv []string) *exec.Cmd { return rp.inNamespace(argv...) },
		append([]string{"127.0.0.1:0", "--"}, argv...)...)
	return port
}

// cProgramUnderStub builds testdata/native/c/remote at the namespace's
// root, runs it under lldb-server there, and gives a C session with a
// breakpoint on the agent's copy of app.c:10.
func cProgramUnderStub(t *testing.T, h *harness) (rp *remoteProgram, port int, id string) {
	cc := testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	rp = newRemoteProgram(t, nativeProgram(t, "c", "remote"), map[string]string{"remote_only.c": remoteOnlyC})
	rp.run(t, cc, "-g", "-O0", "-o", "prog", "app.c", "remote_only.c")
	port = lldbServerInNamespace(t, rp, "./prog")
	id = h.sessionFor("c")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": rp.local("app.c"), "line": 10})
	return rp, port, id
}

// A C program built and run on another root (a container's, here a mount
// namespace's /mnt/app) under lldb-server; its debug information names
// /mnt/app files. The agent has the same binary (copied out of the
// container) and its own copy of the sources elsewhere, and attaches with
// pathMappings.
func TestCAttachAcrossAMountBoundary(t *testing.T) {
	h := newHarness(t)
	rp, port, id := cProgramUnderStub(t, h)
	app := rp.local("app.c")

	hit := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port,
		"pathMappings": rp.mappings(), "adapterConfig": map[string]any{"program": rp.Remote + "/prog"},
		"waitForStop": true, "timeout": 60000})
	wantStop(t, hit, "breakpoint", 10)
	if hit.stopFile(t) != app || !strings.Contains(hit.obj("context").str("lineContent"), "s += items[i]") {
		t.Fatalf("the stop shows the agent's path and its line: location %v context %v", hit["location"], hit["context"])
	}
	if hit.obj("location")["remote"] != nil {
		t.Errorf("a file the agent has is not remote: %v", hit["location"])
	}
	step := h.ok("step_over", map[string]any{"sessionId": id})
	if step.stopFile(t) != app || step.obj("location").num("line") != 9 {
		t.Errorf("a step shows the agent's path: %v", step["location"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 20})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000}), "breakpoint", 20)

	into := h.ok("step_into", map[string]any{"sessionId": id})
	loc := into.obj("location")
	if loc.str("file") != remoteRoot+"/remote_only.c" || loc["remote"] != true {
		t.Errorf("a stop in a file only the program has keeps its path and is marked remote: %v", loc)
	}
	if into["context"] != nil || !strings.Contains(loc.str("sourceNote"), "no copy here") {
		t.Errorf("lldb-dap serves no source: the answer says so and shows no lines: %v %v", loc, into["context"])
	}

	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	crashed := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	if crashed.str("stopReason") != "exception" || !strings.Contains(crashed.str("description")+crashed.obj("exception").str("description"), "SIGSEGV") {
		t.Fatalf("the null read stops with SIGSEGV: %v", crashed)
	}
	if loc := crashed.obj("location"); loc.str("file") != remoteRoot+"/remote_only.c" || loc.num("line") != 3 || loc["remote"] != true {
		t.Errorf("the signal's stop in the file only the program has: %v", loc)
	}
	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	if len(stack) < 2 || stack[1].str("file") != app || stack[1].num("line") != 20 {
		t.Errorf("the caller's frame shows the agent's path: %v", stack)
	}
}

// The program's binary exists only where it runs, and the agent names no
// build of it: LLDB has no executable for the stub's process, so no
// breakpoint could bind and no frame would have source. The attach says
// so and what to pass, instead of letting the program run unobserved.
func TestCAttachWithoutTheProgramsBuildSaysWhatToPass(t *testing.T) {
	h := newHarness(t)
	rp, port, id := cProgramUnderStub(t, h)
	failed := h.fail("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port,
		"pathMappings": rp.mappings(), "waitForStop": true, "timeout": 60000}, "LLDB has no executable")
	if msg := failed.str("error") + " " + failed.str("hint"); !strings.Contains(msg, "adapterConfig") || !strings.Contains(msg, `"program"`) {
		t.Errorf("the answer names the argument to pass: %v", failed)
	}
}

// adapterConfig.program names a file this machine does not have: the
// attach says so before it connects, and the stub, which serves one
// connection, is still there for the attach with the right build.
func TestCAttachWithAMissingBuildSaysSoBeforeConnecting(t *testing.T) {
	h := newHarness(t)
	rp, port, id := cProgramUnderStub(t, h)
	missing := rp.local("build/prog")
	h.fail("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "pathMappings": rp.mappings(),
		"adapterConfig": map[string]any{"program": missing}, "waitForStop": true, "timeout": 60000}, missing)
	hit := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "pathMappings": rp.mappings(),
		"adapterConfig": map[string]any{"program": rp.Remote + "/prog"}, "waitForStop": true, "timeout": 60000})
	wantStop(t, hit, "breakpoint", 10)
}
