package node

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// installHint is how to get node on the Debian machines this project
// targets.
const installHint = "apt-get install nodejs"

// findNode picks the node to run: the one the user chose, else PATH's.
func findNode(chosen string) (string, error) {
	if chosen != "" {
		if _, err := os.Stat(chosen); err != nil {
			return "", fmt.Errorf("node executable %s: %w", chosen, err)
		}
		return chosen, nil
	}
	p, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("node was not found on PATH: %w", err)
	}
	return p, nil
}

// versions remembers what `node --version` said of each node binary until
// it changes: every launch asks (launchFlags), and node takes tens of
// milliseconds to answer.
var versions adapter.VersionCache

// nodeVersion runs `node --version` ("v20.20.2").
func nodeVersion(ctx context.Context, node string) (release adapter.Release, text string, err error) {
	if p, err := exec.LookPath(node); err == nil {
		node = p
	}
	text, err = versions.Version(ctx, node, func(ctx context.Context) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, node, "--version").Output()
		if err != nil {
			return "", fmt.Errorf("%s --version: %w", node, err)
		}
		return strings.TrimSpace(string(out)), nil
	})
	if err != nil {
		return nil, "", err
	}
	release, ok := adapter.ParseRelease(text)
	if !ok {
		return nil, text, fmt.Errorf("unexpected node version %q", text)
	}
	return release, text, nil
}

// RunsTypeScript reports whether the node that reports version v runs a
// .ts file itself (type stripping, from 22.6); an unreadable version
// counts as yes, so that the launch itself says what is wrong.
func RunsTypeScript(v string) bool {
	r, ok := adapter.ParseRelease(v)
	return !ok || r.AtLeast(22, 6)
}
