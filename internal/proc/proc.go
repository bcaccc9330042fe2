// Package proc starts helper processes (debug adapters, debuggees,
// compilers) each in a process group of its own, and kills them together
// with every descendant, so that no process outlives the session that
// started it, nor the server. How is each operating system's business
// (platform, one implementation per OS); the promise and this package's
// API are the same on all of them.
package proc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// killGrace is how long a process group gets between SIGTERM and SIGKILL.
const killGrace = 300 * time.Millisecond

// pidReportWait bounds the wait for a reaper to report its command's pid.
const pidReportWait = 10 * time.Second

// Process is a started child process.
type Process struct {
	cmd  *exec.Cmd
	pid  int // the command's; cmd.Process is its reaper where it has one
	done chan struct{}

	mu       sync.Mutex
	waitErr  error
	exitCode int
}

// platform is one operating system's side of a process's lifetime.
type platform interface {
	// prepare readies cmd, before it starts, to run in a process group of
	// its own and to die with the server. Where it puts the command under
	// a reaper (reaper_linux.go), it returns the pipe on which the reaper
	// reports the command's pid.
	prepare(cmd *exec.Cmd) (report *os.File)
	// adopt takes in a process that has just started; an error means it
	// could not be tied to the server and must not run.
	adopt(p *Process) error
	// reaped is told that the leader has exited and been reaped.
	reaped(p *Process)
	// kill ends the process, its group and its descendants, and returns
	// once all of it has exited.
	kill(p *Process)
}

var (
	liveMu sync.Mutex
	live   = map[*Process]struct{}{}
)

// Start starts cmd in a new process group, tied to the server: the group
// and its descendants are killed by Kill, or by KillAll on an orderly exit,
// and the platform sees to it that they die too when the server dies
// without cleaning up.
func Start(cmd *exec.Cmd) (*Process, error) {
	// The caller's command stays as it wrote it (its Args name the
	// program, not a reaper), whatever prepare runs it through.
	path, args, env, extra := cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles
	report := host.prepare(cmd)
	err := cmd.Start()
	cmd.Path, cmd.Args, cmd.Env, cmd.ExtraFiles = path, args, env, extra
	// The child has its ends of OutputPipes' pipes (or never will): the
	// parent's copies must go, or the readers never see the end.
	if v, ok := pipeWriters.LoadAndDelete(cmd); ok {
		for _, f := range v.([]*os.File) {
			f.Close()
		}
	}
	if err != nil {
		if report != nil {
			report.Close()
		}
		return nil, err
	}
	pid := cmd.Process.Pid
	if report != nil {
		if pid, err = reportedPid(cmd, report); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, err
		}
	}
	p := &Process{cmd: cmd, pid: pid, done: make(chan struct{}), exitCode: -1}
	if err := host.adopt(p); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("tie process %d to the server: %w", cmd.Process.Pid, err)
	}
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
		host.reaped(p)
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
	closeAfterStart(cmd, ow, ew)
	return or, er, nil
}

// closeAfterStart has Start close files, the child's ends of pipes, in
// the parent once cmd has started.
func closeAfterStart(cmd *exec.Cmd, files ...*os.File) {
	if v, ok := pipeWriters.Load(cmd); ok {
		files = append(v.([]*os.File), files...)
	}
	pipeWriters.Store(cmd, files)
}

// Pid is the command's process id.
func (p *Process) Pid() int { return p.pid }

// reportedPid reads what the reaper of a started cmd reports on report:
// its command's pid, or the errno that kept the command from starting
// (then the reaper has exited, and the caller gets the error exec would
// have given).
func reportedPid(cmd *exec.Cmd, report *os.File) (int, error) {
	defer report.Close()
	_ = report.SetReadDeadline(time.Now().Add(pidReportWait))
	line, err := bufio.NewReader(report).ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("the reaper of %s reported no pid: %w", cmd.Path, err)
	}
	line = strings.TrimSuffix(line, "\n")
	if errno, ok := strings.CutPrefix(line, "!"); ok {
		n, _ := strconv.Atoi(errno)
		return 0, &os.PathError{Op: "fork/exec", Path: cmd.Path, Err: syscall.Errno(n)}
	}
	pid, err := strconv.Atoi(line)
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("the reaper of %s reported %q, not a pid", cmd.Path, line)
	}
	return pid, nil
}

// Done is closed when the process has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitCode is the exit status, or -1 while running or when killed by a signal.
func (p *Process) ExitCode() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exitCode
}

// WaitErr is how the process ended in Wait's words ("exit status 3",
// "signal: killed"), nil for exit status 0 or while it runs.
func (p *Process) WaitErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waitErr
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
// it has exited. A leader that has been reaped is never signalled by its
// pid, which may belong to another process by then.
func (p *Process) Kill() { host.kill(p) }

// watchdogPid is the server's watchdog process (watchdog_unix.go), 0 while
// there is none.
var watchdogPid atomic.Int64

// WatchdogName is the name the watchdog process runs under ($0 of its
// shell), so that a look at the process table tells it from a leftover.
const WatchdogName = "mcp-debugger-watchdog"

// KillAll kills every process started by Start that is still alive, and
// every process a run of this server marked (KillServerMarked). The server
// calls it on exit.
func KillAll() {
	defer func() {
		KillServerMarked()
		dismissWatchdog()
	}()
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

// Descendants lists every live descendant of pid.
// The server's own watchdog is left out: it is no process of a session's,
// and outlives the server on purpose.
func Descendants(pid int) []int {
	children := map[int][]int{}
	watchdog := int(watchdogPid.Load())
	for child, parent := range parents() {
		if child != watchdog {
			children[parent] = append(children[parent], child)
		}
	}
	// Seen ones are skipped: Windows's parent ids may be stale, and stale
	// links could make a cycle.
	seen := map[int]bool{pid: true}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		for _, c := range children[next] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
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
		if got, err := exeOf(d); err == nil && sameFile(got, want) {
			return d
		}
	}
	return 0
}

// sameFile says whether two paths name the same file, as os.SameFile does.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
