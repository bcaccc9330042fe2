package adapter

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// Release is the leading numbers of a version: "1.6.3" is [1 6 3],
// "v20.20.2" [20 20 2], "1.7.0.beta1" [1 7 0]. Adapters choose behaviour
// from the version they find, never assume one: Release compares them.
type Release []int

// ParseRelease reads v's leading dot-separated numbers (a "v" prefix is
// allowed); false when v has no major and minor number.
func ParseRelease(v string) (Release, bool) {
	var r Release
	for _, part := range strings.Split(strings.TrimPrefix(strings.TrimSpace(v), "v"), ".") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			break
		}
		r = append(r, n)
	}
	return r, len(r) >= 2
}

// AtLeast reports whether r is want or later; parts missing on either
// side count as 0.
func (r Release) AtLeast(want ...int) bool {
	for i, w := range want {
		got := 0
		if i < len(r) {
			got = r[i]
		}
		if got != w {
			return got > w
		}
	}
	return true
}
