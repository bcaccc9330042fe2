package server

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// hangRow is a program whose threads wait on each other's locks, paused
// once it hangs.
type hangRow struct {
	name, language string
	// hang starts the program, lets it hang, pauses it and returns the
	// session and the pause's message ("" when it stopped by itself).
	hang func(t *testing.T, h *harness) (id, paused string)
	// lockLine is the waiting threads' source line, function their
	// innermost frame of the program, what how each says what it waits on
	// (its beginning).
	lockLine, function, what string
	// waits are what the answer's waits must name.
	waits []string
	// deadlock: every thread of the program waits on another, so the
	// answer may call it a deadlock; otherwise it must not.
	deadlock bool
}

// startAndPause starts a program that hangs and pauses it.
func startAndPause(t *testing.T, h *harness, language, program string) (id, paused string) {
	t.Helper()
	id = h.sessionFor(language)
	if state := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program, "timeout": 2000}).str("state"); state != "running" {
		t.Fatalf("the program should hang, got state %s", state)
	}
	return id, h.ok("pause_execution", map[string]any{"sessionId": id}).str("message")
}

var hangRows = []hangRow{
	{
		name: "go_program_with_a_live_main", language: "go",
		hang: func(t *testing.T, h *harness) (string, string) {
			return startAndPause(t, h, "go", goProgram(t, "lockorder", "main.go"))
		},
		lockLine: "to.mu.Lock()", function: "main.transfer", what: "a lock (sync.Mutex)",
		waits: []string{"2 threads wait on locks", "main.go:25 (to.mu.Lock())"},
	},
	{
		name: "go_test_all_blocked", language: "go", deadlock: true,
		hang: func(t *testing.T, h *harness) (string, string) {
			// Go 1.26's runtime sees this deadlock under go test too, and
			// Delve stops on its fatal error.
			res := h.ok("debug_test", map[string]any{"language": "go", "path": goProgram(t, "lockorder", "main_test.go"), "name": "TestTransfers", "timeout": 2000})
			switch res.str("state") {
			case "running":
				return res.str("sessionId"), h.ok("pause_execution", map[string]any{"sessionId": res.str("sessionId")}).str("message")
			case "paused":
				// The stop at the runtime's verdict says who waits, and
				// names the test asked for, not testing.(*T).Run.
				if name := res.obj("test").str("name"); name != "TestTransfers" {
					t.Errorf("the failed test is named %q, want TestTransfers", name)
				}
				return res.str("sessionId"), res.str("message")
			}
			t.Fatalf("the test should hang or stop on the deadlock, got %v", res)
			return "", ""
		},
		lockLine: "to.mu.Lock()", function: "lockorder.transfer", what: "a lock (sync.Mutex)",
		waits: []string{"all 3 threads of the program wait", "2 wait on locks", "main.go:25 (to.mu.Lock())"},
	},
	{
		// A hung program already running (issue 36): attach, pause, and
		// the pause's answer names the lock waiters.
		name: "go_attached", language: "go",
		hang: func(t *testing.T, h *harness) (string, string) {
			id := h.sessionFor("go")
			p, out := startWaiter(t, exec.Command(buildGo(t, "lockorder")), "transferring")
			go func() {
				for out.Scan() {
				}
			}()
			if state := h.ok("attach_to_process", map[string]any{"sessionId": id, "processId": p.Pid(), "waitForStop": false}).str("state"); state != "running" {
				t.Fatalf("the attached program should be running, got %s", state)
			}
			return id, h.ok("pause_execution", map[string]any{"sessionId": id}).str("message")
		},
		lockLine: "to.mu.Lock()", function: "main.transfer", what: "a lock (sync.Mutex)",
		waits: []string{"2 threads wait on locks", "main.go:25 (to.mu.Lock())"},
	},
	{
		name: "python_threads", language: "python",
		hang: func(t *testing.T, h *harness) (string, string) {
			return startAndPause(t, h, "python", pythonProgram(t, "lockorder.py"))
		},
		lockLine: "with second:", function: "transfer", what: "a lock (by its line)",
		waits: []string{"2 threads wait on locks", "lockorder.py:17 (with second:)"},
	},
	{
		// The JVM tells who holds each monitor: the circle is shown.
		name: "java_synchronized", language: "java", deadlock: true,
		hang: func(t *testing.T, h *harness) (string, string) {
			return startAndPause(t, h, "java", filepath.Join(repoRoot(t), "testdata", "java", "LockOrder.java"))
		},
		lockLine: "synchronized (second) {", function: "LockOrder.transfer", what: "a monitor (synchronized) held by to-",
		waits: []string{"waits for a lock held by to-", "which waits for one held by to-"},
	},
	{
		name: "c_pthreads", language: "c", deadlock: true,
		hang: func(t *testing.T, h *harness) (string, string) {
			return startAndPause(t, h, "c", nativeProgram(t, "c", "lockorder.c"))
		},
		lockLine: "pthread_mutex_lock(o->second);", function: "transfer", what: "a lock (pthread_mutex_lock)",
		waits: []string{"all 3 threads of the program wait", "2 wait on locks", "lockorder.c:18 (pthread_mutex_lock(o->second);)"},
	},
	{
		name: "cpp_std_mutex", language: "cpp", deadlock: true,
		hang: func(t *testing.T, h *harness) (string, string) {
			return startAndPause(t, h, "cpp", nativeProgram(t, "cpp", "lockorder.cpp"))
		},
		lockLine: "std::lock_guard<std::mutex> other(second);", function: "::transfer(std::mutex &, std::mutex &)", what: "a lock (std::mutex)",
		waits: []string{"all 3 threads of the program wait", "2 wait on locks", "lockorder.cpp:16 (std::lock_guard<std::mutex> other(second);)"},
	},
	{
		name: "rust_std_mutex", language: "rust", deadlock: true,
		hang: func(t *testing.T, h *harness) (string, string) {
			return startAndPause(t, h, "rust", nativeProgram(t, "rustlock", "src", "main.rs"))
		},
		lockLine: "let _other = second.lock().unwrap();", function: "rustlock::transfer", what: "a lock (Mutex)",
		waits: []string{"all 3 threads of the program wait", "2 wait on locks", "main.rs:9 (let _other = second.lock().unwrap();)"},
	},
}

