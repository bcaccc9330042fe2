package node

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// installHint is the command that installs node on o.
func installHint(o platform.OS) string {
	return platform.InstallCommands{
		Apt:    "apt-get install nodejs",
		Brew:   "brew install node",
		Winget: "winget install OpenJS.NodeJS.LTS",
	}.For(o)
}

// nodeRuntime is the node that runs the program and why it was chosen.
type nodeRuntime struct {
	path, origin string
}

// line is the answer's runtime line.
func (n nodeRuntime) line() string { return "node: " + n.path + " (" + n.origin + ")" }

// installedNodes are where node's own installers put it when an agent's
// PATH (without the shell's init) lacks it: Homebrew's prefixes on macOS
// (Apple silicon, Intel), the official installer's directory on Windows.
func installedNodes(m platform.Machine) []string {
	switch m.OS.Name {
	case platform.Darwin.Name:
		return []string{"/opt/homebrew/bin/node", "/usr/local/bin/node"}
	case platform.Windows.Name:
		programFiles := m.Getenv("ProgramFiles")
		if programFiles == "" {
			programFiles = `C:\Program Files`
		}
		return []string{m.OS.Join(programFiles, "nodejs", "node.exe")}
	}
	return nil
}

// findNode picks the node to run on m: the one the user chose, else
// PATH's, else one where its installer puts it.
func findNode(m platform.Machine, chosen string) (nodeRuntime, error) {
	if chosen != "" {
		if _, err := m.Files.Stat(chosen); err != nil {
			return nodeRuntime{}, fmt.Errorf("node executable %s: %w", chosen, err)
		}
		return nodeRuntime{chosen, "executablePath"}, nil
	}
	if p, err := m.LookPath("node"); err == nil {
		return nodeRuntime{p, "PATH"}, nil
	}
	for _, p := range installedNodes(m) {
		if m.IsExecutable(p) {
			return nodeRuntime{p, "installed, not on PATH"}, nil
		}
	}
	return nodeRuntime{}, fmt.Errorf("node was not found on PATH: %w", exec.ErrNotFound)
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
