//go:build unix

package proc

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// watchdogScript exits when told "x" (the server cleaned up itself), and
// otherwise kills, once its standard input ends, the process groups it was
// told of ("+ PGID") and not told to forget ("- PGID"), and, where
// /proc shows processes' environments (Linux), every process marked by a
// run of the server (MarkVar=SERVER/…, SERVER its first argument). Its input
// is a pipe only the server writes to, so it ends when the server does,
// however it dies: the kernel closes a dead process's descriptors, SIGKILL
// included. It ignores the signals a terminal or a supervisor sends the
// server's group, so that it outlives the server.
const watchdogScript = `trap '' HUP INT TERM
groups=
while read -r op group; do
	case $op in
	x) exit 0 ;;
	+) groups="$groups $group" ;;
	-)
		kept=
		for g in $groups; do
			[ "$g" = "$group" ] || kept="$kept $g"
		done
		groups=$kept
		;;
	esac
done
for g in $groups; do
	kill -s KILL -- "-$g" 2>/dev/null
done
[ -n "$1" ] && [ -d /proc/self ] || exit 0
for env in /proc/[0-9]*/environ; do
	if tr '\0' '\n' <"$env" 2>/dev/null | grep -q "^` + MarkVar + `=$1/"; then
		pid=${env#/proc/}
		kill -s KILL "${pid%/environ}" 2>/dev/null
	fi
done
`

// groupWatchdog kills the server's process groups when the server dies
// without cleaning up, where the kernel has no Pdeathsig to do it (macOS).
// It is a POSIX shell, started with the first group, in a group of its
// own; it exits once it has done its work.
type groupWatchdog struct {
	mu     sync.Mutex
	in     io.WriteCloser  // the watchdog's standard input; nil until started
	exited <-chan struct{} // closed once the watchdog has exited and been reaped
	err    error           // why it could not start, for good
}

// start starts the watchdog once; later calls return the first one's
// error, if any. Callers hold g.mu.
func (g *groupWatchdog) startLocked() error {
	if g.in == nil && g.err == nil {
		g.in, g.exited, g.err = startWatchdog()
	}
	return g.err
}

// add tells the watchdog of process group pgid.
func (g *groupWatchdog) add(pgid int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.startLocked(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(g.in, "+ %d\n", pgid); err != nil {
		return fmt.Errorf("watchdog: %w", err)
	}
	return nil
}

// dismiss tells the watchdog that the server has cleaned up itself, so
// that it exits without killing or sweeping anything, and waits (at most
// watchdogExitWait) until it has: a server that returned from its cleanup
// leaves no process behind, not even the watchdog for the moment the shell
// takes to read its line.
func (g *groupWatchdog) dismiss() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.in == nil {
		return
	}
	_, _ = fmt.Fprintln(g.in, "x")
	select {
	case <-g.exited:
	case <-time.After(watchdogExitWait):
	}
}

// watchdogExitWait bounds how long a dismissed watchdog may take to exit
// before the server stops waiting for it (it exits by itself later).
const watchdogExitWait = 3 * time.Second

// dismissWatchdog dismisses the server's watchdog, if it has one.
func dismissWatchdog() { watchdog.dismiss() }

// forget tells the watchdog that group pgid is gone, so that it never
// signals whatever process group gets the number next.
func (g *groupWatchdog) forget(pgid int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.in != nil {
		_, _ = fmt.Fprintf(g.in, "- %d\n", pgid)
	}
}

// startWatchdog starts the shell and returns its standard input. The pipe's
// write end is close-on-exec, so no other child of the server holds it
// open past the server's death.
func startWatchdog() (io.WriteCloser, <-chan struct{}, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("watchdog pipe: %w", err)
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, WatchdogName, serverMark())
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, nil, fmt.Errorf("start the watchdog: %w", err)
	}
	watchdogPid.Store(int64(cmd.Process.Pid))
	// Reaped when it ends; only dismiss waits for that.
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	return w, exited, nil
}
