//go:build unix

package userfile

import "syscall"

// openNonBlocking opens a FIFO without waiting for a writer.
const openNonBlocking = syscall.O_NONBLOCK
