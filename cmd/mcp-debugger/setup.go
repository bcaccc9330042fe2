package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/skill"
)

// `mcp-debugger setup CLIENT` plugs this binary into a coding agent: the
// client's MCP server entry (stdio, this binary's absolute path), and the
// debugging skill and debugger subagent in the client's own formats. A
// user's file is never overwritten silently: JSON configurations get our
// entry merged in, a differing skill or agent file is kept as a backup,
// and every file is named with what was done to it.

// serverName is the entry's name in every client's configuration.
const serverName = "mcp-debugger"

// setupFile is one file setup writes for a client.
type setupFile struct {
	path string
	// merge, when set, merges the entry into the file's current content
	// (nil when there is none) and returns the new content, or an error
	// saying why it will not.
	merge func(old []byte) ([]byte, error)
	// content is the whole file, for files that are ours alone.
	content string
}

// setupClient is a client's formats, for the project at root or, with
// home set, for the user whose home it is.
type setupClient struct {
	names []string // the first is the one shown
	title string
	// files lists what to write; notes, what setup cannot do for it.
	files func(scope setupScope) ([]setupFile, []string)
	// userScope is false for a client with no per-user files.
	userScope bool
}

// setupScope is where setup writes: a project directory, or the user's
// home (user true).
type setupScope struct {
	dir     string // the project's directory, or the home directory
	user    bool
	command string // this binary, absolute
}

func (s setupScope) path(parts ...string) string {
	return filepath.Join(append([]string{s.dir}, parts...)...)
}

