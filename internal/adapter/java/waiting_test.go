package java

import (
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// Thread names as our threads answer gives them, JDK 17's frames.
func TestWaitingOnReadsTheThreadState(t *testing.T) {
	jdk := func(names ...string) []adapter.StackEntry {
		var out []adapter.StackEntry
		for _, n := range names {
			out = append(out, adapter.StackEntry{Name: n, Internal: true})
		}
		return append(out, adapter.StackEntry{Name: "App.main", Path: "/src/App.java"})
	}
	for _, c := range []struct {
		name         string
		stack        adapter.ThreadStack
		what, holder string
		lock         bool
	}{
		{"blocked, its holder known",
			adapter.ThreadStack{Name: "to-checking (blocked on a monitor held by worker (2))", Frames: jdk()},
			"a monitor (synchronized) held by worker (2)", "worker (2)", true},
		{"blocked, its holder unknown",
			adapter.ThreadStack{Name: "to-checking (blocked)", Frames: jdk()},
			"a monitor (synchronized)", "", true},
		{"join, not the Object.wait it calls",
			adapter.ThreadStack{Name: "main (waiting)", Frames: jdk("java.lang.Object.wait", "java.lang.Thread.join", "java.lang.Thread.join")},
			"a thread to end (Thread.join)", "", false},
		{"a ReentrantLock, above the parking it does",
			adapter.ThreadStack{Name: "pool-1 (waiting)", Frames: jdk("jdk.internal.misc.Unsafe.park", "java.util.concurrent.locks.LockSupport.park", "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire", "java.util.concurrent.locks.ReentrantLock$Sync.lock", "java.util.concurrent.locks.ReentrantLock.lock")},
			"a lock (ReentrantLock)", "", true},
		{"sleeping", adapter.ThreadStack{Name: "tick (sleeping)", Frames: jdk("java.lang.Thread.sleep")}, "sleep", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, ok := waitingOn(c.stack)
			if !ok || w.What != c.what || w.Holder != c.holder || w.Lock != c.lock {
				t.Errorf("got %+v (%v), want %q held by %q, lock %v", w, ok, c.what, c.holder, c.lock)
			}
		})
	}
	if w, ok := waitingOn(adapter.ThreadStack{Name: "main (running)", Frames: jdk()}); ok {
		t.Errorf("a running thread waits on nothing, got %+v", w)
	}
}
