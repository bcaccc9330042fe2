package proc

import (
	"errors"
	"syscall"
	"time"
	"unsafe"
)

const (
	// reapWait bounds the wait for a SIGKILLed process to be gone.
	reapWait = 2 * time.Second

	// Linux syscall numbers, the same on every architecture (they postdate
	// the unified table); package syscall does not have them.
	sysPidfdSendSignal = 424
	sysPidfdOpen       = 434
)

func pidfdOpen(pid int) (int, error) {
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if errno != 0 {
		return -1, errno
	}
	syscall.CloseOnExec(int(fd))
	return int(fd), nil
}

func pidfdSignal(fd int, sig syscall.Signal) error {
	_, _, errno := syscall.Syscall6(sysPidfdSendSignal, uintptr(fd), uintptr(sig), 0, 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// pollFd is struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

// pidfdWait waits up to d for the process behind fd to exit (a pidfd
// polls readable then).
func pidfdWait(fd int, d time.Duration) bool {
	end := time.Now().Add(d)
	for {
		ts := syscall.NsecToTimespec(max(time.Until(end), 0).Nanoseconds())
		pfd := pollFd{fd: int32(fd), events: 0x1 /* POLLIN */}
		n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
		switch {
		case errno == 0:
			return n > 0
		case errors.Is(errno, syscall.EINTR):
			continue
		default:
			return false
		}
	}
}

// WaitGone waits up to d for process pid, which need not be our child, to
// exit, and reports whether it did (a pid that is already gone counts).
func WaitGone(pid int, d time.Duration) bool {
	fd, err := pidfdOpen(pid)
	if err != nil {
		return !Alive(pid)
	}
	defer syscall.Close(fd)
	return pidfdWait(fd, d) || !Alive(pid)
}

// pinAll opens a pidfd on each of pids that still runs, so that a signal
// reaches that process and never a later holder of its pid.
func pinAll(pids []int) []int {
	var fds []int
	for _, pid := range pids {
		if fd, err := pidfdOpen(pid); err == nil {
			fds = append(fds, fd)
		}
	}
	return fds
}

// signalAll sends sig to every pinned process.
func signalAll(fds []int, sig syscall.Signal) {
	for _, fd := range fds {
		_ = pidfdSignal(fd, sig)
	}
}

// killAfter waits until deadline for each pinned process to exit, SIGKILLs
// those still alive (waiting up to reapWait for them), and closes the
// pidfds.
func killAfter(fds []int, deadline time.Time) {
	for _, fd := range fds {
		if !pidfdWait(fd, time.Until(deadline)) {
			_ = pidfdSignal(fd, syscall.SIGKILL)
			pidfdWait(fd, reapWait)
		}
		syscall.Close(fd)
	}
}
