package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/skill"
)

// setupIn runs `mcp-debugger setup args…` in project with home as $HOME
// and returns its output; it fails the test on a non-zero exit.
func setupIn(t *testing.T, project string, args ...string) string {
	t.Helper()
	t.Chdir(project)
	var out, errOut bytes.Buffer
	if code := run(append([]string{"setup"}, args...), &out, &errOut); code != 0 {
		t.Fatalf("setup %v: exit %d\n%s%s", args, code, out.String(), errOut.String())
	}
	return out.String()
}

// isolatedHome makes $HOME (and the config homes clients honour) a fresh
// directory, so that no test writes the real user's files.
func isolatedHome(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CODEX_HOME", "")
	return home
}

// thisBinary is the command a setup entry must name.
func thisBinary(t *testing.T) string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	return self
}

// entryCommand reads section.mcp-debugger.command from a JSON file.
func entryCommand(t *testing.T, path, section string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the client's configuration: %v", err)
	}
	var cfg map[string]map[string]struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("%s is not the JSON the client reads: %v\n%s", path, err, b)
	}
	return cfg[section][serverName].Command
}

// Each client gets its server entry naming this binary, the skill and the
// subagent in its own places; a second run changes nothing.
func TestSetupWritesEachClientsFiles(t *testing.T) {
	rows := []struct {
		client  string
		user    bool
		config  string // under the project, or ~ for the user's files
		section string // "" for Codex's TOML
		skill   string
		agent   string
	}{
		{"claude", false, ".mcp.json", "mcpServers", ".claude/skills/debugging/SKILL.md", ".claude/agents/debugger.md"},
		{"claude", true, "~/.claude.json", "mcpServers", "~/.claude/skills/debugging/SKILL.md", "~/.claude/agents/debugger.md"},
		{"codex", false, ".codex/config.toml", "", ".agents/skills/debugging/SKILL.md", ".codex/agents/debugger.toml"},
		{"codex", true, "~/.codex/config.toml", "", "~/.agents/skills/debugging/SKILL.md", "~/.codex/agents/debugger.toml"},
		{"cursor", false, ".cursor/mcp.json", "mcpServers", ".cursor/skills/debugging/SKILL.md", ".cursor/agents/debugger.md"},
		{"cursor", true, "~/.cursor/mcp.json", "mcpServers", "~/.cursor/skills/debugging/SKILL.md", "~/.cursor/agents/debugger.md"},
		{"vscode", false, ".vscode/mcp.json", "servers", ".github/skills/debugging/SKILL.md", ".github/agents/debugger.agent.md"},
		{"gemini", false, ".gemini/settings.json", "mcpServers", ".gemini/skills/debugging/SKILL.md", ".gemini/agents/debugger.md"},
		{"gemini", true, "~/.gemini/settings.json", "mcpServers", "~/.gemini/skills/debugging/SKILL.md", "~/.gemini/agents/debugger.md"},
		{"windsurf", false, "~/.codeium/windsurf/mcp_config.json", "mcpServers", ".windsurf/rules/debugging.md", ""},
		{"zed", false, ".zed/settings.json", "context_servers", "", ""},
		{"zed", true, "~/.config/zed/settings.json", "context_servers", "", ""},
	}
	self := thisBinary(t)
	for _, row := range rows {
		name := row.client
		if row.user {
			name += " --user"
		}
		t.Run(name, func(t *testing.T) {
			home, project := isolatedHome(t), t.TempDir()
			where := func(rel string) string {
				if after, ok := strings.CutPrefix(rel, "~/"); ok {
					return filepath.Join(home, after)
				}
				return filepath.Join(project, rel)
			}
			args := []string{row.client}
			if row.user {
				args = append(args, "--user")
			}
			out := setupIn(t, project, args...)
			if row.section != "" {
				if got := entryCommand(t, where(row.config), row.section); got != self {
					t.Errorf("%s names %q, want this binary %q", row.config, got, self)
				}
			} else {
				b, _ := os.ReadFile(where(row.config))
				if !strings.Contains(string(b), "[mcp_servers.mcp-debugger]\ncommand = "+yamlString(self)) {
					t.Errorf("%s has no entry for this binary:\n%s", row.config, b)
				}
			}
			for _, f := range []string{row.skill, row.agent} {
				if f == "" {
					continue
				}
				b, err := os.ReadFile(where(f))
				if err != nil {
					t.Errorf("not installed: %v", err)
					continue
				}
				if body := skill.Skill; f == row.agent {
					body = strings.TrimSpace(skill.Agent)
					if !strings.Contains(string(b), body) {
						t.Errorf("%s does not hold the subagent's instructions", f)
					}
				} else if !strings.Contains(string(b), body) || !strings.HasPrefix(string(b), "---\n") {
					t.Errorf("%s is not the skill under a front matter:\n%.200s", f, b)
				}
			}
			for _, f := range []string{row.config, row.skill, row.agent} {
				if f != "" && !strings.Contains(out, where(f)+": written") {
					t.Errorf("the output does not say %s was written:\n%s", where(f), out)
				}
			}
			again := setupIn(t, project, args...)
			for line := range strings.Lines(again) {
				if strings.HasPrefix(line, "/") && !strings.HasSuffix(line, ": unchanged\n") {
					t.Errorf("a second setup changed a file: %s", line)
				}
			}
		})
	}
}

