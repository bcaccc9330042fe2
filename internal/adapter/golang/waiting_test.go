package golang

import (
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// Stacks as Delve 1.27.2 gives them under Go 1.26 (innermost first), the
// program's frame last.
func TestWaitingOnReadsTheRuntimesFrames(t *testing.T) {
	runtime := func(names ...string) []adapter.StackEntry {
		var out []adapter.StackEntry
		for _, n := range names {
			out = append(out, adapter.StackEntry{Name: n, Internal: true})
		}
		return append(out, adapter.StackEntry{Name: "main.work", Path: "/src/app/main.go"})
	}
	for _, c := range []struct {
		name     string
		stack    adapter.ThreadStack
		want     string
		blocking bool
	}{
		{"a mutex, above the semaphore it parks on",
			adapter.ThreadStack{Frames: runtime("runtime.gopark", "runtime.goparkunlock", "runtime.semacquire1", "sync.runtime_SemacquireMutex", "sync.(*Mutex).lockSlow", "sync.(*Mutex).Lock", "sync.(*Mutex).Lock"), UserLine: "to.mu.Lock()"},
			"a lock (sync.Mutex)", true},
		{"a receive from a channel another goroutine feeds",
			adapter.ThreadStack{Frames: runtime("runtime.gopark", "runtime.chanrecv", "runtime.chanrecv1"), UserLine: "v := <-results"},
			"a channel receive", true},
		{"a receive from a timer's channel ends by itself",
			adapter.ThreadStack{Frames: runtime("runtime.gopark", "runtime.chanrecv", "runtime.chanrecv1"), UserLine: "<-time.After(time.Second)"},
			"a timer", false},
		{"a select may have a timer case",
			adapter.ThreadStack{Frames: runtime("runtime.gopark", "runtime.selectgo"), UserLine: "select {"},
			"a select", false},
		{"sleep", adapter.ThreadStack{Frames: runtime("runtime.gopark", "time.Sleep"), UserLine: "time.Sleep(d)"}, "sleep", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, ok := waitingOn(c.stack)
			if !ok || w.What != c.want || w.Blocking != c.blocking {
				t.Errorf("got %+v (%v), want %q blocking=%v", w, ok, c.want, c.blocking)
			}
		})
	}
	if w, ok := waitingOn(adapter.ThreadStack{Frames: runtime()}); ok {
		t.Errorf("a goroutine in the program's own code waits on nothing, got %+v", w)
	}
}
