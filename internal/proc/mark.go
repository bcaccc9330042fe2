package proc

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// A program a session launches carries MarkVar in its environment, and so
// does everything it starts, whatever happens to the process tree: a child
// that leaves the program's process group (setsid, start_new_session), one
// that outlives its parent and is reparented, a debuggee whose adapter was
// killed (lldb-server's inferior keeps running). A process group or a walk
// of the tree from the adapter misses those; the mark finds them. Its value
// is SERVER/RUN: SERVER is the server process's pid and start time (as in
// MkdirTemp's names), so that a later server can tell marks whose server is
// gone, and RUN names one run of one session.
const MarkVar = "MCP_DEBUGGER_RUN"

var (
	serverMarkOnce sync.Once
	serverMarkText string
)

// serverMark is this server's part of every mark: "PID.START".
func serverMark() string {
	serverMarkOnce.Do(func() {
		pid := os.Getpid()
		start, _ := startTime(pid)
		serverMarkText = fmt.Sprintf("%d.%d", pid, start)
	})
	return serverMarkText
}

// RunMark is the value of MarkVar for the processes of one run (run names
// it uniquely among this server's runs).
func RunMark(run string) string { return serverMark() + "/" + run }

// KillMarked SIGKILLs every process whose environment carries
// MarkVar=mark and returns their pids. Where a system cannot read other
// processes' environments it returns nil: there the process containers
// (a Windows job, a macOS process group) are what is left to rely on.
func KillMarked(mark string) []int {
	return killMarked(func(value string) bool { return value == mark })
}

// KillServerMarked kills the processes of every run of this server; the
// server calls it on exit (KillAll).
func KillServerMarked() []int {
	prefix := serverMark() + "/"
	return killMarked(func(value string) bool { return strings.HasPrefix(value, prefix) })
}

// SweepMarked kills the processes marked by servers that no longer run (a
// server killed by SIGKILL runs no cleanup), and returns their pids.
func SweepMarked() []int {
	return killMarked(func(value string) bool {
		server, _, ok := strings.Cut(value, "/")
		if !ok {
			return false
		}
		pidText, startText, ok := strings.Cut(server, ".")
		pid, err1 := strconv.Atoi(pidText)
		start, err2 := strconv.ParseUint(startText, 10, 64)
		return ok && err1 == nil && err2 == nil && !ownerRuns(pid, start)
	})
}
