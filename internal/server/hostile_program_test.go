//go:build linux

package server

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// A run-control call's timeout bounds the whole call: with the adapter
// stopped (SIGSTOP: hung, as a deadlocked adapter is), step_over {timeout}
// answers within it, saying the adapter did not answer, instead of after
// the DAP default of 30 s. Once the adapter runs again the session works.
// Rows one after another: each stops a process it finds among this test
// binary's children.
func TestRunControlTimeoutBoundsAHungAdapter(t *testing.T) {
	for _, row := range []struct {
		language, adapter string // adapter: a part of its command line
		program           func(t *testing.T) string
		line              int
	}{
		{"python", `run_module("debugpy.adapter"`, func(t *testing.T) string { return pythonProgram(t, "loop.py") }, 16},
		{"go", "dlv\x00dap", func(t *testing.T) string { return goProgram(t, "loop", "main.go") }, 27},
	} {
		t.Run(row.language, func(t *testing.T) {
			h := newHarness(t)
			id := h.sessionFor(row.language)
			before := proc.Descendants(os.Getpid())
			prog := row.program(t)
			h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": row.line})
			wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "timeout": 120000}), "breakpoint", row.line)
			pid := newProcessNamed(t, before, row.adapter)
			if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			resumed := false
			resume := func() {
				if !resumed {
					resumed = true
					_ = syscall.Kill(pid, syscall.SIGCONT)
				}
			}
			t.Cleanup(resume)
			start := time.Now()
			res, isErr := h.call("step_over", map[string]any{"sessionId": id, "timeout": 2000})
			took := time.Since(start)
			resume()
			if took > 5*time.Second {
				t.Errorf("step_over {timeout: 2000} with the adapter hung answered after %v", took)
			}
			if hint, _ := res["hint"].(string); !isErr || !strings.Contains(hint, "did not answer within") {
				t.Errorf("the answer says the adapter did not answer in time: %v", res)
			}
			h.ok("close_debug_session", map[string]any{"sessionId": id})
		})
	}
}

// newProcessNamed is the pid of the process, a descendant of this test
// binary started since before was taken, whose command line (arguments
// joined by NUL) has part.
func newProcessNamed(t *testing.T, before []int, part string) int {
	t.Helper()
	var seen []string
	for _, pid := range proc.Descendants(os.Getpid()) {
		if slices.Contains(before, pid) {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + itoa(pid) + "/cmdline")
		if err == nil && strings.Contains(string(cmdline), part) && !strings.HasPrefix(string(cmdline), proc.ReaperName+"\x00") {
			return pid
		}
		seen = append(seen, strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	t.Fatalf("no new process with %q in its command line: %q", part, seen)
	return 0
}

// A real program's terminal control sequences (a window title, a screen
// clear, colours, a bell, a NUL) do not reach the agent as they are.
func TestProgramControlBytesReachNoAnswer(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	end := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": pythonProgram(t, "escapes.py"), "timeout": 60000})
	if end.str("state") != "stopped" {
		t.Fatalf("the program should run to its end: %v", end)
	}
	all := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	if want := `colour red bell\x07 nul\x00 end` + "\n"; all != want {
		t.Fatalf("output %q, want %q", all, want)
	}
}

// An agent cannot replace the mark by which close finds every process of
// a run (docs: what close ends): dapLaunchArgs.env setting it, as a map or
// as lldb-dap's list, is refused before anything starts.
func TestLaunchRefusesTheServersProcessMark(t *testing.T) {
	h := newHarness(t)
	for _, env := range []any{
		map[string]any{proc.MarkVar: "mine"},
		[]any{"A=1", proc.MarkVar + "=mine"},
	} {
		id := h.sessionFor("python")
		h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": pythonProgram(t, "loop.py"),
			"dapLaunchArgs": map[string]any{"env": env}}, "server's own mark")
	}
}

// record with its temporary disk full says so, not that the program was
// killed. Needs root, to mount a small tmpfs as TMPDIR.
func TestRecordOnAFullDiskSaysSo(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs as root: this test mounts a tmpfs")
		}
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	prog := filepath.Join(dir, "busy.py")
	text := "def add(a, b):\n    return a + b\n\ntotal = 0\nfor i in range(20000):\n    total = add(total, i)\nprint(total)\n"
	if err := os.WriteFile(prog, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small")
	if err := os.Mkdir(small, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=192k", "tmpfs", small).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", small).Run() })
	t.Setenv("TMPDIR", small)
	h := newHarness(t)
	before := proc.Descendants(os.Getpid())
	res, _ := h.call("record", map[string]any{"language": "python", "scriptPath": prog, "timeout": 120000})
	if text := fmt.Sprint(res); !strings.Contains(text, "no space left on device") || strings.Contains(text, "the program was killed") {
		t.Fatalf("the answer says the disk is full, not that the program was killed: %v", res)
	}
	// Once its session is closed nothing of the run is left: no file on
	// the full disk, no process; and the server still serves.
	for _, sess := range h.ok("list_debug_sessions", map[string]any{}).list("sessions") {
		h.ok("close_debug_session", map[string]any{"sessionId": sess.str("id")})
	}
	if left, err := os.ReadDir(small); err != nil || len(left) > 0 {
		t.Errorf("left on the full temporary disk: %v %v", left, err)
	}
	for _, pid := range proc.Descendants(os.Getpid()) {
		if !slices.Contains(before, pid) && !proc.WaitGone(pid, goneWithin) {
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			t.Errorf("process %d outlived the record: %q", pid, strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	h.ok("list_debug_sessions", map[string]any{})
}
