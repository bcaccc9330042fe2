//go:build unix

package node

import (
	"context"
	"fmt"
	"syscall"
)

// openInspector makes a running node open its inspector on its
// --inspect-port (default 9229): node does on SIGUSR1.
func openInspector(_ context.Context, pid int) error {
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		return fmt.Errorf("SIGUSR1: %w", err)
	}
	return nil
}
