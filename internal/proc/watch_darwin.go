package proc

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// Watcher watches one process, which need not be our child (a debug
// adapter's debuggee), through a kqueue (EVFILT_PROC, NOTE_EXIT). Its
// goroutine ends when the process does or when Stop is called.
type Watcher struct {
	pid      int
	kq       int
	wakeR    int
	wakeW    int
	done     chan struct{} // closed when the process has ended
	finished chan struct{} // closed when the goroutine has returned
	stopOnce sync.Once
	ending   Ending
	// status is whether the exit status was asked for (NOTE_EXITSTATUS).
	status bool

	// stopMu orders Ended's look against Stop; stopped is set once Stop
	// has closed the descriptors.
	stopMu  sync.Mutex
	stopped bool
}

// Watch starts watching pid. The caller owns the Watcher and must Stop it.
func Watch(pid int) (*Watcher, error) {
	kq, err := unix.Kqueue()
	if err != nil {
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	unix.CloseOnExec(kq)
	var wake [2]int
	if err := unix.Pipe(wake[:]); err != nil {
		unix.Close(kq)
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	unix.CloseOnExec(wake[0])
	unix.CloseOnExec(wake[1])
	var wakeEv unix.Kevent_t
	unix.SetKevent(&wakeEv, wake[0], unix.EVFILT_READ, unix.EV_ADD)
	// The exit status is for the parent only: a debuggee that is not our
	// child is watched for its end alone (Ending.Known stays false).
	status := os.Getpid() == parentOf(pid)
	_, err = unix.Kevent(kq, []unix.Kevent_t{procExitEvent(pid, status), wakeEv}, nil, nil)
	if err != nil {
		unix.Close(kq)
		unix.Close(wake[0])
		unix.Close(wake[1])
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	w := &Watcher{pid: pid, kq: kq, wakeR: wake[0], wakeW: wake[1], status: status, done: make(chan struct{}), finished: make(chan struct{})}
	go w.watch()
	return w, nil
}

// parentOf is pid's parent, 0 if it is not known.
func parentOf(pid int) int {
	st, err := statOf(pid)
	if err != nil {
		return 0
	}
	return st.ppid
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
// rather than race the watcher's wake-up. The kqueue's event is the
// goroutine's to take, so this asks the process table; a process that has
// ended posted its NOTE_EXIT before it was gone from there.
func (w *Watcher) Ended() (Ending, bool) {
	select {
	case <-w.done:
		return w.ending, true
	default:
	}
	w.stopMu.Lock()
	exited := !w.stopped && !Alive(w.pid)
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
		unix.Close(w.wakeW)
		<-w.finished
		w.stopMu.Lock()
		defer w.stopMu.Unlock()
		w.stopped = true
		unix.Close(w.wakeR)
		unix.Close(w.kq)
	})
}

func (w *Watcher) watch() {
	defer close(w.finished)
	events := make([]unix.Kevent_t, 2)
	for {
		n, err := unix.Kevent(w.kq, nil, events, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return
		}
		// The end is looked at first: a Stop racing it must not hide it.
		// NOTE_EXITSTATUS puts the wait status in the event's data.
		for _, ev := range events[:n] {
			if ev.Filter == unix.EVFILT_PROC && ev.Fflags&unix.NOTE_EXIT != 0 {
				if w.status {
					w.ending = endingFromStatus(syscall.WaitStatus(ev.Data))
				}
				close(w.done)
				return
			}
		}
		for _, ev := range events[:n] {
			if ev.Filter == unix.EVFILT_READ {
				return
			}
		}
	}
}
