//go:build windows

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// privateToUser: the runtime directory lies in the user's own profile
// (%TEMP%), which the profile's ACLs already keep from other users.
func privateToUser(os.FileInfo) bool { return true }

// lockExclusive: no file lock here; two first calls at the same moment
// may start two servers, and the one whose state file loses is left to
// exit when idle.
func lockExclusive(*os.File) error { return nil }

// processAlive reports whether pid exists.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	// FindProcess opens the process on Windows; signal 0 is not
	// supported, so a process that can be opened counts as alive.
	_ = p.Release()
	return true
}

// detach starts cmd in a process group of its own, without a console, so
// that the shell that ran the first call may end.
func detach(cmd *exec.Cmd) {
	const detachedProcess = 0x00000008
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}

// askToExit ends pid: Windows has no SIGTERM to send another process.
func askToExit(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Kill() == nil
}

// forceExit kills pid.
func forceExit(pid int) { askToExit(pid) }
