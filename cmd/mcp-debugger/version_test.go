package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime/debug"
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

// A binary from `go install github.com/…/cmd/mcp-debugger@v1.4.2` is not
// stamped; its build info holds the module version, and that is what it
// reports. A build from a checkout names its commit, and whether the work
// tree had changes; without the commit in the build info it says "dev".
func TestUnstampedVersionComesFromTheBuildInfo(t *testing.T) {
	installed := &debug.BuildInfo{Main: debug.Module{Path: "github.com/mcp-debugger/mcp-debugger", Version: "v1.4.2"}}
	checkout := func(version, modified string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: version}, Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "9e472aeca3db91c2b44e5d780a9f978e74705a9b"}, {Key: "vcs.modified", Value: modified},
		}}
	}
	for _, c := range []struct {
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"", installed, "v1.4.2"},
		{"v9.9.9", installed, "v9.9.9"},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"", nil, "dev"},
		{"", checkout("v0.0.0-20261127215410-9e472aeca3db+dirty", "true"), "dev (9e472ae, modified)"},
		{"", checkout("v0.0.0-20261127215410-9e472aeca3db", "false"), "dev (9e472ae)"},
		{"", checkout("(devel)", "false"), "dev (9e472ae)"},
		{"", checkout("v1.4.2", "false"), "v1.4.2"},
		{"", checkout("v1.4.2+dirty", "true"), "dev (9e472ae, modified)"},
	} {
		if got := versionOf(c.stamped, c.info); got != c.want {
			t.Errorf("stamped %q, build info %+v: version %q, want %q", c.stamped, c.info, got, c.want)
		}
	}
}
