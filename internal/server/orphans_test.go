//go:build linux

package server

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// goneWithin bounds how long a killed process may take to disappear.
const goneWithin = 5 * time.Second

// sleeper is a `sleep` command line no other process has: the orphan the
// tests look for, wherever it was reparented.
func sleeper() string { return strconv.Itoa(5_000_000 + rand.IntN(1_000_000)) }

// withCmdline lists the live processes whose command line is exactly
// words.
func withCmdline(words ...string) []int {
	want := strings.Join(words, "\x00") + "\x00"
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && string(cmdline) == want && proc.Alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// wantGone fails unless every process whose command line is words has
// ended within goneWithin.
func wantGone(t *testing.T, what string, words ...string) {
	t.Helper()
	for _, pid := range withCmdline(words...) {
		if !proc.WaitGone(pid, goneWithin) {
			t.Errorf("%s: %q still runs (pid %d)", what, strings.Join(words, " "), pid)
		}
	}
}

// orphanProgram writes a program that starts `sleep N` in a session of its
// own (out of the program's process group) and then stops at line.
func orphanProgram(t *testing.T, name, source string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A C program's fork()+setsid()+exec("sleep") child is ended by close.
func TestCloseEndsTheCChildThatLeftItsGroup(t *testing.T) {
	testenv.RequireAdapter(t, "c")
	n := sleeper()
	src := orphanProgram(t, "forker.c", `#include <unistd.h>
int main(void) {
	if (fork() == 0) {
		setsid();
		execlp("sleep", "sleep", "`+n+`", (char *)0);
		_exit(1);
	}
	int started = 1;
	return started - 1;
}
`)
	h := newHarness(t)
	id := h.sessionFor("c")
	h.stopAt(id, src, 9, src)
	waitStarted(t, "sleep", n)
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	wantGone(t, "after close_debug_session", "sleep", n)
}

// A Python Popen(..., start_new_session=True) child is ended by close.
func TestCloseEndsThePythonChildInANewSession(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	n := sleeper()
	src := orphanProgram(t, "spawner.py", `import subprocess
child = subprocess.Popen(["sleep", "`+n+`"], start_new_session=True)
started = True
print("started", child.pid)
`)
	h := newHarness(t)
	id := h.sessionFor("python")
	h.stopAt(id, src, 4, src)
	waitStarted(t, "sleep", n)
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	wantGone(t, "after close_debug_session", "sleep", n)
}

// A program whose debug adapter was killed while it ran keeps running
// (lldb's debug server lets its inferior go); close still ends it.
func TestCloseEndsTheProgramOfAKilledAdapter(t *testing.T) {
	testenv.RequireAdapter(t, "c")
	src := orphanProgram(t, "spinner.c", `#include <stdio.h>
#include <unistd.h>
int main(void) {
	printf("pid %d\n", getpid());
	fflush(stdout);
	for (;;) {
		usleep(5000);
	}
}
`)
	h := newHarness(t)
	id := h.sessionFor("c")
	before := proc.Descendants(os.Getpid())
	h.stopAt(id, src, 7, src)
	var adapter int
	for _, pid := range proc.Descendants(os.Getpid()) {
		if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); !slices.Contains(before, pid) && strings.Contains(filepath.Base(exe), "lldb-dap") {
			adapter = pid
		}
	}
	if adapter == 0 {
		t.Fatal("no lldb-dap among the processes the session started")
	}
	h.waitForOutput(id, "pid ")
	m := printedPid.FindStringSubmatch(h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"))
	if m == nil {
		t.Fatal("the program printed no pid")
	}
	program, _ := strconv.Atoi(m[1])
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": false})
	if err := syscall.Kill(adapter, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	if !proc.WaitGone(program, goneWithin) {
		t.Errorf("the program (pid %d) outlived its killed adapter and close_debug_session", program)
	}
}

// Detaching from a program the session launched ends it, and says so: a
// session leaves no process behind.
func TestDetachFromALaunchedProgramEndsItAndSaysSo(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	n := sleeper()
	src := orphanProgram(t, "runner.py", `import os
started = True
os.execvp("sleep", ["sleep", "`+n+`"])
`)
	h := newHarness(t)
	id := h.sessionFor("python")
	h.stopAt(id, src, 3, src)
	h.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": false})
	waitStarted(t, "sleep", n)
	det := h.ok("detach_from_process", map[string]any{"sessionId": id})
	if msg := det.str("message"); !strings.Contains(msg, "ended the program") {
		t.Errorf("detach from a launched program should say it ended it: %q", msg)
	}
	wantGone(t, "after detach_from_process", "sleep", n)
}

// waitStarted waits until a process with the command line words runs.
func waitStarted(t *testing.T, words ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(withCmdline(words...)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%q never started", strings.Join(words, " "))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A daemon that forks twice, leaves the program's process group (setsid)
// and drops its environment (env -i: no mark on it) is ended by close in
// every language: the reaper above the program's processes adopted it when
// the shell between them exited.
func TestCloseEndsADaemonThatLeftGroupAndMark(t *testing.T) {
	for _, row := range []struct {
		language, file, source string
		line                   int
	}{
		{"python", "daemon.py", `import subprocess
subprocess.run(["sh", "-c", DAEMON])
started = True
print(started)
`, 3},
		{"c", "daemon.c", `#include <stdlib.h>
int main(void) {
	system(DAEMON);
	int started = 1;
	return started - 1;
}
`, 4},
		{"javascript", "daemon.js", `const { execSync } = require("child_process");
execSync(DAEMON, { stdio: "ignore" });
const started = true;
console.log(started);
`, 3},
		{"go", "daemon.go", `package main

import "os/exec"

func main() {
	_ = exec.Command("sh", "-c", DAEMON).Run()
	started := true
	println(started)
}
`, 7},
		{"ruby", "daemon.rb", `system("sh", "-c", DAEMON)
started = true
puts started
`, 2},
		{"java", "Daemon.java", `public class Daemon {
    public static void main(String[] args) throws Exception {
        new ProcessBuilder("sh", "-c", DAEMON).start().waitFor();
        boolean started = true;
        System.out.println(started);
    }
}
`, 4},
	} {
		t.Run(row.language, func(t *testing.T) {
			t.Parallel()
			testenv.RequireAdapter(t, row.language)
			n := sleeper()
			daemon := strconv.Quote("(setsid env -i sleep " + n + " &)")
			src := orphanProgram(t, row.file, strings.ReplaceAll(row.source, "DAEMON", daemon))
			h := newHarness(t)
			id := h.sessionFor(row.language)
			h.stopAt(id, src, row.line, src)
			waitStarted(t, "sleep", n)
			h.ok("close_debug_session", map[string]any{"sessionId": id})
			wantGone(t, "after close_debug_session", "sleep", n)
		})
	}
}
