//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The soak finds the processes it caused by a variable in their
// environment, which every child inherits from its server (adapters,
// builds) or gets from start_debugging's env (the programs): a process is
// found wherever it was reparented, which a walk of the process tree from
// the server would miss.
const (
	// soakRunVar marks every process of one soak run.
	soakRunVar = "MCP_DEBUGGER_SOAK_RUN"
	// soakSessionVar marks one session's program.
	soakSessionVar = "MCP_DEBUGGER_SOAK_SESSION"
)

// procInfo is one process as /proc shows it.
type procInfo struct {
	pid, ppid int
	cmdline   string
	env       []byte
}

func (p procInfo) String() string { return fmt.Sprintf("%d (%s)", p.pid, p.cmdline) }

// hasVar reports whether the process started with name=value in its
// environment.
func (p procInfo) hasVar(name, value string) bool {
	want := []byte(name + "=" + value)
	for _, kv := range bytes.Split(p.env, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true
		}
	}
	return false
}

// processes lists the live processes (zombies left out: they hold nothing
// and are their parent's to reap) whose environment has name=value.
func processes(name, value string) []procInfo {
	entries, _ := os.ReadDir("/proc")
	var out []procInfo
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := readProc(pid)
		if ok && p.hasVar(name, value) {
			out = append(out, p)
		}
	}
	return out
}

// readProc reads one process; ok is false for one that is gone or a zombie.
func readProc(pid int) (procInfo, bool) {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	stat, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return procInfo{}, false
	}
	// The command name, in parentheses, may hold spaces: the fields after
	// it start at the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return procInfo{}, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 || fields[0] == "Z" || fields[0] == "X" {
		return procInfo{}, false
	}
	ppid, _ := strconv.Atoi(fields[1])
	env, _ := os.ReadFile(filepath.Join(dir, "environ"))
	cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
	return procInfo{pid: pid, ppid: ppid, env: env, cmdline: strings.TrimSpace(string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))}, true
}

// waitNone waits up to d for no live process to carry name=value, and
// returns those still there.
func waitNone(name, value string, d time.Duration) []procInfo {
	deadline := time.Now().Add(d)
	for {
		left := processes(name, value)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// topBelow is the ancestor of pid whose parent is server: the adapter
// that started a program (debugpy's adapter above its launcher, dlv,
// lldb-dap), or the program itself when the server started it (Node, the
// JVM). ok is false when pid does not descend from server.
func topBelow(pid, server int) (int, bool) {
	for range 64 {
		p, ok := readProc(pid)
		if !ok {
			return 0, false
		}
		if p.ppid == server {
			return pid, true
		}
		if p.ppid <= 1 {
			return 0, false
		}
		pid = p.ppid
	}
	return 0, false
}

// memoryOf returns a process's resident set in KiB and its open file
// descriptors.
func memoryOf(pid int) (rssKiB, fds int) {
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			rssKiB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	entries, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return rssKiB, len(entries)
}

// tempDirsOf lists the temporary directories named after server pid (see
// proc.MkdirTemp: mcp-debugger-KIND-PID.START-RANDOM).
func tempDirsOf(pid int) []string {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("mcp-debugger-*-%d.*", pid)))
	return matches
}
