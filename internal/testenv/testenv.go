// Package testenv lets tests that need a real debug adapter skip cleanly on
// a machine without it, and fail under CI, where a missing adapter means
// the run would silently test less.
package testenv

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// RequireAdapter returns the adapter's availability, or skips the test
// (fails it when CI=true) with the install command when it is missing.
// The adapter's package must be imported by the test.
func RequireAdapter(t testing.TB, language string) adapter.Availability {
	t.Helper()
	a, ok := adapter.Lookup(language)
	if !ok {
		t.Fatalf("no adapter registered for %q: import its package in the test", language)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	av := a.Check(ctx)
	if av.Installed {
		return av
	}
	msg := language + " debug adapter not available: " + av.Reason + "; install with: " + av.InstallHint
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return av
}

// RequireTool returns the path of the first of names found on PATH, or
// skips the test (fails it when CI=true, whose install script provides
// the tool) with install, the command that installs it.
func RequireTool(t testing.TB, install string, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := strings.Join(names, " or ") + " not found on PATH; install with: " + install
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}
