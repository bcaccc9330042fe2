package proc

import "sync"

// Watcher watches one process, which need not be our child (a debug
// adapter's debuggee), by what its OS offers (watchSys). Its goroutine
// ends when the process does or when Stop is called.
type Watcher struct {
	pid      int
	sys      watchSys
	done     chan struct{} // closed when the process has ended
	finished chan struct{} // closed when the goroutine has returned
	stopOnce sync.Once
	ending   Ending

	// sysMu keeps sys's resources open while Ended looks; stopped is set
	// once Stop has released them.
	sysMu   sync.Mutex
	stopped bool
}

// watchSys is one OS's way to watch a process: a pidfd (Linux), a kqueue
// (macOS), a process handle (Windows).
type watchSys interface {
	// wait blocks until the process ends, and says how, or until wake is
	// called (ended false).
	wait() (e Ending, ended bool)
	// exitedNow reports, without blocking, whether the process has ended.
	exitedNow() bool
	// wake makes a wait under way return.
	wake()
	// release frees what the watch holds, once wait has returned.
	release()
}

// startWatcher starts the goroutine that waits on sys.
func startWatcher(pid int, sys watchSys) *Watcher {
	w := &Watcher{pid: pid, sys: sys, done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(w.finished)
		if e, ended := sys.wait(); ended {
			w.ending = e
			close(w.done)
		}
	}()
	return w
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
	w.sysMu.Lock()
	exited := !w.stopped && w.sys.exitedNow()
	w.sysMu.Unlock()
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
		w.sys.wake()
		<-w.finished
		w.sysMu.Lock()
		defer w.sysMu.Unlock()
		w.stopped = true
		w.sys.release()
	})
}
