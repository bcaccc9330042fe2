package adapter

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// LookPath resolves name to an absolute executable: a path as given, or a
// command searched in path (a PATH-style list, so tests can pass their own).
func LookPath(name, path string) (string, error) {
	if strings.ContainsRune(name, filepath.Separator) {
		if IsExecutable(name) {
			return filepath.Abs(name)
		}
		return "", exec.ErrNotFound
	}
	for _, d := range filepath.SplitList(path) {
		if p := filepath.Join(d, name); d != "" && IsExecutable(p) {
			return filepath.Abs(p)
		}
	}
	return "", exec.ErrNotFound
}

// IsExecutable reports whether p is a regular file someone may execute.
func IsExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// VersionCache remembers what a version probe said about each binary until
// the binary changes (modification time or size), so that availability
// checks, run on every list_supported_languages, stay cheap and still
// notice an upgrade. The zero value is ready to use.
type VersionCache struct {
	mu      sync.Mutex
	entries map[string]versionEntry
}

type versionEntry struct {
	mtime   time.Time
	size    int64
	version string
	err     error
}

// Version returns the cached answer for path, or runs probe and keeps its
// answer. A probe cut short by ctx is not kept: that is the caller giving
// up, not the binary's fault.
func (c *VersionCache) Version(ctx context.Context, path string, probe func(context.Context) (string, error)) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	e, ok := c.entries[path]
	c.mu.Unlock()
	if ok && e.mtime.Equal(st.ModTime()) && e.size == st.Size() {
		return e.version, e.err
	}
	v, err := probe(ctx)
	if err != nil && ctx.Err() != nil {
		return "", err
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]versionEntry{}
	}
	c.entries[path] = versionEntry{mtime: st.ModTime(), size: st.Size(), version: v, err: err}
	c.mu.Unlock()
	return v, err
}
