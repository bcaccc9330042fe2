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
	"sync"
	"time"
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
	mu    sync.Mutex
	cache map[string]probed

	// getenv and home are replaced by tests to keep the machine out.
	getenv func(string) string
	home   func() (string, error)
}

// probed is one binary's version, valid while its stamp is unchanged.
type probed struct {
	stamp   stamp
	version string
	err     error
}

type stamp struct {
	mtime time.Time
	size  int64
}

func newFinder() *finder {
	return &finder{cache: map[string]probed{}, getenv: os.Getenv, home: os.UserHomeDir}
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
		p, err := lookPath(c.path, f.getenv("PATH"))
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
		if !isExecutable(p) {
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

// lookPath resolves a name or path against PATH.
func lookPath(name, path string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) {
		if isExecutable(name) {
			return filepath.Abs(name)
		}
		return "", exec.ErrNotFound
	}
	for _, d := range filepath.SplitList(path) {
		if p := filepath.Join(d, name); d != "" && isExecutable(p) {
			return filepath.Abs(p)
		}
	}
	return "", exec.ErrNotFound
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// version runs `dlv version` unless the binary is unchanged since the last
// time.
func (f *finder) version(ctx context.Context, path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	now := stamp{st.ModTime(), st.Size()}
	f.mu.Lock()
	c, ok := f.cache[path]
	f.mu.Unlock()
	if ok && c.stamp == now {
		return c.version, c.err
	}
	v, err := runVersion(ctx, path)
	if err != nil && ctx.Err() != nil {
		return "", err // the caller gave up: not the binary's fault
	}
	f.mu.Lock()
	f.cache[path] = probed{stamp: now, version: v, err: err}
	f.mu.Unlock()
	return v, err
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
