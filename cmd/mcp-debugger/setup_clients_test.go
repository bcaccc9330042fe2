package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentClients are the coding agents whose own commands check what setup
// wrote, at the versions last checked.
var agentClients = map[string]string{
	"claude": "@anthropic-ai/claude-code@2.1.197",
	"codex":  "@openai/codex@0.171.0",
	"gemini": "@google/gemini-cli@0.61.0",
}

// cachedAgentClients installs the clients from the npm registry once per
// machine, in the user's cache, and returns their bin directory.
func cachedAgentClients(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "mcp-debugger", "agent-clients")
	bin := filepath.Join(dir, "node_modules", ".bin")
	var missing []string
	for name, pkg := range agentClients {
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			missing = append(missing, pkg)
		}
	}
	if len(missing) == 0 {
		return bin
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("no npm to install the coding agents (apt-get install -y npm)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, append([]string{"install", "--no-audit", "--no-fund"}, missing...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := "npm install " + strings.Join(missing, " ") + ": " + err.Error() + "\n" + string(out)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// The coding agents themselves read what setup wrote: Claude Code and
// Gemini CLI start the server from their entry and report it connected
// (the entry names a binary that serves MCP), Codex lists it enabled, and
// Gemini CLI finds the skill where setup put it.
func TestSetupEntriesWorkInRealClients(t *testing.T) {
	if testing.Short() {
		t.Skip("installs and runs three coding agents")
	}
	clients := cachedAgentClients(t)
	mcpDebugger := binary(t)
	rows := []struct {
		client string
		args   []string // setup's
		check  []string // the client's command
		want   []string // in its output
	}{
		{"claude", []string{"--user"}, []string{"claude", "mcp", "list"}, []string{"mcp-debugger: " + mcpDebugger, "Connected"}},
		{"gemini", nil, []string{"gemini", "mcp", "list"}, []string{"mcp-debugger: " + mcpDebugger, "Connected"}},
		{"gemini", nil, []string{"gemini", "skills", "list"}, []string{"debugging [Enabled]", filepath.Join(".gemini", "skills", "debugging", "SKILL.md")}},
		{"codex", []string{"--user"}, []string{"codex", "mcp", "list"}, []string{"mcp-debugger", mcpDebugger, "enabled"}},
	}
	for _, row := range rows {
		t.Run(strings.Join(row.check, " "), func(t *testing.T) {
			home, project := isolatedHome(t), t.TempDir()
			// Gemini CLI starts no project server in a folder not trusted.
			if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
				t.Fatal(err)
			}
			trusted := `{"` + project + `": "TRUST_FOLDER"}`
			if err := os.WriteFile(filepath.Join(home, ".gemini", "trustedFolders.json"), []byte(trusted), 0o600); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			setup := exec.CommandContext(ctx, mcpDebugger, append([]string{"setup", row.client}, row.args...)...)
			setup.Dir = project
			if out, err := setup.CombinedOutput(); err != nil {
				t.Fatalf("setup %s: %v\n%s", row.client, err, out)
			}
			check := exec.CommandContext(ctx, filepath.Join(clients, row.check[0]), row.check[1:]...)
			check.Dir = project
			check.Env = append(os.Environ(), "NO_COLOR=1", "CI=true")
			out, err := check.CombinedOutput()
			for _, want := range row.want {
				if !strings.Contains(string(out), want) {
					t.Errorf("%s (%v) does not say %q:\n%s", strings.Join(row.check, " "), err, want, out)
				}
			}
		})
	}
}
