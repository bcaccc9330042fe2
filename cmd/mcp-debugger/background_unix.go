//go:build unix

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// privateToUser reports whether the directory fi describes is the user's
// own with no access for others.
func privateToUser(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o077 == 0
}

// lockExclusive waits for the exclusive lock on f (released when f closes).
func lockExclusive(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
}

// processAlive reports whether pid exists.
func processAlive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// detach starts cmd in a session of its own: the shell that ran the first
// call may end, and its signals (a ^C to a later command) are not the
// server's.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// askToExit asks pid to shut down; false when there is no such process.
func askToExit(pid int) bool { return syscall.Kill(pid, syscall.SIGTERM) == nil }

// forceExit kills pid.
func forceExit(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