// A configuration with the user's own servers keeps them, in their
// order, with ours added; the file before is kept as a backup. A skill
// file of the user's that differs is backed up, not lost.
func TestSetupKeepsTheUsersFiles(t *testing.T) {
	isolatedHome(t)
	project := t.TempDir()
	mine := `{"mcpServers": {"zeta": {"command": "z"}, "alpha": {"command": "a", "args": ["--x"]}}, "other": 1}`
	config := filepath.Join(project, ".mcp.json")
	if err := os.WriteFile(config, []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	skillPath := filepath.Join(project, ".claude", "skills", "debugging", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(skillPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(skillPath, []byte("my own notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := setupIn(t, project, "claude")

	b, _ := os.ReadFile(config)
	text := string(b)
	zeta, alpha, ours, other := strings.Index(text, `"zeta"`), strings.Index(text, `"alpha"`), strings.Index(text, `"mcp-debugger"`), strings.Index(text, `"other"`)
	if zeta < 0 || alpha < 0 || ours < 0 || other < 0 || !(zeta < alpha && alpha < ours && ours < other) || !strings.Contains(text, `"--x"`) {
		t.Errorf("the merged configuration lost or reordered the user's entries:\n%s", text)
	}
	if fi, _ := os.Stat(config); fi.Mode().Perm() != 0o600 {
		t.Errorf("the configuration's mode changed to %v", fi.Mode().Perm())
	}
	if backup, _ := os.ReadFile(config + ".bak"); string(backup) != mine {
		t.Errorf("the configuration before the merge is not in .mcp.json.bak: %q", backup)
	}
	if backup, _ := os.ReadFile(skillPath + ".bak"); string(backup) != "my own notes\n" {
		t.Errorf("the user's SKILL.md is not kept in SKILL.md.bak: %q", backup)
	}
	if !strings.Contains(out, skillPath+": replaced; the file before is kept in "+skillPath+".bak") {
		t.Errorf("the output does not say the skill file was replaced and kept:\n%s", out)
	}

	// A file with comments (Zed's settings may have them) is not
	// rewritten: setup says what to add instead.
	zed := filepath.Join(project, ".zed", "settings.json")
	_ = os.MkdirAll(filepath.Dir(zed), 0o755)
	commented := "// my settings\n{\"theme\": \"One Dark\"}\n"
	_ = os.WriteFile(zed, []byte(commented), 0o644)
	var stdout, stderr bytes.Buffer
	t.Chdir(project)
	if code := run([]string{"setup", "zed"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), `"context_servers"`) {
		t.Errorf("setup zed on a commented settings file: exit %d, %s%s", code, stdout.String(), stderr.String())
	}
	if b, _ := os.ReadFile(zed); string(b) != commented {
		t.Errorf("the commented settings were rewritten:\n%s", b)
	}
}

// --print writes nothing and shows what would be written.
func TestSetupPrintWritesNothing(t *testing.T) {
	isolatedHome(t)
	project := t.TempDir()
	out := setupIn(t, project, "cursor", "--print")
	if entries, _ := os.ReadDir(project); len(entries) != 0 {
		t.Errorf("--print wrote %v", entries)
	}
	if !strings.Contains(out, `"mcpServers"`) || !strings.Contains(out, skill.Skill) {
		t.Errorf("--print does not show the entry and the skill:\n%.400s", out)
	}
}

// The TOML setup writes for Codex parses, with the entry and the subagent's
// fields Codex requires (checked with Python's tomllib where there is one).
func TestSetupCodexTOMLParses(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil || exec.Command(python, "-c", "import tomllib").Run() != nil {
		t.Skip("no python3 with tomllib to parse TOML")
	}
	isolatedHome(t)
	project := t.TempDir()
	// A config.toml of the user's, to which the table is appended.
	codexDir := filepath.Join(project, ".codex")
	_ = os.MkdirAll(codexDir, 0o755)
	_ = os.WriteFile(filepath.Join(codexDir, "config.toml"), []byte("model = \"o3\"\n[mcp_servers.other]\ncommand = \"x\""), 0o644)
	setupIn(t, project, "codex")
	check := `import sys, tomllib
c = tomllib.load(open(sys.argv[1], "rb"))
a = tomllib.load(open(sys.argv[2], "rb"))
assert c["model"] == "o3" and c["mcp_servers"]["other"]["command"] == "x", c
print(c["mcp_servers"]["mcp-debugger"]["command"])
assert a["name"] == "debugger" and a["description"] and "debug_test" in a["developer_instructions"], a
`
	out, err := exec.Command(python, "-c", check, filepath.Join(codexDir, "config.toml"), filepath.Join(codexDir, "agents", "debugger.toml")).CombinedOutput()
	if err != nil {
		t.Fatalf("the TOML setup wrote does not parse as Codex needs: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != thisBinary(t) {
		t.Errorf("config.toml names %q, want %q", got, thisBinary(t))
	}
}
