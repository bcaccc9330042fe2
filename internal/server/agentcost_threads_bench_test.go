package server

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// benchDeadlock measures a goroutine deadlock (testdata/go/lockorder: two
// goroutines take two locks in opposite orders while main stays awake):
// from the hung program, how many calls and bytes until the answers have
// shown both goroutines waiting on a lock in transfer? Today's way is
// list_threads, then one get_stack_trace per goroutine that may be the
// program's (the trial's agent needed 3 such calls, the reference's 25);
// the other reads the pause's answer, which names the threads waiting on
// locks, and one get_stack_trace {allThreads} only if it did not. Both
// start the same: create, start (the program hangs), pause.
func benchDeadlock(b *testing.B) {
	b.Run("goroutine_deadlock_who_waits_on_which_lock", func(b *testing.B) {
		testenv.RequireAdapter(b, "go")
		prog := filepath.Join(repoRoot(b), "testdata", "go", "lockorder", "main.go")
		for b.Loop() {
			perThread, allThreads := newMeter(b, "go", prog), newMeter(b, "go", prog)
			if !deadlockThreadByThread(perThread) || !deadlockAllThreads(allThreads) {
				b.Fatalf("an investigation did not find both lock waiters (thread by thread %d calls, allThreads %d)", perThread.calls, allThreads.calls)
			}
			b.ReportMetric(float64(perThread.calls), "per-thread-calls")
			b.ReportMetric(float64(perThread.bytes), "per-thread-bytes")
			b.ReportMetric(float64(allThreads.calls), "calls")
			b.ReportMetric(float64(allThreads.bytes), "bytes")
		}
	})
}

// hangAndPause starts the hanging program and pauses it; it returns the
// pause's answer.
func hangAndPause(m *meter) string {
	m.do("start_debugging", map[string]any{"scriptPath": m.prog, "timeout": 2000})
	return m.do("pause_execution", map[string]any{})
}

// lockWaiter reports whether a stack answer shows a goroutine waiting in
// sync.(*Mutex).Lock called from transfer's to.mu.Lock() (main.go:25).
func lockWaiter(stack string) bool {
	return strings.Contains(stack, `sync.(*Mutex).Lock`) && strings.Contains(stack, `"name":"main.transfer"`) && shows(stack, "line", "25")
}

// deadlockThreadByThread reads the goroutines' stacks one call each, in
// list_threads' order, skipping the ones whose names say they are parked
// by the runtime itself, until two lock waiters have shown.
func deadlockThreadByThread(m *meter) bool {
	defer m.close()
	hangAndPause(m)
	var threads struct {
		Threads []struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"threads"`
	}
	if err := json.Unmarshal([]byte(m.do("list_threads", map[string]any{})), &threads); err != nil {
		m.h.t.Fatalf("list_threads: %v", err)
	}
	found := 0
	for _, t := range threads.Threads {
		if strings.HasSuffix(t.Name, "runtime.gopark") {
			continue
		}
		if lockWaiter(m.do("get_stack_trace", map[string]any{"threadId": t.ID})) {
			found++
		}
		if found == 2 {
			return true
		}
	}
	return false
}

// deadlockAllThreads reads the pause's answer, which names the threads
// waiting on locks and their lines, and every stack in one more call
// unless it did.
func deadlockAllThreads(m *meter) bool {
	defer m.close()
	if namesBothWaiters(hangAndPause(m)) {
		return true
	}
	answer := m.do("get_stack_trace", map[string]any{"allThreads": true})
	return strings.Count(answer, `"waiting":"a lock (sync.Mutex)"`) == 2 && strings.Count(answer, `"source":"to.mu.Lock()"`) == 2
}

// namesBothWaiters reports whether an answer names two threads waiting on
// a lock at main.go:25, to.mu.Lock().
func namesBothWaiters(answer string) bool {
	return strings.Contains(answer, "2 threads wait on locks") && strings.Count(answer, "main.go:25 (to.mu.Lock())") == 2
}
