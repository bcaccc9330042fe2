package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// hostPlatform is Linux: process groups, pidfds and Pdeathsig.
type hostPlatform struct{}

// host is this operating system's platform.
var host platform = hostPlatform{}

// prepare puts cmd under a reaper (reaper_linux.go), in a new process
// group. If the server dies without cleaning up, the kernel sends the
// reaper SIGKILL (Pdeathsig), and the reaper's death sends it to the
// command.
func (hostPlatform) prepare(cmd *exec.Cmd) *os.File {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	return wrapInReaper(cmd)
}

// adopt starts the watchdog with the first child. Pdeathsig ends the
// server's own children when it dies; a program of a run whose adapter it
// killed that way may keep running (a tracee its debugger leaves behind),
// and only the watchdog, which outlives the server, can end it then.
func (hostPlatform) adopt(*Process) error { return watchdog.ensure() }

// watchdog sweeps the marked processes of a server that died without
// cleaning up.
var watchdog groupWatchdog

// ensure starts the watchdog, for its sweep of marked processes alone.
func (g *groupWatchdog) ensure() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.startLocked()
}

func (hostPlatform) reaped(*Process) {}

// kill ends p and everything it started, and returns once all of it has
// exited. The tree is found by process group as well as by parent
// (a child whose parent already exited is re-parented to init and lost to
// the parent walk, but stays in the group: debugpy's launcher does this when
// its adapter exits first), and pinned with pidfds before any signal, so pid
// reuse cannot redirect one. Everything gets SIGTERM (SIGKILL if the leader
// is already gone), and whatever is alive after killGrace gets SIGKILL.
//
// Once the leader has been reaped its pid is free, and the kernel hands it
// out again as soon as nothing uses it as a pid or a process group id: on
// a busy machine (pid_max 32768 here) a later process, possibly another
// session's program, then holds it, as leader of a group of its own. So a
// reaped leader is never signalled by pid or group id; its group's members
// (which keep the number reserved while they live) are pinned and
// signalled through pidfds, and only if no process holds the pid again.
func (hostPlatform) kill(p *Process) {
	reaped := p.Exited()
	if reaped && pidTaken(p.leader()) {
		// Reused: nothing of ours can be left in that group (the number
		// was free, so the group had emptied), and its children are not
		// ours.
		return
	}
	fds := pinAll(treeOf(p.leader()))
	sig := syscall.SIGTERM
	if reaped {
		sig = syscall.SIGKILL
	} else {
		// Not reaped yet, so the pid is still the leader's (it could be
		// reaped and reused in between only by cycling through every pid).
		_ = syscall.Kill(-p.leader(), sig)
		_ = syscall.Kill(p.leader(), sig)
	}
	signalAll(fds, sig)
	deadline := time.Now().Add(killGrace)
	select {
	case <-p.done:
	case <-time.After(killGrace):
		_ = syscall.Kill(-p.leader(), syscall.SIGKILL)
		_ = syscall.Kill(p.leader(), syscall.SIGKILL)
		<-p.done
	}
	killAfter(fds, deadline)
}

// pidTaken reports whether some process or thread holds pid now (a zombie
// included: its pid is not free either).
func pidTaken(pid int) bool {
	_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid)))
	return err == nil
}

// Alive reports whether a process with this pid exists and is not a zombie.
func Alive(pid int) bool {
	_, err := statOf(pid)
	return err == nil
}

// procStat is what we read of /proc/PID/stat.
type procStat struct {
	ppid, pgrp int
	// start is when the process started (clock ticks after boot, field
	// 22), which with the pid identifies it even after the pid is reused.
	start uint64
}

// scan reads every live (not zombie) process.
func scan() map[int]procStat {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := map[int]procStat{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := statOf(pid); err == nil {
			out[pid] = st
		}
	}
	return out
}

var errGone = errors.New("proc: no such live process")

// statFields reads a stat file (/proc/PID/stat, /proc/PID/task/TID/stat)
// and returns its fields from the third on: field 3 (the state) is f[0],
// so field N is f[N-3]. At least min of them must be there.
func statFields(path string, min int) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	// The command name is in parentheses and may contain anything.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, fmt.Errorf("%w: %s", errMalformed, path)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < min {
		return nil, fmt.Errorf("%w: %s", errMalformed, path)
	}
	return f, nil
}

// errMalformed is a stat file that does not read as one.
var errMalformed = errors.New("proc: malformed stat")

// statOf reads a live process's parent and group from /proc/PID/stat.
func statOf(pid int) (procStat, error) {
	f, err := statFields(filepath.Join("/proc", strconv.Itoa(pid), "stat"), 20)
	if err != nil {
		return procStat{}, err
	}
	if f[0] == "Z" || f[0] == "X" {
		return procStat{}, errGone
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, fmt.Errorf("proc: malformed stat of %d", pid)
	}
	return procStat{ppid: ppid, pgrp: pgrp, start: start}, nil
}

// exeOf is the executable process pid runs.
func exeOf(pid int) (string, error) {
	return os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
}

// startTime is when process pid started, in clock ticks after boot.
func startTime(pid int) (uint64, error) {
	st, err := statOf(pid)
	return st.start, err
}
