//go:build unix

package server

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// printedPid matches the "pid N" line the killed programs print first.
var printedPid = regexp.MustCompile(`pid (\d+)`)

// killWhilePaused stops the language's killed program at its breakpoint,
// kills it with SIGKILL as something outside the debugger would, and checks
// that the session notices at once: stopped, killed by SIGKILL, no exit
// code, and close leaves no process behind.
func killWhilePaused(t *testing.T, language, program string, line int) {
	h := newHarness(t)
	id := h.sessionFor(language)
	before := proc.Descendants(os.Getpid())
	h.stopAt(id, program, line, program)
	h.waitForOutput(id, "pid ")
	out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	m := printedPid.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no pid in the program's output %q", out)
	}
	kill(t, m[1])

	began := time.Now()
	snap := h.ok("continue_execution", map[string]any{"sessionId": id})
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("continue after the kill took %v", took)
	}
	wantKilled(t, "continue_execution", snap)
	wantKilled(t, "wait_for_stop", h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 1000}))
	listed := h.ok("list_debug_sessions", nil).list("sessions")
	if len(listed) != 1 || listed[0].str("state") != "stopped" || listed[0].str("signal") != "SIGKILL" || listed[0]["exitCode"] != nil {
		t.Errorf("list_debug_sessions should show the session stopped by SIGKILL without an exit code: %v", listed)
	}
	// The adapter may have ended with its program (lldb-dap does): only
	// survivors count.
	h.wantCloseKillsAll(id, before, 0)
}

// killWhileRunning runs the language's killed program, which waits when
// asked, kills it with SIGKILL, and checks that the session reports the
// signal, not the number the adapter makes of it.
func killWhileRunning(t *testing.T, language, program string) {
	h := newHarness(t)
	id := h.sessionFor(language)
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program, "args": []string{"wait"}, "waitForStop": false})
	h.waitForOutput(id, "after")
	out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	m := printedPid.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no pid in the program's output %q", out)
	}
	kill(t, m[1])
	wantKilled(t, "wait_for_stop", h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 10000}))
}

// kill sends SIGKILL to the process the program said it was, and waits
// for it to be gone.
func kill(t *testing.T, printed string) {
	t.Helper()
	pid, err := strconv.Atoi(printed)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !proc.WaitGone(pid, 10*time.Second) {
		t.Fatalf("process %d survived SIGKILL", pid)
	}
}

func wantKilled(t *testing.T, call string, snap result) {
	t.Helper()
	if snap.str("state") != "stopped" || snap.str("signal") != "SIGKILL" || snap["exitCode"] != nil ||
		!regexp.MustCompile(`The program was killed by SIGKILL\.`).MatchString(snap.str("message")) {
		t.Errorf("%s after SIGKILL: want state stopped, signal SIGKILL, no exitCode and the message saying so; got state=%q signal=%q exitCode=%v stateReason=%q message=%q",
			call, snap.str("state"), snap.str("signal"), snap["exitCode"], snap.str("stateReason"), snap.str("message"))
	}
}

func TestKilledWhilePausedGo(t *testing.T) {
	killWhilePaused(t, "go", "testdata/go/killed/main.go", 11)
}

func TestKilledWhilePausedPython(t *testing.T) {
	killWhilePaused(t, "python", "testdata/python/killed.py", 4)
}

func TestKilledWhilePausedC(t *testing.T) {
	killWhilePaused(t, "c", "testdata/native/c/killed.c", 8)
}

func TestKilledWhilePausedNode(t *testing.T) {
	killWhilePaused(t, "javascript", "testdata/node/killed.js", 2)
}

func TestKilledWhilePausedRuby(t *testing.T) {
	killWhilePaused(t, "ruby", "testdata/ruby/killed.rb", 3)
}

func TestKilledWhilePausedJava(t *testing.T) {
	killWhilePaused(t, "java", "testdata/java/Killed.java", 4)
}

func TestKilledWhileRunningGo(t *testing.T) {
	killWhileRunning(t, "go", "testdata/go/killed/main.go")
}

func TestKilledWhileRunningPython(t *testing.T) {
	killWhileRunning(t, "python", "testdata/python/killed.py")
}

func TestKilledWhileRunningC(t *testing.T) {
	killWhileRunning(t, "c", "testdata/native/c/killed.c")
}

func TestKilledWhileAttachedGo(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	p, sc := startWaiter(t, exec.Command(buildGo(t, "waiter")), "ready")
	go func() {
		for sc.Scan() {
		}
	}()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": goProgram(t, "waiter", "main.go"), "line": 10})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "processId": p.Pid(), "waitForStop": true, "timeout": 60000})
	wantStop(t, att, "breakpoint", 10)
	kill(t, strconv.Itoa(p.Pid()))
	wantKilled(t, "continue_execution", h.ok("continue_execution", map[string]any{"sessionId": id}))
	// Delve, the program's tracer, keeps it a zombie until it goes; the
	// test's own cleanup waits for the program to be reaped.
	h.ok("close_debug_session", map[string]any{"sessionId": id})
}

func TestKilledWhileAttachedNode(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	node := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	port := freePort(t)
	src := nodeProgram(t, "serve.js")
	p, ticks := startWaiter(t, exec.Command(node, fmt.Sprintf("--inspect-port=127.0.0.1:%d", port), src), "")
	go func() {
		for ticks.Scan() {
		}
	}()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	h.ok("attach_to_process", map[string]any{"sessionId": id, "processId": p.Pid(), "port": port, "waitForStop": false})
	wantStop(t, h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 10000}), "breakpoint", 6)
	kill(t, strconv.Itoa(p.Pid()))
	wantKilled(t, "continue_execution", h.ok("continue_execution", map[string]any{"sessionId": id}))
}
