package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// remoteOnlyJava is a class only the program's copy has.
const remoteOnlyJava = "public class Limit {\n    static int limit(int n) {\n        return n - 1;\n    }\n}\n"

// A JVM on another root (classes compiled at /mnt/app in a mount
// namespace) waits for a debugger; the agent's copy of the sources is
// elsewhere. The built-in adapter finds sources by class name, so the
// mapping's localRoot is where it looks.
func TestJavaAttachAcrossAMountBoundary(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	javac := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "javac")
	java := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "java")
	rp := newRemoteProgram(t, testdataFile("java", "remote")(t), map[string]string{"Limit.java": remoteOnlyJava})
	rp.run(t, javac, "-g", "-d", ".", "Remote.java", "Limit.java")
	_, ready := rp.start(t, "Listening for transport dt_socket at address:", java,
		"-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0", "-cp", ".", "Remote")
	port := regexp.MustCompile(`(\d+)\s*$`).FindString(ready)
	src := rp.local("Remote.java")

	// No breakpoint yet: the adapter knows no root of the program's but
	// the mapping's.
	raised := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port,
		"pathMappings": rp.mappings(), "breakOnExceptions": "all", "waitForStop": true, "timeout": 60000})
	wantStop(t, raised, "exception", 6)
	if raised.stopFile(t) != src || !strings.Contains(raised.obj("context").str("lineContent"), "throw new IllegalArgumentException") {
		t.Fatalf("the exception stop shows the agent's path and line: %v %v", raised["location"], raised["context"])
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13})
	hit := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	wantStop(t, hit, "breakpoint", 13)
	if hit.stopFile(t) != src {
		t.Errorf("the breakpoint's stop shows the agent's path: %v", hit["location"])
	}
	step := h.ok("step_over", map[string]any{"sessionId": id})
	if step.stopFile(t) != src || step.obj("location").num("line") != 12 {
		t.Errorf("a step shows the agent's path: %v", step["location"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 25})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000}), "breakpoint", 25)

	// The JVM names the class's file, not where it is: a class whose
	// source the agent lacks is remote, without lines.
	into := h.ok("step_into", map[string]any{"sessionId": id})
	loc := into.obj("location")
	if !strings.Contains(loc.str("function"), "limit") || loc["remote"] != true || !strings.Contains(loc.str("sourceNote"), "no copy here") || into["context"] != nil {
		t.Errorf("a stop in a class only the program has is marked remote, without lines: %v %v", loc, into["context"])
	}
}
