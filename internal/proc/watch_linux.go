package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// statusWait bounds how long a watcher looks for the status of a process
// that has just exited: its parent may be between reaping it and the
// kernel keeping the status for the pidfd.
const statusWait = 200 * time.Millisecond

// zombieCheck is how often a watcher looks whether every thread of the
// process is a zombie. A traced process killed while its tracer is not
// waiting (Delve, paused) keeps its threads as zombies until the tracer
// reaps them, and its pidfd does not poll readable until then.
const zombieCheck = 250 * time.Millisecond

// pidfdWatch watches a process through a pidfd, woken by a pipe.
type pidfdWatch struct {
	pid, fd, wakeR, wakeW int
}

// Watch starts watching pid. The caller owns the Watcher and must Stop it.
func Watch(pid int) (*Watcher, error) {
	fd, err := pidfdOpen(pid)
	if err != nil {
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	var wake [2]int
	if err := syscall.Pipe2(wake[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("watch process %d: %w", pid, err)
	}
	return startWatcher(pid, &pidfdWatch{pid: pid, fd: fd, wakeR: wake[0], wakeW: wake[1]}), nil
}

func (w *pidfdWatch) exitedNow() bool { return pidfdWait(w.fd, 0) || allThreadsZombies(w.pid) }

func (w *pidfdWatch) wake() { syscall.Close(w.wakeW) }

func (w *pidfdWatch) release() {
	syscall.Close(w.wakeR)
	syscall.Close(w.fd)
}

func (w *pidfdWatch) wait() (Ending, bool) {
	fds := []pollFd{{fd: int32(w.fd), events: 0x1}, {fd: int32(w.wakeR), events: 0x1}}
	for {
		ts := syscall.NsecToTimespec(zombieCheck.Nanoseconds())
		n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)), uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
		if errno == 0 && n == 0 && allThreadsZombies(w.pid) {
			fds[0].revents = 0x1
		}
		if errno != 0 && !errors.Is(errno, syscall.EINTR) {
			return Ending{}, false
		}
		// The end is looked at first: a Stop racing it must not hide it.
		if fds[0].revents != 0 {
			return endingOf(w.pid, w.fd), true
		}
		if fds[1].revents != 0 {
			return Ending{}, false
		}
	}
}

// endingOf reads the wait status of a process that has exited: from its
// zombie's /proc stat while its parent has not reaped it, else from the
// pidfd, which keeps it after the reaping (PIDFD_INFO_EXIT, Linux 6.15).
func endingOf(pid, fd int) Ending {
	deadline := time.Now().Add(statusWait)
	for {
		if status, ok := pidfdExitStatus(fd); ok {
			return endingFromStatus(status)
		}
		if status, ok := zombieStatus(pid); ok {
			return endingFromStatus(status)
		}
		if time.Now().After(deadline) {
			return Ending{}
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// pidfdInfo is struct pidfd_info in its first version
// (PIDFD_INFO_SIZE_VER0, Linux 6.13), which ends with exit_code.
type pidfdInfo struct {
	mask, cgroupid                     uint64
	pid, tgid, ppid                    uint32
	ruid, rgid, euid, egid, suid, sgid uint32
	fsuid, fsgid                       uint32
	exitCode                           int32
}

const (
	pidfdInfoExit = 0x8
	// pidfdGetInfo is _IOWR(PIDFS_IOCTL_MAGIC, 11, struct pidfd_info).
	pidfdGetInfo = 0xC000FF0B | uintptr(unsafe.Sizeof(pidfdInfo{}))<<16
)

// pidfdExitStatus asks the kernel for the wait status kept with a reaped
// process's pidfd.
func pidfdExitStatus(fd int) (syscall.WaitStatus, bool) {
	info := pidfdInfo{mask: pidfdInfoExit}
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), pidfdGetInfo, uintptr(unsafe.Pointer(&info)))
	if errno != 0 || info.mask&pidfdInfoExit == 0 {
		return 0, false
	}
	return syscall.WaitStatus(info.exitCode), true
}

// zombieStatus reads the wait status of an unreaped process (field 52 of
// /proc/PID/stat). The pid cannot have been reused: a zombie holds it.
func zombieStatus(pid int) (syscall.WaitStatus, bool) {
	f, err := statFields(filepath.Join("/proc", strconv.Itoa(pid), "stat"), 50)
	if err != nil || f[0] != "Z" {
		return 0, false
	}
	code, err := strconv.Atoi(f[49])
	if err != nil {
		return 0, false
	}
	return syscall.WaitStatus(code), true
}

// allThreadsZombies reports whether every thread of a process that has not
// been reaped (its pidfd says so, so the pid is still its own) has exited.
func allThreadsZombies(pid int) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "task")
	tasks, err := os.ReadDir(dir)
	if err != nil || len(tasks) == 0 {
		return false
	}
	for _, t := range tasks {
		f, err := statFields(filepath.Join(dir, t.Name(), "stat"), 1)
		if errors.Is(err, errMalformed) {
			return false
		}
		if err != nil {
			continue // the thread went between the listing and the read
		}
		if f[0] != "Z" && f[0] != "X" {
			return false
		}
	}
	return true
}
