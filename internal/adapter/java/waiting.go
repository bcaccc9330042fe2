package java

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// A JVM thread's state is in its name as our threads answer gives it
// ("to-checking (blocked)"): DAP has no field for it. A thread blocked
// entering a monitor also names the thread that holds it, which JDWP
// tells (ThreadReference.CurrentContendedMonitor, ObjectReference.
// MonitorInfo): "(blocked on a monitor held by to-savings)". The engine
// follows those holders to find a cycle, a deadlock shown, not guessed.
// docs/adapter-quirks.md: jvm-11.

// heldBy introduces the holder in a blocked thread's state.
const heldBy = " on a monitor held by "

// monitorHolder is what a blocked thread's state adds: heldBy and the name
// of the thread that holds the monitor it waits to enter; "" when it is
// not blocked, not suspended (JDWP answers only for suspended threads) or
// the VM will not tell.
func (s *server) monitorHolder(ctx context.Context, t jdwp.ObjectID, status int32, suspended bool) string {
	if status != jdwp.ThreadMonitor || !suspended {
		return ""
	}
	monitor, err := s.vm.ContendedMonitor(ctx, t)
	if err != nil || monitor == 0 {
		return ""
	}
	owner, err := s.vm.MonitorOwner(ctx, monitor)
	if err != nil || owner == 0 {
		return ""
	}
	name, err := s.vm.ThreadName(ctx, owner)
	if err != nil {
		return ""
	}
	return heldBy + name
}

// threadStateSuffix is the state our threads answer puts after a name.
var threadStateSuffix = regexp.MustCompile(` \((running|sleeping|blocked|waiting|terminated|unknown)(` + regexp.QuoteMeta(heldBy) + `(.*))?\)$`)

// javaWaits name, by a JDK frame above the program's in a waiting thread,
// what it waits on.
var javaWaits = []struct {
	frame string
	wait  adapter.Wait
}{
	{"java.lang.Thread.join", adapter.Wait{What: "a thread to end (Thread.join)", Blocking: true}},
	{"java.util.concurrent.locks.ReentrantReadWriteLock", adapter.Wait{What: "a lock (ReentrantReadWriteLock)", Blocking: true, Lock: true}},
	{"java.util.concurrent.locks.ReentrantLock", adapter.Wait{What: "a lock (ReentrantLock)", Blocking: true, Lock: true}},
	{"java.util.concurrent.CountDownLatch.await", adapter.Wait{What: "a CountDownLatch", Blocking: true}},
	{"java.util.concurrent.Semaphore.acquire", adapter.Wait{What: "a Semaphore", Blocking: true, Lock: true}},
	{"java.util.concurrent.CyclicBarrier.await", adapter.Wait{What: "a CyclicBarrier", Blocking: true}},
	{"java.util.concurrent.FutureTask.get", adapter.Wait{What: "a Future", Blocking: true}},
	{"java.util.concurrent.CompletableFuture", adapter.Wait{What: "a CompletableFuture", Blocking: true}},
	{"java.util.concurrent.LinkedBlockingQueue.take", adapter.Wait{What: "a queue (take)", Blocking: true}},
	{"java.util.concurrent.ArrayBlockingQueue.take", adapter.Wait{What: "a queue (take)", Blocking: true}},
	{"java.util.concurrent.locks.Condition", adapter.Wait{What: "a condition", Blocking: true}},
	{"java.lang.Object.wait", adapter.Wait{What: "a notify (Object.wait)", Blocking: true}},
	{"sun.nio.ch.", adapter.Wait{What: "I/O"}},
	{"java.net.", adapter.Wait{What: "I/O"}},
	{"java.io.FileInputStream.read", adapter.Wait{What: "I/O"}},
}

// waitingOn reads a JVM thread's wait from its state and the JDK frames
// above the program's.
func waitingOn(t adapter.ThreadStack) (adapter.Wait, bool) {
	m := threadStateSuffix.FindStringSubmatch(t.Name)
	if m == nil {
		return adapter.Wait{}, false
	}
	switch m[1] {
	case "blocked":
		w := adapter.Wait{What: "a monitor (synchronized)", Blocking: true, Lock: true, Holder: m[3]}
		if w.Holder != "" {
			w.What += " held by " + w.Holder
		}
		return w, true
	case "sleeping":
		return adapter.Wait{What: "sleep"}, true
	case "waiting":
		// From the outermost JDK frame in: Thread.join, not the
		// Object.wait it calls.
		for _, f := range t.WaitFrames() {
			for _, jw := range javaWaits {
				if strings.HasPrefix(f.Name, jw.frame) {
					return jw.wait, true
				}
			}
		}
		return adapter.Wait{What: "a wait (parked)", Blocking: true}, true
	}
	return adapter.Wait{}, false
}

// blockedEntryLine corrects the line of a thread blocked entering a
// synchronized block: HotSpot reports its frame at the instruction after
// the monitorenter, which begins the block's first line (the thread was
// shown inside the block it waits to enter). A location that begins a
// line while its thread is blocked is one instruction on: the line of the
// instruction before it is the synchronized statement's. ok is false for
// any other thread or location.
// docs/adapter-quirks.md: jvm-11.
func (s *server) blockedEntryLine(ctx context.Context, t jdwp.ObjectID, l jdwp.Location) (int, bool) {
	if l.Index == 0 {
		return 0, false
	}
	if status, _, err := s.vm.ThreadStatus(ctx, t); err != nil || status != jdwp.ThreadMonitor {
		return 0, false
	}
	lt, err := s.types.lineTable(ctx, l.Class, l.Method)
	if err != nil || !slices.ContainsFunc(lt.Lines, func(e jdwp.LineEntry) bool { return e.Index == l.Index }) {
		return 0, false
	}
	before := l
	before.Index--
	line := s.types.lineOf(ctx, before)
	return line, line > 0
}
