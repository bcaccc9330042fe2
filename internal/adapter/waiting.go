package adapter

// ThreadStack is what Quirks.WaitingOn reads of one paused thread to tell
// what it waits on.
type ThreadStack struct {
	// Name is the thread's name as the adapter lists it (the JVM's carry
	// the thread's state: "worker-1 (blocked)").
	Name string
	// Frames are the thread's innermost frames, internal ones included,
	// innermost first.
	Frames []StackEntry
	// UserLine is the source text of the innermost frame of the program's
	// own code, "" when unknown: where the runtime's frames are hidden
	// (Python's locks are C code), the line that waits says what it waits
	// on.
	UserLine string
}

// StackEntry is one frame of a ThreadStack.
type StackEntry struct {
	// Name is the frame's name after Quirks.FrameName; Path its source
	// file, "" when it has none.
	Name, Path string
	// Internal: the runtime's or a library's frame, not the program's.
	Internal bool
}

// Wait is what a thread waits on, as Quirks.WaitingOn tells it.
type Wait struct {
	// What says it in words: "a lock (sync.Mutex)", "a channel receive",
	// "sleep", "I/O".
	What string
	// Blocking: the thread cannot go on until another thread acts (a
	// lock, a channel, a condition), as opposed to a sleep, I/O or a
	// timer that ends by itself. When every thread of a program waits so,
	// the program is deadlocked.
	Blocking bool
	// Lock: the wait is for a lock (a mutex, a monitor), so that threads
	// waiting on locks can be named together.
	Lock bool
	// Holder names the thread that holds the lock, where the runtime
	// tells (a JVM's monitors): threads that wait in a circle on each
	// other's locks are a deadlock shown.
	Holder string
}

// WaitFrames are the frames above the thread's innermost frame of the
// program, the outermost of them first: where a wait is read from, the
// call the program made (pthread_mutex_lock, sync.(*Mutex).Lock,
// Thread.join) before what it calls in turn (the futex wait, the
// semaphore, Object.wait).
func (t ThreadStack) WaitFrames() []StackEntry {
	top := len(t.Frames)
	for i, f := range t.Frames {
		if !f.Internal {
			top = i
			break
		}
	}
	out := make([]StackEntry, 0, top)
	for i := top - 1; i >= 0; i-- {
		out = append(out, t.Frames[i])
	}
	return out
}
