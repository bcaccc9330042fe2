package node

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// openInspector makes a running node open its inspector on its
// --inspect-port (default 9229). Windows has no SIGUSR1: node's own
// process._debugProcess(pid), run by another node, asks the target to
// open it, as the signal does elsewhere.
func openInspector(ctx context.Context, pid int) error {
	found, err := findNode(platform.Host(), "")
	if err != nil {
		return err
	}
	node := found.path
	script := "process._debugProcess(" + strconv.Itoa(pid) + ")"
	out, err := exec.CommandContext(ctx, node, "-e", script).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s -e %q: %w: %s", node, script, err, strings.TrimSpace(string(out)))
	}
	return nil
}
