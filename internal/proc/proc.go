// Package proc starts helper processes (debug adapters, debuggees,
// compilers) each in a process group of its own, and kills them together
// with every descendant, so that no process outlives the session that
// started it.
package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// killGrace is how long a process group gets between SIGTERM and SIGKILL.
const killGrace = 300 * time.Millisecond

// Process is a started child process.
type Process struct {
	cmd  *exec.Cmd
	done chan struct{}

	mu       sync.Mutex
	waitErr  error
	exitCode int
}

var (
	liveMu sync.Mutex
	live   = map[*Process]struct{}{}
)

// Start starts cmd in a new process group. If the server dies without
// cleaning up, the kernel sends the child SIGKILL (Pdeathsig), and the child's
// group and descendants are killed by Kill or KillAll on an orderly exit.
func Start(cmd *exec.Cmd) (*Process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Process{cmd: cmd, done: make(chan struct{}), exitCode: -1}
	liveMu.Lock()
	live[p] = struct{}{}
	liveMu.Unlock()
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.waitErr = err
		if cmd.ProcessState != nil {
			p.exitCode = cmd.ProcessState.ExitCode()
		}
		p.mu.Unlock()
		liveMu.Lock()
		delete(live, p)
		liveMu.Unlock()
		close(p.done)
	}()
	return p, nil
}

// Pid is the process id (and process group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Done is closed when the process has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitCode is the exit status, or -1 while running or when killed by a signal.
func (p *Process) ExitCode() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exitCode
}

// Exited reports whether the process has ended.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Kill ends the process, its group and every descendant (found before any
// signal is sent, since a child that re-parents to init is lost to its
// group leader). It returns once the process itself has been reaped.
func (p *Process) Kill() {
	if p.Exited() {
		killTree(p.Pid(), false)
		return
	}
	killTree(p.Pid(), true)
	select {
	case <-p.done:
	case <-time.After(killGrace):
		killTree(p.Pid(), false)
		<-p.done
	}
}

// killTree signals pid's group and descendants: SIGTERM first when gentle,
// SIGKILL otherwise.
func killTree(pid int, gentle bool) {
	sig := syscall.SIGKILL
	if gentle {
		sig = syscall.SIGTERM
	}
	targets := append(Descendants(pid), pid)
	groups := map[int]bool{}
	for _, t := range targets {
		if g, err := syscall.Getpgid(t); err == nil && g != syscall.Getpgrp() {
			groups[g] = true
		}
	}
	groups[pid] = true
	for g := range groups {
		_ = syscall.Kill(-g, sig)
	}
	for _, t := range targets {
		_ = syscall.Kill(t, sig)
	}
}

// KillAll kills every process started by Start that is still alive. The
// server calls it on exit.
func KillAll() {
	liveMu.Lock()
	procs := make([]*Process, 0, len(live))
	for p := range live {
		procs = append(procs, p)
	}
	liveMu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Kill()
		}()
	}
	wg.Wait()
}

// Alive reports whether a process with this pid exists and is not a zombie.
func Alive(pid int) bool {
	state, _, err := statOf(pid)
	return err == nil && state != "Z" && state != "X"
}

// Descendants lists every live descendant of pid, read from /proc.
func Descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, ppid, err := statOf(child); err == nil {
			children[ppid] = append(children[ppid], child)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		for _, c := range children[next] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// statOf reads a process's state letter and parent pid from /proc/PID/stat.
func statOf(pid int) (state string, ppid int, err error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return "", 0, err
	}
	// The command name is in parentheses and may contain spaces.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, errors.New("proc: malformed stat")
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 2 {
		return "", 0, errors.New("proc: malformed stat")
	}
	ppid, err = strconv.Atoi(fields[1])
	if err != nil {
		return "", 0, fmt.Errorf("proc: parent pid: %w", err)
	}
	return fields[0], ppid, nil
}
