package proc

import (
	"fmt"
	"syscall"
)

// Ending is how a process ended, as its wait status says.
type Ending struct {
	// Known is false when the status could not be read (Linux: the process
	// was reaped by its parent before we looked, on a kernel without
	// PIDFD_INFO_EXIT; macOS: it was not our child).
	Known bool
	// Signal is the signal that killed the process, 0 if it exited.
	Signal syscall.Signal
	// Code is the exit code when it exited (Windows: also when it was
	// terminated, which has no signal).
	Code int
}

// SignalName names the signal that ended the process ("SIGKILL"), or ""
// when it exited or the status is unknown.
func (e Ending) SignalName() string {
	if !e.Known || e.Signal == 0 {
		return ""
	}
	return SignalName(e.Signal)
}

// SignalName is the conventional name of sig ("SIGKILL").
func SignalName(sig syscall.Signal) string {
	if name, ok := signalNames[sig]; ok {
		return name
	}
	return fmt.Sprintf("signal %d", int(sig))
}

// signalNames names the signals every platform's package syscall has;
// signals_unix.go adds those only Unix has (SIGUSR1, ...).
var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGILL: "SIGILL", syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT",
	syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL",
	syscall.SIGSEGV: "SIGSEGV", syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM",
	syscall.SIGTERM: "SIGTERM",
}
