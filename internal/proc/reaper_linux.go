package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// On Linux every command Start runs has a reaper for a parent: this very
// binary, re-executed (ReaperName), which the kernel makes the "child
// subreaper" of everything below it. A process whose parent exits is
// re-parented to its nearest subreaper ancestor instead of init, so a
// daemon the program starts by forking twice, in a session of its own and
// with a clean environment (neither group nor mark finds it), stays a
// descendant of the reaper and is killed with the tree. When the command
// itself exits, the reaper ends whatever it left behind, reaps it, and
// exits as the command did: however a run ends, nothing it started lives
// on.

// reaperVar, in a process's environment, makes this binary a reaper (see
// init): its value is the descriptor on which the reaper reports the pid of
// the command it started, or why it could not start it.
const reaperVar = "MCP_DEBUGGER_REAPER_FD"

// ReaperName is a reaper's argv[0], so that a look at the process table
// tells it from its command (whose path and arguments follow it).
const ReaperName = "mcp-debugger-reaper"

// reapersOff is set where this binary cannot be re-executed as a reaper
// (its file is gone), and commands then run as plain children.
var reapersOff = func() bool {
	_, err := os.Stat("/proc/self/exe")
	return err != nil
}()

// A binary that has this package becomes a reaper when its environment
// says so, before its main (or its tests) run. Package init is the one
// place every such binary passes through, a test binary included.
func init() {
	if fd, ok := os.LookupEnv(reaperVar); ok {
		os.Exit(runReaper(fd))
	}
}

// wrapInReaper rewrites cmd to run under a reaper, and returns the read end
// of the pipe on which the reaper reports the command's pid (nil if cmd
// runs as it is).
func wrapInReaper(cmd *exec.Cmd) *os.File {
	if reapersOff || cmd.Err != nil || cmd.Path == "" {
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	fd := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, w)
	cmd.Env = append(cmd.Environ(), fmt.Sprintf("%s=%d", reaperVar, fd))
	cmd.Args = append([]string{ReaperName, cmd.Path}, cmd.Args...)
	cmd.Path = "/proc/self/exe"
	closeAfterStart(cmd, w)
	return r
}

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// runReaper is the reaper's whole life: os.Args holds the command's path
// and its argv. It returns the exit status to exit with when it cannot die
// as the command did.
func runReaper(fdText string) int {
	// The command's Pdeathsig fires when the thread that started it ends.
	runtime.LockOSThread()
	_ = os.Unsetenv(reaperVar)
	fd, err := strconv.Atoi(fdText)
	if err != nil || fd < 3 || len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, ReaperName+": started without a command or a report descriptor")
		return 127
	}
	syscall.CloseOnExec(fd)
	report := os.NewFile(uintptr(fd), "reaper report")
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		fmt.Fprintf(report, "!%d\n", int(errno))
		return 127
	}
	// The command gets the signals its process group gets, and the server
	// kills the tree itself: the reaper outlives the command to clean up.
	// (Ignored signals would stay ignored in the command; caught ones do not.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	files := make([]uintptr, fd)
	for i := range files {
		files[i] = uintptr(i)
	}
	pid, err := syscall.ForkExec(os.Args[1], os.Args[2:], &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: files,
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		var errno syscall.Errno
		if !errors.As(err, &errno) {
			errno = syscall.ENOEXEC
		}
		fmt.Fprintf(report, "!%d\n", int(errno))
		return 127
	}
	fmt.Fprintf(report, "%d\n", pid)
	report.Close()
	status := waitFor(pid)
	if hasChildren() {
		// Whatever is below the reaper now has it for an ancestor.
		endAll(Descendants(os.Getpid()))
		reapAll(reapWait)
	}
	if status.Signaled() {
		dieBy(status.Signal())
	}
	return status.ExitStatus()
}

// waitFor reaps the reaper's children, adopted orphans included, until pid
// exits, and returns how it did.
func waitFor(pid int) syscall.WaitStatus {
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			// No child at all: it cannot happen while pid lives.
			return ws
		case got == pid:
			return ws
		}
	}
}

// hasChildren reports whether the reaper has a child, running or exited
// (reaping one that exited).
func hasChildren() bool {
	var ws syscall.WaitStatus
	_, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
	for errors.Is(err, syscall.EINTR) {
		_, err = syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
	}
	return err == nil
}

// endAll ends the given processes: SIGTERM, and SIGKILL for what is alive
// after killGrace.
func endAll(pids []int) {
	fds := pinAll(pids)
	signalAll(fds, syscall.SIGTERM)
	killAfter(fds, time.Now().Add(killGrace))
}

// reapAll reaps the reaper's children until it has none, for at most d.
func reapAll(d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			return
		case got == 0:
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// kernelSigaction is the kernel's struct sigaction (amd64 and arm64).
type kernelSigaction struct {
	handler, flags, restorer, mask uintptr
}

// dieBy ends the reaper by sig, as its command ended, so that whoever waits
// for it sees the same: the Go runtime's handler is replaced by the
// default action first, and no core is dumped (the command's was).
func dieBy(sig syscall.Signal) {
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	signal.Reset(sig)
	act := kernelSigaction{} // SIG_DFL
	_, _, _ = syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, unsafe.Sizeof(act.mask), 0, 0)
	_ = syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second)
	os.Exit(128 + int(sig))
}
