package proc

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// kqueueWatch watches a process through a kqueue (EVFILT_PROC,
// NOTE_EXIT), woken by a pipe it also watches.
type kqueueWatch struct {
	pid, kq, wakeR, wakeW int
	// status is whether the exit status was asked for (NOTE_EXITSTATUS).
	status bool
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
	return startWatcher(pid, &kqueueWatch{pid: pid, kq: kq, wakeR: wake[0], wakeW: wake[1], status: status}), nil
}

// parentOf is pid's parent, 0 if it is not known.
func parentOf(pid int) int {
	st, err := statOf(pid)
	if err != nil {
		return 0
	}
	return st.ppid
}

// exitedNow asks the process table: the kqueue's event is the waiting
// goroutine's to take, and a process that has ended posted its NOTE_EXIT
// before it was gone from there.
func (w *kqueueWatch) exitedNow() bool { return !Alive(w.pid) }

func (w *kqueueWatch) wake() { unix.Close(w.wakeW) }

func (w *kqueueWatch) release() {
	unix.Close(w.wakeR)
	unix.Close(w.kq)
}

func (w *kqueueWatch) wait() (Ending, bool) {
	events := make([]unix.Kevent_t, 2)
	for {
		n, err := unix.Kevent(w.kq, nil, events, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return Ending{}, false
		}
		// The end is looked at first: a Stop racing it must not hide it.
		// NOTE_EXITSTATUS puts the wait status in the event's data.
		for _, ev := range events[:n] {
			if ev.Filter == unix.EVFILT_PROC && ev.Fflags&unix.NOTE_EXIT != 0 {
				if w.status {
					return endingFromStatus(syscall.WaitStatus(ev.Data)), true
				}
				return Ending{}, true
			}
		}
		for _, ev := range events[:n] {
			if ev.Filter == unix.EVFILT_READ {
				return Ending{}, false
			}
		}
	}
}
