package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStampedVersionIsWhatVersionAndServerInfoSay: a release binary is
// stamped as scripts/release.sh stamps it, and both `mcp-debugger version`
// and the MCP serverInfo.version an agent sees report that version.
func TestStampedVersionIsWhatVersionAndServerInfoSay(t *testing.T) {
	const stamped = "v0.0.0-stamp-test"
	bin := filepath.Join(t.TempDir(), "mcp-debugger")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-ldflags", "-X main.version="+stamped, "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.CommandContext(ctx, bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "mcp-debugger "+stamped+" (") {
		t.Errorf("version: %v %q, want it to name %s", err, out, stamped)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "version-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "stdio")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Version; got != stamped {
		t.Errorf("serverInfo.version %q, want %q", got, stamped)
	}
}
