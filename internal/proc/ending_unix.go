//go:build unix

package proc

import "syscall"

// Windows's package syscall lacks these signals.
func init() {
	for sig, name := range map[syscall.Signal]string{
		syscall.SIGUSR1: "SIGUSR1", syscall.SIGUSR2: "SIGUSR2",
		syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ", syscall.SIGSYS: "SIGSYS",
	} {
		signalNames[sig] = name
	}
}

// endingFromStatus reads a Unix wait status.
func endingFromStatus(status syscall.WaitStatus) Ending {
	if status.Signaled() {
		return Ending{Known: true, Signal: status.Signal()}
	}
	return Ending{Known: true, Code: status.ExitStatus()}
}