var setupClients = []setupClient{
	{names: []string{"claude", "claude-code"}, title: "Claude Code", userScope: true, files: func(s setupScope) ([]setupFile, []string) {
		config := s.path(".mcp.json")
		if s.user {
			// Claude Code keeps user-scope servers in ~/.claude.json,
			// with the rest of its state.
			config = s.path(".claude.json")
		}
		return []setupFile{
			{path: config, merge: jsonEntry("mcpServers", serverEntry{Type: "stdio", Command: s.command, Args: []string{}})},
			{path: s.path(".claude", "skills", skill.Name, "SKILL.md"), content: skillFile()},
			{path: s.path(".claude", "agents", skill.AgentName+".md"), content: agentFile()},
		}, nil
	}},
	{names: []string{"codex"}, title: "Codex CLI", userScope: true, files: func(s setupScope) ([]setupFile, []string) {
		codexDir := s.path(".codex")
		if home := os.Getenv("CODEX_HOME"); s.user && home != "" {
			codexDir = home
		}
		notes := []string{"Codex reads a project's .codex/config.toml only once you trust the project."}
		if s.user {
			notes = nil
		}
		return []setupFile{
			{path: filepath.Join(codexDir, "config.toml"), merge: tomlTable(s.command)},
			{path: s.path(".agents", "skills", skill.Name, "SKILL.md"), content: skillFile()},
			{path: filepath.Join(codexDir, "agents", skill.AgentName+".toml"), content: codexAgentFile()},
		}, notes
	}},
	{names: []string{"cursor"}, title: "Cursor", userScope: true, files: func(s setupScope) ([]setupFile, []string) {
		return []setupFile{
			{path: s.path(".cursor", "mcp.json"), merge: jsonEntry("mcpServers", serverEntry{Command: s.command, Args: []string{}})},
			{path: s.path(".cursor", "skills", skill.Name, "SKILL.md"), content: skillFile()},
			{path: s.path(".cursor", "agents", skill.AgentName+".md"), content: agentFile()},
		}, nil
	}},
	{names: []string{"vscode", "code"}, title: "VS Code (GitHub Copilot)", files: func(s setupScope) ([]setupFile, []string) {
		return []setupFile{
			{path: s.path(".vscode", "mcp.json"), merge: jsonEntry("servers", serverEntry{Type: "stdio", Command: s.command, Args: []string{}})},
			{path: s.path(".github", "skills", skill.Name, "SKILL.md"), content: skillFile()},
			{path: s.path(".github", "agents", skill.AgentName+".agent.md"), content: agentFile()},
		}, nil
	}},
	{names: []string{"gemini", "gemini-cli"}, title: "Gemini CLI", userScope: true, files: func(s setupScope) ([]setupFile, []string) {
		return []setupFile{
			{path: s.path(".gemini", "settings.json"), merge: jsonEntry("mcpServers", serverEntry{Command: s.command, Args: []string{}})},
			{path: s.path(".gemini", "skills", skill.Name, "SKILL.md"), content: skillFile()},
			{path: s.path(".gemini", "agents", skill.AgentName+".md"), content: agentFile()},
		}, nil
	}},
	{names: []string{"windsurf"}, title: "Windsurf", userScope: true, files: func(s setupScope) ([]setupFile, []string) {
		home, _ := os.UserHomeDir()
		files := []setupFile{
			// Windsurf reads MCP servers from the user's file alone.
			{path: filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"), merge: jsonEntry("mcpServers", serverEntry{Command: s.command, Args: []string{}})},
		}
		notes := []string{"Windsurf reads MCP servers only from your own mcp_config.json, whatever the scope.",
			"Windsurf has no subagents: the rule carries the skill alone."}
		if s.user {
			notes = append(notes, "Windsurf's user rules are one file (global_rules.md), not written: `mcp-debugger setup windsurf --print` shows the rule to paste there.")
			return files, notes
		}
		files = append(files, setupFile{path: s.path(".windsurf", "rules", skill.Name+".md"), content: windsurfRule()})
		return files, notes
	}},
	{names: []string{"zed"}, title: "Zed", userScope: true, files: func(s setupScope) ([]setupFile, []string) {
		settings := s.path(".zed", "settings.json")
		if s.user {
			settings = filepath.Join(userConfigDir(s.dir), "zed", "settings.json")
		}
		return []setupFile{
				{path: settings, merge: jsonEntry("context_servers", serverEntry{Command: s.command, Args: []string{}})},
			}, []string{"Zed takes project rules from one file (.rules) and has no skills or subagents: " +
				"the skill is not written; `mcp-debugger setup claude --print` shows its text."}
	}},
}

// userConfigDir is $XDG_CONFIG_HOME, else ~/.config: where Zed keeps its
// settings on Linux and macOS alike.
func userConfigDir(home string) string {
	if xdg := os.Getenv("XDG_CONFIG_HOME"); xdg != "" {
		return xdg
	}
	return filepath.Join(home, ".config")
}

func findSetupClient(name string) (setupClient, bool) {
	for _, c := range setupClients {
		if slices.Contains(c.names, strings.ToLower(name)) {
			return c, true
		}
	}
	return setupClient{}, false
}

func setupClientNames() string {
	var names []string
	for _, c := range setupClients {
		names = append(names, c.names[0])
	}
	return strings.Join(names, ", ")
}

const setupUsage = `usage: mcp-debugger setup CLIENT [--user] [--print]
  CLIENT    claude, codex, cursor, vscode, gemini, windsurf or zed
  --user    for every project of yours (the client's user files), not only
            the one in the current directory
  --print   print what would be written, write nothing
Writes the client's MCP server entry (this binary, over stdio), merged into
its configuration file, and installs a debugging skill and a debugger
subagent in the client's own format. A file of yours that differs is kept
as FILE.bak; every file is listed with what was done to it.
`

// setupCommand runs `mcp-debugger setup`.
func setupCommand(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("setup", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	user := fset.Bool("user", false, "")
	printOnly := fset.Bool("print", false, "")
	var name string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, setupUsage)
			return 0
		}
		fmt.Fprintf(stderr, "mcp-debugger setup: %v (mcp-debugger setup --help)\n", err)
		return 2
	}
	if name == "" && fset.NArg() > 0 {
		name = fset.Arg(0)
	}
	client, ok := findSetupClient(name)
	if !ok {
		fmt.Fprintf(stderr, "mcp-debugger setup: name a client: %s (mcp-debugger setup --help)\n", setupClientNames())
		return 2
	}
	scope, err := setupScopeFor(*user)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger setup: %v\n", err)
		return 1
	}
	if *user && !client.userScope {
		fmt.Fprintf(stderr, "mcp-debugger setup: %s keeps user servers in its profile, not in a file of known place: "+
			"run setup in a project, or `code --add-mcp '{\"name\":%q,\"command\":%q}'`\n", client.title, serverName, scope.command)
		return 2
	}
	files, notes := client.files(scope)
	failed := false
	for _, f := range files {
		if *printOnly {
			printSetupFile(stdout, f)
			continue
		}
		did, err := writeSetupFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-debugger setup: %s: %v\n", f.path, err)
			failed = true
			continue
		}
		fmt.Fprintf(stdout, "%s: %s\n", f.path, did)
	}
	for _, n := range notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	if failed {
		return 1
	}
	if !*printOnly {
		fmt.Fprintf(stdout, "Restart %s to load the server, the skill and the agent.\n", client.title)
	}
	return 0
}

