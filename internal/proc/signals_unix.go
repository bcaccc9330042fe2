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
