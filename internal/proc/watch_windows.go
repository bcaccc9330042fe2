package proc

import (
	"fmt"
	"sync"

	"golang.org/x/sys/windows"
)

// Watcher watches one process, which need not be our child (a debug
// adapter's debuggee), through a handle to it, which is signalled when it
// exits and keeps its exit code. Its goroutine ends when the process does
// or when Stop is called.
type Watcher struct {
	pid      int
	process  windows.Handle
	stop     windows.Handle // an event Stop sets
	done     chan struct{}  // closed when the process has ended
	finished chan struct{}  // closed when the goroutine has returned
	stopOnce sync.Once
	ending   Ending

	// stopMu keeps the handles open while Ended looks; stopped is set once
	// Stop has closed them.
	stopMu  sync.Mutex
	stopped bool
}

// Watch starts watching pid. The caller owns the Watcher and must Stop it.
func Watch(pid int) (*Watcher, error) {
	h, err := openRunning(pid, windows.PROCESS_QUERY_LIMITED_INFORMATION)
	if err != nil {
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	stop, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	w := &Watcher{pid: pid, process: h, stop: stop, done: make(chan struct{}), finished: make(chan struct{})}
	go w.watch()
	return w, nil
}

// Pid is the watched process's id.
func (w *Watcher) Pid() int { return w.pid }

// Done is closed once the process has ended and Ending says how.
func (w *Watcher) Done() <-chan struct{} { return w.done }

// Ending is how the process ended; valid once Done is closed.
func (w *Watcher) Ending() Ending {
	<-w.done
	return w.ending
}

// Ended reports, without waiting for the goroutine, whether the process has
// ended, and how: a caller about to act on the process's state asks here
// rather than race the watcher's wake-up.
func (w *Watcher) Ended() (Ending, bool) {
	select {
	case <-w.done:
		return w.ending, true
	default:
	}
	w.stopMu.Lock()
	exited := false
	if !w.stopped {
		ev, err := windows.WaitForSingleObject(w.process, 0)
		exited = err == nil && ev == windows.WAIT_OBJECT_0
	}
	w.stopMu.Unlock()
	if !exited {
		return Ending{}, false
	}
	<-w.finished
	select {
	case <-w.done:
		return w.ending, true
	default:
		return Ending{}, false
	}
}

// Stop ends the watch; Done stays open if the process had not ended.
// Stopping twice is harmless.
func (w *Watcher) Stop() {
	w.stopOnce.Do(func() {
		_ = windows.SetEvent(w.stop)
		<-w.finished
		w.stopMu.Lock()
		defer w.stopMu.Unlock()
		w.stopped = true
		windows.CloseHandle(w.process)
		windows.CloseHandle(w.stop)
	})
}

func (w *Watcher) watch() {
	defer close(w.finished)
	ev, err := windows.WaitForMultipleObjects([]windows.Handle{w.process, w.stop}, false, windows.INFINITE)
	// The end is looked at first: a Stop racing it must not hide it.
	if err != nil || ev != windows.WAIT_OBJECT_0 {
		if e, _ := windows.WaitForSingleObject(w.process, 0); e != windows.WAIT_OBJECT_0 {
			return
		}
	}
	var code uint32
	if windows.GetExitCodeProcess(w.process, &code) == nil {
		w.ending = Ending{Known: true, Code: int(code)}
	}
	close(w.done)
}