// setupScopeFor is the current directory, or the user's home.
func setupScopeFor(user bool) (setupScope, error) {
	self, err := os.Executable()
	if err != nil {
		return setupScope{}, fmt.Errorf("finding this program: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	dir, err := os.Getwd()
	if user {
		dir, err = os.UserHomeDir()
	}
	if err != nil {
		return setupScope{}, fmt.Errorf("finding where to write: %w", err)
	}
	return setupScope{dir: dir, user: user, command: self}, nil
}

func printSetupFile(w io.Writer, f setupFile) {
	content := []byte(f.content)
	if f.merge != nil {
		old, _ := os.ReadFile(f.path)
		merged, err := f.merge(old)
		if err != nil {
			fmt.Fprintf(w, "== %s: %v\n\n", f.path, err)
			return
		}
		content = merged
	}
	fmt.Fprintf(w, "== %s\n%s\n", f.path, content)
}

// writeSetupFile writes one file and says what it did.
func writeSetupFile(f setupFile) (string, error) {
	old, err := os.ReadFile(f.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("reading it: %w", err)
	}
	exists := err == nil
	content := []byte(f.content)
	if f.merge != nil {
		if content, err = f.merge(old); err != nil {
			return "", err
		}
	}
	if exists && bytes.Equal(old, content) {
		return "unchanged", nil
	}
	did := "written"
	if exists {
		backup, err := backUp(f.path, old)
		if err != nil {
			return "", err
		}
		did = "replaced; the file before is kept in " + backup
		if f.merge != nil {
			did = "our entry merged in, the rest kept; the file before is kept in " + backup
		}
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return "", fmt.Errorf("creating its directory: %w", err)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(f.path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.WriteFile(f.path, content, mode); err != nil {
		return "", fmt.Errorf("writing it: %w", err)
	}
	return did, nil
}

// backUp keeps old next to path, as path.bak (or .bak2, … when taken).
func backUp(path string, old []byte) (string, error) {
	for n := 1; n < 100; n++ {
		backup := path + ".bak"
		if n > 1 {
			backup += fmt.Sprint(n)
		}
		f, err := os.OpenFile(backup, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("backing it up: %w", err)
		}
		_, werr := f.Write(old)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return "", fmt.Errorf("backing it up: %w", werr)
		}
		return backup, nil
	}
	return "", fmt.Errorf("backing it up: %s.bak to .bak99 are all taken", path)
}

// serverEntry is a stdio server's entry in a JSON configuration, in the
// order clients' documentation writes it.
type serverEntry struct {
	Type    string   `json:"type,omitempty"` // the clients that name the transport
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// jsonEntry merges {section: {mcp-debugger: entry}} into a JSON file,
// keeping every other key and their order. A file that is not plain JSON
// (Zed's and VS Code's allow comments) is refused: rewriting it would lose
// them.
func jsonEntry(section string, entry serverEntry) func([]byte) ([]byte, error) {
	return func(old []byte) ([]byte, error) {
		entryJSON, err := json.Marshal(entry)
		if err != nil {
			return nil, fmt.Errorf("encoding our entry: %w", err)
		}
		if len(bytes.TrimSpace(old)) == 0 {
			old = []byte("{}")
		}
		top, err := parseObject(old)
		if err != nil {
			return nil, fmt.Errorf("not plain JSON (%v), so not rewritten: add to %q the entry %q: %s", err, section, serverName, entryJSON)
		}
		servers := orderedObject{}
		if raw, ok := top.get(section); ok {
			if servers, err = parseObject(raw); err != nil {
				return nil, fmt.Errorf("%q is not an object (%v): not rewritten", section, err)
			}
		}
		servers.set(serverName, entryJSON)
		top.set(section, servers.encode())
		var out bytes.Buffer
		if err := json.Indent(&out, top.encode(), "", "  "); err != nil {
			return nil, fmt.Errorf("formatting the merged file: %w", err)
		}
		out.WriteByte('\n')
		return out.Bytes(), nil
	}
}

// orderedObject is a JSON object's members in the order of its text, so
// that a merge leaves a user's file as they wrote it but for our entry.
type orderedObject []objectMember

type objectMember struct {
	key   string
	value json.RawMessage
}

func parseObject(text []byte) (orderedObject, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var obj orderedObject
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		obj = append(obj, objectMember{key, value})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the object")
	}
	return obj, nil
}

func (o orderedObject) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

func (o *orderedObject) set(key string, value json.RawMessage) {
	for i, m := range *o {
		if m.key == key {
			(*o)[i].value = value
			return
		}
	}
	*o = append(*o, objectMember{key, value})
}

func (o orderedObject) encode() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(m.key)
		b.Write(key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// tomlTable appends Codex's [mcp_servers.mcp-debugger] table to its
// config.toml; a file that has one already is left alone when it is ours
// and refused otherwise (a TOML table cannot be merged as text safely).
func tomlTable(command string) func([]byte) ([]byte, error) {
	table := fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = []\n", serverName, yamlString(command))
	header := fmt.Sprintf("[mcp_servers.%s]", serverName)
	return func(old []byte) ([]byte, error) {
		text := string(old)
		if strings.Contains(text, table) {
			return old, nil
		}
		for line := range strings.Lines(text) {
			if strings.TrimSpace(line) == header || strings.TrimSpace(line) == fmt.Sprintf("[mcp_servers.%q]", serverName) {
				return nil, fmt.Errorf("it has its own %s table, not rewritten: make it\n%s", header, table)
			}
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		return []byte(text + table), nil
	}
}

// yamlString quotes a value for a front matter or a TOML file: a JSON
// string is a YAML double-quoted scalar and a TOML basic string.
func yamlString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// skillFile is the skill as an Agent Skills SKILL.md, the format Claude
// Code, Codex, Cursor, VS Code and Gemini CLI share.
func skillFile() string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n\n%s", skill.Name, yamlString(skill.Description), skill.Skill)
}

// agentFile is the subagent as Markdown with a front matter (Claude Code,
// Cursor, VS Code, Gemini CLI).
func agentFile() string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n\n%s", skill.AgentName, yamlString(skill.AgentDescription), skill.Agent)
}

// codexAgentFile is the subagent as Codex's TOML agent definition; the
// instructions are a literal multi-line string, which needs no escapes.
func codexAgentFile() string {
	return fmt.Sprintf("name = %s\ndescription = %s\ndeveloper_instructions = '''\n%s'''\n",
		yamlString(skill.AgentName), yamlString(skill.AgentDescription), skill.Agent)
}

// windsurfRule is the skill as a Windsurf rule the model applies when the
// task matches its description.
func windsurfRule() string {
	return fmt.Sprintf("---\ntrigger: model_decision\ndescription: %s\n---\n\n%s", yamlString(skill.Description), skill.Skill)
}
