package golang

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

const (
	// dlvPathEnv names the dlv the user prefers.
	dlvPathEnv = "DLV_PATH"
	// versionTimeout bounds `dlv version`, which answers in milliseconds;
	// more means it hangs.
	versionTimeout = 10 * time.Second
)

// dlv is a Delve binary found on this machine.
type dlv struct {
	path    string
	version string
}

// finder locates dlv and remembers what `dlv version` said about each
// binary until that binary changes.
type finder struct {
	versions adapter.VersionCache

	// getenv and home are replaced by tests to keep the machine out.
	getenv func(string) string
	home   func() (string, error)
}

func newFinder() *finder {
	return &finder{getenv: os.Getenv, home: os.UserHomeDir}
}

// candidates lists where dlv may be, in order of preference: the explicit
// choice, DLV_PATH, $GOBIN, each $GOPATH/bin, ~/go/bin (go install's
// default), then PATH. Named ones come with their origin so that a wrong
// name is reported rather than silently replaced.
func (f *finder) candidates(explicit string) (named []candidate, dirs []string) {
	if explicit != "" {
		named = append(named, candidate{explicit, "executablePath"})
	}
	if v := f.getenv(dlvPathEnv); v != "" {
		named = append(named, candidate{v, dlvPathEnv})
	}
	if v := f.getenv("GOBIN"); v != "" {
		dirs = append(dirs, v)
	}
	for _, p := range filepath.SplitList(f.getenv("GOPATH")) {
		if p != "" {
			dirs = append(dirs, filepath.Join(p, "bin"))
		}
	}
	if h, err := f.home(); err == nil && h != "" {
		dirs = append(dirs, filepath.Join(h, "go", "bin"))
	}
	dirs = append(dirs, filepath.SplitList(f.getenv("PATH"))...)
	return named, dirs
}

type candidate struct {
	path, origin string
}

// find returns the dlv to use: the first named one (which must work), or
// else the first found in the directories.
func (f *finder) find(ctx context.Context, explicit string) (*dlv, error) {
	named, dirs := f.candidates(explicit)
	if len(named) > 0 {
		c := named[0]
		p, err := adapter.LookPath(c.path, f.getenv("PATH"))
		if err != nil {
			return nil, fmt.Errorf("dlv %s (%s): not found or not executable", c.path, c.origin)
		}
		v, err := f.version(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("dlv %s (%s): %w", p, c.origin, err)
		}
		return &dlv{path: p, version: v}, nil
	}
	var looked []string
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" || seen[d] {
			continue
		}
		seen[d] = true
		looked = append(looked, d)
		p := filepath.Join(d, "dlv")
		if !adapter.IsExecutable(p) {
			continue
		}
		v, err := f.version(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("dlv %s: %w", p, err)
		}
		return &dlv{path: p, version: v}, nil
	}
	return nil, fmt.Errorf("dlv (Delve) not found; looked in %s, %s, $GOBIN, $GOPATH/bin, ~/go/bin and PATH (%s)",
		"executablePath", dlvPathEnv, strings.Join(looked, ", "))
}

// version runs `dlv version` unless the binary is unchanged since the last
// time.
func (f *finder) version(ctx context.Context, path string) (string, error) {
	return f.versions.Version(ctx, path, func(ctx context.Context) (string, error) { return runVersion(ctx, path) })
}

func runVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "version")
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("`dlv version` failed (%v): %s", err, strings.TrimSpace(out.String()))
	}
	v := parseVersion(out.String())
	if v == "" {
		return "", errors.New("not Delve: `dlv version` printed no version")
	}
	return v, nil
}

// parseVersion reads "Version: 1.27.2" from `dlv version`.
func parseVersion(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Version:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
