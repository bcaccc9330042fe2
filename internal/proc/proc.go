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
	err := cmd.Start()
	// The child has its ends of OutputPipes' pipes (or never will): the
	// parent's copies must go, or the readers never see the end.
	if v, ok := pipeWriters.LoadAndDelete(cmd); ok {
		for _, f := range v.([]*os.File) {
			f.Close()
		}
	}
	if err != nil {
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

// pipeWriters holds, per command, the child's ends of the pipes
// OutputPipes made, for Start to close in the parent.
var pipeWriters sync.Map // *exec.Cmd -> []*os.File

// OutputPipes connects cmd's stdout and stderr to pipes whose read ends
// the caller owns, reads to the end and closes. Unlike exec.Cmd's
// StdoutPipe, whose read end Wait closes as soon as the process exits
// (Start waits at once, to know when it does), these keep what the
// process wrote last until it has been read: a reader that lags behind a
// process that is exiting loses no output. Call it before Start.
func OutputPipes(cmd *exec.Cmd) (stdout, stderr *os.File, err error) {
	or, ow, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("stdout pipe: %w", err)
	}
	er, ew, err := os.Pipe()
	if err != nil {
		or.Close()
		ow.Close()
		return nil, nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = ow, ew
	pipeWriters.Store(cmd, []*os.File{ow, ew})
	return or, er, nil
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

// Kill ends the process and everything it started, and returns once all of
// it has exited. The tree is found by process group as well as by parent
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
func (p *Process) Kill() {
	reaped := p.Exited()
	if reaped && pidTaken(p.Pid()) {
		// Reused: nothing of ours can be left in that group (the number
		// was free, so the group had emptied), and its children are not
		// ours.
		return
	}
	var fds []int
	for _, pid := range treeOf(p.Pid()) {
		if fd, err := pidfdOpen(pid); err == nil {
			fds = append(fds, fd)
		}
	}
	sig := syscall.SIGTERM
	if reaped {
		sig = syscall.SIGKILL
	} else {
		// Not reaped yet, so the pid is still the leader's (it could be
		// reaped and reused in between only by cycling through every pid).
		_ = syscall.Kill(-p.Pid(), sig)
		_ = syscall.Kill(p.Pid(), sig)
	}
	for _, fd := range fds {
		_ = pidfdSignal(fd, sig)
	}
	deadline := time.Now().Add(killGrace)
	select {
	case <-p.done:
	case <-time.After(killGrace):
		_ = syscall.Kill(-p.Pid(), syscall.SIGKILL)
		_ = syscall.Kill(p.Pid(), syscall.SIGKILL)
		<-p.done
	}
	for _, fd := range fds {
		if !pidfdWait(fd, time.Until(deadline)) {
			_ = pidfdSignal(fd, syscall.SIGKILL)
			pidfdWait(fd, reapWait)
		}
		syscall.Close(fd)
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

// Descendants lists every live descendant of pid, read from /proc.
func Descendants(pid int) []int {
	children := map[int][]int{}
	for child, st := range scan() {
		children[st.ppid] = append(children[st.ppid], child)
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

// DescendantRunning finds the live descendant of pid that runs the
// executable exe (an absolute path), 0 if there is none: a debug adapter's
// debuggee, for adapters that do not say its pid.
func DescendantRunning(pid int, exe string) int {
	want, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return 0
	}
	for _, d := range Descendants(pid) {
		if got, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(d), "exe")); err == nil && got == want {
			return d
		}
	}
	return 0
}
