package golang

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
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
	// machine is where dlv is looked for; tests replace it to keep this
	// machine out.
	machine platform.Machine
}

func newFinder() *finder {
	return &finder{machine: platform.Host()}
}

// candidates lists where dlv may be, in order of preference: the explicit
// choice, DLV_PATH, $GOBIN, each $GOPATH/bin, ~/go/bin (go install's
// default; %USERPROFILE%\go\bin on Windows), then PATH. Named ones come
// with their origin so that a wrong name is reported rather than silently
// replaced.
func (f *finder) candidates(explicit string) (named []candidate, dirs []string) {
	m := f.machine
	if explicit != "" {
		named = append(named, candidate{explicit, "executablePath"})
	}
	if v := m.Getenv(dlvPathEnv); v != "" {
		named = append(named, candidate{v, dlvPathEnv})
	}
	if v := m.Getenv("GOBIN"); v != "" {
		dirs = append(dirs, v)
	}
	for _, p := range m.OS.SplitList(m.Getenv("GOPATH")) {
		dirs = append(dirs, m.OS.Join(p, "bin"))
	}
	if h := m.Home(); h != "" {
		dirs = append(dirs, m.OS.Join(h, "go", "bin"))
	}
	dirs = append(dirs, m.OS.SplitList(m.Getenv("PATH"))...)
	return named, dirs
}

type candidate struct {
	path, origin string
}

// locate returns the dlv to try and where it came from: the first named
// one, or else the first found in the directories (dlv.exe on Windows).
func (f *finder) locate(explicit string) (c candidate, looked []string, err error) {
	named, dirs := f.candidates(explicit)
	if len(named) > 0 {
		c := named[0]
		p, err := f.machine.LookPath(c.path)
		if err != nil {
			return c, nil, fmt.Errorf("dlv %s (%s): not found or not executable", c.path, c.origin)
		}
		return candidate{p, c.origin}, nil, nil
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		looked = append(looked, d)
		if p, err := f.machine.LookIn("dlv", []string{d}); err == nil {
			return candidate{p, d}, looked, nil
		}
	}
	return candidate{}, looked, fmt.Errorf("dlv (Delve) not found; looked in %s, %s, $GOBIN, $GOPATH/bin, ~/go/bin and PATH (%s)",
		"executablePath", dlvPathEnv, strings.Join(looked, ", "))
}

// find returns the dlv to use, which must answer `dlv version`.
func (f *finder) find(ctx context.Context, explicit string) (*dlv, error) {
	c, _, err := f.locate(explicit)
	if err != nil {
		return nil, err
	}
	v, err := f.version(ctx, c.path)
	if err != nil {
		if c.origin == "executablePath" || c.origin == dlvPathEnv {
			return nil, fmt.Errorf("dlv %s (%s): %w", c.path, c.origin, err)
		}
		return nil, fmt.Errorf("dlv %s: %w", c.path, err)
	}
	return &dlv{path: c.path, version: v}, nil
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