// TestAllThreadsShowWhoWaitsOnLocks: a program hung on two locks taken in
// opposite orders, paused, answers one get_stack_trace {allThreads} with
// both waiting threads, their own frames on top, what they wait on and
// the line that waits; a deadlock is called one only when every thread
// of the program waits.
func TestAllThreadsShowWhoWaitsOnLocks(t *testing.T) {
	for _, row := range hangRows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			id, paused := row.hang(t, h)
			for _, want := range row.waits {
				if paused != "" && !strings.Contains(paused, want) {
					t.Errorf("the pause's answer should say %q: %q", want, paused)
				}
			}
			res, isErr, size := h.callSize("get_stack_trace", map[string]any{"sessionId": id, "allThreads": true})
			text, _ := json.Marshal(res)
			if isErr {
				t.Fatalf("allThreads failed: %s", text)
			}
			var waiting []int
			for _, g := range res.list("threads") {
				frames := g.list("frames")
				if !strings.HasPrefix(g.str("waiting"), row.what) {
					continue
				}
				if len(frames) == 0 || frames[0].str("name") != row.function || g.str("source") != row.lockLine {
					t.Errorf("a thread waiting on %s should show %s at %q on top: %v", row.what, row.function, row.lockLine, g)
				}
				waiting = append(waiting, g.num("count"))
			}
			if total := sum(waiting); total != 2 {
				t.Fatalf("want 2 threads waiting on %s, got %v in %s", row.what, waiting, text)
			}
			waits := res.str("waits")
			for _, want := range row.waits {
				if !strings.Contains(waits, want) {
					t.Errorf("waits should say %q: %q", want, waits)
				}
			}
			if called := strings.HasPrefix(waits, "deadlock"); called != row.deadlock {
				t.Errorf("deadlock said %v, want %v: %q", called, row.deadlock, waits)
			}
			if size > defaultMaxBytes {
				t.Errorf("the answer is %d bytes, over %d", size, defaultMaxBytes)
			}
			t.Logf("%d bytes: %s", size, text)
		})
	}
}

func sum(ns []int) int {
	total := 0
	for _, n := range ns {
		total += n
	}
	return total
}

// TestAllThreadsAnswerStaysWithinItsBudget: a thousand threads in as many
// different places answer within the budget, the first groups (those
// waiting on locks come first) kept whole, and the answer says what it
// left out.
func TestAllThreadsAnswerStaysWithinItsBudget(t *testing.T) {
	res := &stackResult{Success: true, StackFrames: []session.Frame{}}
	for i := range 1000 {
		g := session.ThreadGroup{Count: 1, ThreadIDs: []int{i + 1}, Name: fmt.Sprintf("worker-%d", i), Waiting: "a lock (sync.Mutex)"}
		for j := range 8 {
			g.Frames = append(g.Frames, session.Frame{ID: i*10 + j, Name: fmt.Sprintf("main.step%d", j), File: "/src/app/worker.go", Line: 10*j + i%7})
		}
		res.Threads = append(res.Threads, g)
	}
	res.fitThreads(defaultMaxBytes)
	if size := sizeOf(res); size > defaultMaxBytes {
		t.Fatalf("the answer is %d bytes, over %d", size, defaultMaxBytes)
	}
	if len(res.Threads) == 0 || len(res.Threads[0].Frames) != 8 || res.Threads[0].Name != "worker-0" {
		t.Errorf("the first group should stay whole: %+v", res.Threads[:1])
	}
	if res.Budget == nil || !strings.Contains(strings.Join(res.Budget.LeftOut, " "), fmt.Sprintf("%d more groups", 1000-len(res.Threads))) {
		t.Errorf("the answer should say how many groups it left out: %+v", res.Budget)
	}
}

// TestPythonPauseOfThreadsAllBlockedInCSaysWhy: debugpy cannot pause a
// program whose every thread is blocked in C (two in lock.acquire, main in
// join); the pause's answer says so rather than "call pause_execution".
func TestPythonPauseOfThreadsAllBlockedInCSaysWhy(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	if state := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": pythonProgram(t, "lockorder.py"), "args": []string{"join"}, "timeout": 2000}).str("state"); state != "running" {
		t.Fatalf("the program should hang, got state %s", state)
	}
	paused := h.ok("pause_execution", map[string]any{"sessionId": id, "timeout": 3000})
	if msg := paused.str("message"); paused.str("state") != "running" || !strings.Contains(msg, "debugpy pauses a thread only when it next runs Python code") || strings.Contains(msg, "pause_execution") {
		t.Errorf("the pause should say it did not take, and why: %v", paused)
	}
}
