package adapter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestVersionCacheProbesOncePerBinary(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tool")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var c VersionCache
	probes := 0
	probe := func(context.Context) (string, error) { probes++; return "1.0", nil }
	for range 3 {
		if v, err := c.Version(context.Background(), bin, probe); v != "1.0" || err != nil {
			t.Fatalf("version: %q %v", v, err)
		}
	}
	if probes != 1 {
		t.Errorf("an unchanged binary was probed %d times", probes)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n# upgraded\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.Version(context.Background(), bin, probe)
	if probes != 2 {
		t.Errorf("a changed binary should be probed again (probes=%d)", probes)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	other := filepath.Join(t.TempDir(), "other")
	if err := os.WriteFile(other, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.Version(ctx, other, func(ctx context.Context) (string, error) { return "", ctx.Err() })
	if _, err := c.Version(context.Background(), other, probe); err != nil || probes != 3 {
		t.Errorf("a probe the caller gave up on must not be cached: %v probes=%d", err, probes)
	}
	if _, err := c.Version(context.Background(), filepath.Join(t.TempDir(), "missing"), probe); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing binary: %v", err)
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "tool")
	plain := filepath.Join(dir, "data")
	os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(plain, []byte("x"), 0o644)
	if p, err := LookPath("tool", "/nonexistent:"+dir); err != nil || p != exe {
		t.Errorf("LookPath in a list: %q %v", p, err)
	}
	if _, err := LookPath("data", dir); err == nil {
		t.Error("a file without the executable bit is not a command")
	}
	if p, err := LookPath(exe, ""); err != nil || p != exe {
		t.Errorf("LookPath of a path: %q %v", p, err)
	}
}
