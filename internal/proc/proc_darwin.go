package proc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// hostPlatform is macOS: process groups, exits watched with kqueue, and a
// watchdog for the server's death, which macOS has no Pdeathsig for.
type hostPlatform struct{}

// host is this operating system's platform.
var host platform = hostPlatform{}

// watchdog kills the groups of a server that died without killing them.
var watchdog groupWatchdog

const (
	// reapWait bounds the wait for a SIGKILLed process to be gone.
	reapWait = 2 * time.Second
	// goneCheck is how often a kill looks whether the processes it
	// signalled are gone: macOS has no descriptor that pins a process
	// that is not our child and polls when it exits.
	goneCheck = 10 * time.Millisecond
	// stateZombie is SZOMB of <sys/proc.h>, a process's p_stat once it
	// has exited and until it is reaped.
	stateZombie = 5
)

// prepare puts cmd in a new process group. macOS has no subreapers: the
// command runs as it is, and reports no pid (nil).
func (hostPlatform) prepare(cmd *exec.Cmd) *os.File {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	return nil
}

// adopt hands the new group to the watchdog.
func (hostPlatform) adopt(p *Process) error { return watchdog.add(p.leader()) }

// reaped makes the watchdog forget an emptied group: its number is free
// now. A group that still has members keeps it (macOS gives no new process
// a pid in use as a group id), and stays the watchdog's until Kill.
func (hostPlatform) reaped(p *Process) {
	if len(groupMembers(p.leader())) == 0 {
		watchdog.forget(p.leader())
	}
}

// kill ends p's tree (its group, and what the leader and the members
// started outside it) with SIGTERM, SIGKILL after killGrace. As on Linux, a
// reaped leader is not signalled by its pid; the tree's other processes
// are, since macOS cannot pin them: a pid that ends and is reused between
// the listing and the signal would be hit, a window of microseconds.
func (hostPlatform) kill(p *Process) {
	pgid := p.leader()
	defer watchdog.forget(pgid)
	reaped := p.Exited()
	tree := treeOf(pgid)
	if reaped && len(tree) == 0 {
		return
	}
	sig := syscall.SIGTERM
	if reaped {
		sig = syscall.SIGKILL
	} else {
		_ = syscall.Kill(-pgid, sig)
		_ = syscall.Kill(pgid, sig)
	}
	signalEach(tree, sig)
	deadline := time.Now().Add(killGrace)
	select {
	case <-p.done:
	case <-time.After(killGrace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		_ = syscall.Kill(pgid, syscall.SIGKILL)
		<-p.done
	}
	if !allGone(tree, time.Until(deadline)) {
		signalEach(tree, syscall.SIGKILL)
		allGone(tree, reapWait)
	}
}

func signalEach(pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, sig)
	}
}

// allGone waits up to d for every process of pids to be gone.
func allGone(pids []int, d time.Duration) bool {
	end := time.Now().Add(d)
	for {
		gone := true
		for _, pid := range pids {
			gone = gone && !Alive(pid)
		}
		if gone || time.Now().After(end) {
			return gone
		}
		time.Sleep(goneCheck)
	}
}

// procStat is what we read of a process's kinfo_proc.
type procStat struct {
	ppid, pgrp int
	// start is when the process started (microseconds since the epoch),
	// which with the pid identifies it even after the pid is reused.
	start uint64
}

func statFromKinfo(k *unix.KinfoProc) procStat {
	start := uint64(k.Proc.P_starttime.Sec)*1e6 + uint64(k.Proc.P_starttime.Usec)
	return procStat{ppid: int(k.Eproc.Ppid), pgrp: int(k.Eproc.Pgid), start: start}
}

// scan reads every live (not zombie) process.
func scan() map[int]procStat {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil
	}
	out := map[int]procStat{}
	for i := range procs {
		if procs[i].Proc.P_stat != stateZombie {
			out[int(procs[i].Proc.P_pid)] = statFromKinfo(&procs[i])
		}
	}
	return out
}

// groupMembers lists the live processes of process group pgid.
func groupMembers(pgid int) []int {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", pgid)
	if err != nil {
		return nil
	}
	var out []int
	for i := range procs {
		if procs[i].Proc.P_stat != stateZombie {
			out = append(out, int(procs[i].Proc.P_pid))
		}
	}
	return out
}

var errGone = errors.New("proc: no such live process")

// statOf reads a live process's kinfo_proc.
func statOf(pid int) (procStat, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return procStat{}, fmt.Errorf("process %d: %w", pid, err)
	}
	if int(k.Proc.P_pid) != pid || k.Proc.P_stat == stateZombie {
		return procStat{}, errGone
	}
	return statFromKinfo(k), nil
}

// Alive reports whether a process with this pid exists and is not a zombie.
func Alive(pid int) bool {
	_, err := statOf(pid)
	return err == nil
}

// exeOf is the executable process pid runs: the path the kernel keeps
// after argc in its KERN_PROCARGS2 block.
func exeOf(pid int) (string, error) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return "", fmt.Errorf("arguments of process %d: %w", pid, err)
	}
	if len(b) < 4 {
		return "", fmt.Errorf("arguments of process %d: %d bytes", pid, len(b))
	}
	path, _, _ := bytes.Cut(b[4:], []byte{0})
	return string(path), nil
}

// startTime is when process pid started, in microseconds since the epoch.
func startTime(pid int) (uint64, error) {
	st, err := statOf(pid)
	return st.start, err
}

// WaitGone waits up to d for process pid, which need not be our child, to
// exit, and reports whether it did (a pid that is already gone counts).
func WaitGone(pid int, d time.Duration) bool {
	kq, err := unix.Kqueue()
	if err != nil {
		return !Alive(pid)
	}
	defer unix.Close(kq)
	change := []unix.Kevent_t{procExitEvent(pid, false)}
	events := make([]unix.Kevent_t, 1)
	end := time.Now().Add(d)
	for {
		ts := unix.NsecToTimespec(max(time.Until(end), 0).Nanoseconds())
		n, err := unix.Kevent(kq, change, events, &ts)
		change = nil
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return !Alive(pid)
		default:
			return n > 0 || !Alive(pid)
		}
	}
}

// procExitEvent is the kevent of pid's exit; with status, the exit status
// comes with it, which macOS tells only the process's parent.
func procExitEvent(pid int, status bool) unix.Kevent_t {
	var ev unix.Kevent_t
	unix.SetKevent(&ev, pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev.Fflags = unix.NOTE_EXIT
	if status {
		ev.Fflags |= unix.NOTE_EXITSTATUS
	}
	return ev
}
