package node

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// nodeVersion runs `node --version` ("v20.20.2" -> 20, 20, "v20.20.2").
func nodeVersion(ctx context.Context, node string) (major, minor int, text string, err error) {
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
		return 0, 0, "", err
	}
	parts := strings.Split(strings.TrimPrefix(text, "v"), ".")
	if len(parts) < 2 {
		return 0, 0, text, fmt.Errorf("unexpected node version %q", text)
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return 0, 0, text, fmt.Errorf("unexpected node version %q", text)
	}
	return major, minor, text, nil
}

// typeScriptRunner returns the node options that run a .ts program: none
// where Node strips types by default (23.6+, 22.18+), the flag where it has
// it (22.6+), else a runner from the program's project: tsx (--import tsx)
// or ts-node (-r ts-node/register), found in a node_modules above it.
// stripped says Node's own type stripping runs it: the .ts files are then
// the scripts, as written, with no source map.
func typeScriptRunner(node, program string) (opts []string, stripped bool, err error) {
	major, minor, version, err := nodeVersion(context.Background(), node)
	if err != nil {
		return nil, false, err
	}
	switch {
	case major > 23 || major == 23 && minor >= 6 || major == 22 && minor >= 18:
		return nil, true, nil
	case major == 23 || major == 22 && minor >= 6:
		return []string{"--experimental-strip-types"}, true, nil
	}
	for dir := filepath.Dir(program); ; dir = filepath.Dir(dir) {
		mods := filepath.Join(dir, "node_modules")
		if _, err := os.Stat(filepath.Join(mods, "tsx", "package.json")); err == nil {
			// --import resolves from the working directory, which
			// defaults to the program's.
			return []string{"--import", "tsx"}, false, nil
		}
		if _, err := os.Stat(filepath.Join(mods, "ts-node", "package.json")); err == nil {
			return []string{"-r", filepath.Join(mods, "ts-node", "register")}, false, nil
		}
		if parent := filepath.Dir(dir); parent == dir {
			break
		}
	}
	return nil, false, fmt.Errorf("cannot run %s: node %s cannot run TypeScript itself (Node 22.6 or later can), and no tsx or ts-node was found in a node_modules above it; install one (npm install --save-dev tsx), upgrade Node, or compile with tsc and debug the .js (its source map is followed)", filepath.Base(program), version)
}
