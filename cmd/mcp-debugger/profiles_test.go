package main

import (
	"bytes"
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolNames lists the tools a connected client is offered.
func toolNames(ctx context.Context, t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var names []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		names = append(names, tool.Name)
	}
	return names
}

// A client entry chooses the tools with --tools, over stdio and HTTP alike;
// without it the default list fits Cursor's 40 tools.
func TestToolsFlagChoosesTheToolsOffered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, c := range []struct {
		args     []string
		min, max int
		has      string // a tool the profile offers
		lacks    string // one it leaves out
	}{
		{[]string{"stdio"}, 20, 40, "run_to", "read_memory"},
		{[]string{"stdio", "--tools", "core"}, 10, 20, "start_debugging", "run_to"},
		{[]string{"stdio", "--tools", "all"}, 41, 100, "read_memory", ""},
	} {
		client := mcp.NewClient(&mcp.Implementation{Name: "profile-test", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(binary(t), c.args...)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		names := toolNames(ctx, t, cs)
		cs.Close()
		if len(names) < c.min || len(names) > c.max || !slices.Contains(names, c.has) || (c.lacks != "" && slices.Contains(names, c.lacks)) {
			t.Errorf("%v offers %d tools %v; want %d to %d, with %s, without %q", c.args, len(names), names, c.min, c.max, c.has, c.lacks)
		}
	}

	addr, token := startHTTP(t, "--tools", "core")
	cs := connectHTTP(ctx, t, "http://"+addr+"/mcp", "Authorization", "Bearer "+token)
	if names := toolNames(ctx, t, cs); slices.Contains(names, "run_to") || !slices.Contains(names, "debug_test") {
		t.Errorf("http --tools core offers %v", names)
	}

	var stderr bytes.Buffer
	bad := exec.Command(binary(t), "stdio", "--tools", "everything")
	bad.Stderr = &stderr
	if err := bad.Run(); err == nil || !strings.Contains(stderr.String(), "core, default or all") {
		t.Errorf("an unknown profile should be refused, naming the profiles: %v %q", err, stderr.String())
	}
}
