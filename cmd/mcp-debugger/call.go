package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// usageError is a mistake in the command line: exit status 2, with usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// callLine is a parsed `mcp-debugger call` command line.
type callLine struct {
	tool     string
	flags    map[string]string // --key value, as typed
	order    []string          // the keys in the order typed
	jsonArgs string            // --json '{…}'
	jsonOut  bool              // --json alone: print the structured answer
	session  string            // --session, a session id or its prefix
	help     bool
}

const callUsage = `usage: mcp-debugger call TOOL [--key value]... [--json '{…}'] [--session ID] [--json]
  --key value    a tool argument, named and typed as in the tool's input schema
                 (a boolean may stand alone: --stopOnEntry)
  --json '{…}'   the arguments as one JSON object (--key value adds to it)
  --json         alone: print the structured answer instead of compact text
  --session ID   the debug session, or a unique prefix of its id; optional
                 when exactly one session is open
  TOOL --help    the tool's arguments
Exit status: 0 success, 1 the tool failed (its hint is printed), 2 a usage error.
Arguments may be written --scriptPath or --script-path.
The server starts in the background on first use, one per user and directory
(relative paths resolve against it): run later calls from the same directory.
mcp-debugger status shows it and its sessions, mcp-debugger stop ends it.
`

// callUsageLine is what a usage error adds to its message: the short form
// and where the rest is.
const callUsageLine = "usage: mcp-debugger call TOOL [--key value]... (mcp-debugger call --help: the options and the tools)"

// parseCallLine reads the command line without asking the server.
func parseCallLine(args []string) (callLine, error) {
	line := callLine{flags: map[string]string{}}
	if len(args) == 0 {
		return line, usagef("name a tool")
	}
	if args[0] == "--help" || args[0] == "-h" {
		line.help = true
		return line, nil
	}
	if strings.HasPrefix(args[0], "-") {
		return line, usagef("the tool comes first, before %s", args[0])
	}
	line.tool = args[0]
	for i := 1; i < len(args); i++ {
		arg := args[i]
		if !strings.HasPrefix(arg, "--") || arg == "--" {
			return line, usagef("unexpected %q: arguments are --key value", arg)
		}
		key, value, hasValue := strings.Cut(arg[2:], "=")
		key = camelCase(key)
		if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
			value, hasValue = args[i+1], true
			i++
		}
		switch {
		case key == "help" || key == "h":
			line.help = true
		case key == "json" && hasValue && strings.HasPrefix(strings.TrimSpace(value), "{"):
			line.jsonArgs = value
		case key == "json" && !hasValue:
			line.jsonOut = true
		case key == "session" || key == "sessionId":
			if !hasValue {
				return line, usagef("--%s needs a session id", key)
			}
			line.session = value
		default:
			if _, dup := line.flags[key]; dup {
				return line, usagef("--%s given twice", key)
			}
			if !hasValue {
				value = "true"
			}
			line.flags[key] = value
			line.order = append(line.order, key)
		}
	}
	return line, nil
}

// camelCase turns a kebab-case flag (script-path) into the schema's
// argument name (scriptPath); other names stay as typed.
func camelCase(key string) string {
	words := strings.Split(key, "-")
	for i := 1; i < len(words); i++ {
		if words[i] != "" {
			words[i] = strings.ToUpper(words[i][:1]) + words[i][1:]
		}
	}
	return strings.Join(words, "")
}

// callCommand runs `mcp-debugger call`.
func callCommand(args []string, stdout, stderr io.Writer) int {
	line, err := parseCallLine(args)
	if err != nil && !line.help {
		return usageExit(stderr, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if line.help && line.tool == "" {
		fmt.Fprint(stdout, callUsage)
		printToolList(ctx, stdout)
		return 0
	}
	c, err := connectBackground(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 1
	}
	defer c.close()
	code, err := c.run(ctx, line, stdout)
	var usage *usageError
	if errors.As(err, &usage) {
		return usageExit(stderr, err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 1
	}
	return code
}

// usageExit says what is wrong with the command line in a line, and where
// the usage is: not the whole usage, which would bury the line.
func usageExit(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "mcp-debugger call: %v\n%s\n", err, callUsageLine)
	return 2
}

// printToolList lists the background server's tools, one a line with the
// first sentence of its description; the server starts if it must.
func printToolList(ctx context.Context, w io.Writer) {
	c, err := connectBackground(ctx, io.Discard)
	if err != nil {
		fmt.Fprintf(w, "\nThe tools could not be listed: %v\n", err)
		return
	}
	defer c.close()
	list, err := c.cs.ListTools(ctx, nil)
	if err != nil {
		fmt.Fprintf(w, "\nThe tools could not be listed: %v\n", err)
		return
	}
	sort.Slice(list.Tools, func(i, j int) bool { return list.Tools[i].Name < list.Tools[j].Name })
	fmt.Fprintln(w, "\nTools (mcp-debugger call TOOL --help: its arguments):")
	for _, t := range list.Tools {
		fmt.Fprintf(w, "  %-26s %s\n", t.Name, firstSentence(t.Description, 90))
	}
}

// firstSentence is text up to its first full stop, cut at max bytes.
func firstSentence(text string, max int) string {
	for from := 0; ; {
		i := strings.Index(text[from:], ". ")
		if i < 0 {
			break
		}
		end := from + i + 1
		// An abbreviation's stop ends no sentence.
		if !strings.HasSuffix(text[:end], "e.g.") && !strings.HasSuffix(text[:end], "i.e.") {
			text = text[:end]
			break
		}
		from = end
	}
	if len(text) > max {
		cut := strings.LastIndex(text[:max], " ")
		if cut <= 0 {
			cut = max
		}
		text = text[:cut] + " …"
	}
	return text
}

// cliClient is one command's MCP session with the background server.
type cliClient struct {
	cs    *mcp.ClientSession
	files workspaceFiles
	state serverState
}

// connectBackground finds or starts the workspace's background server and
// connects to it. Starting one while servers of other directories run is
// said on notes: their sessions are not in the new one.
func connectBackground(ctx context.Context, notes io.Writer) (*cliClient, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("finding the working directory: %w", err)
	}
	files, err := filesFor(cwd)
	if err != nil {
		return nil, err
	}
	var others []otherServer
	if _, err := findRunning(ctx, files); err != nil {
		others = otherServers(ctx, files)
	}
	st, err := findOrStart(ctx, files, cwd)
	if err != nil {
		return nil, err
	}
	if len(others) > 0 {
		var dirs []string
		for _, o := range others {
			dirs = append(dirs, o.state.Workspace)
		}
		fmt.Fprintf(notes, "mcp-debugger: started a background server for %s; the sessions of %s stay in %s (run calls from there to use them)\n",
			cwd, strings.Join(dirs, ", "), plural(len(dirs), "its server", "their servers"))
	}
	return connect(ctx, files, st)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func connect(ctx context.Context, files workspaceFiles, st serverState) (*cliClient, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "mcp-debugger-cli", Version: versionString()}, nil)
	transport := &mcp.StreamableClientTransport{
		Endpoint:             "http://" + st.Addr + "/mcp",
		HTTPClient:           &http.Client{Transport: bearer{token: st.Token}},
		DisableStandaloneSSE: true,
	}
	// Each call adopts the workspace's debug sessions into an MCP session
	// of its own (adopt), and status lists them from one: the revision
	// with MCP sessions. A sessionless (2026-07-28) client is shown only
	// the sessions it proves are its own.
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return nil, fmt.Errorf("connecting to the background server at %s: %w", st.Addr, err)
	}
	return &cliClient{cs: cs, files: files, state: st}, nil
}

func (c *cliClient) close() { _ = c.cs.Close() }

// bearer adds the token to every request.
type bearer struct{ token string }

// RoundTrip sends r with the Authorization header.
func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// run makes the call line asks for and prints its answer; it returns the
// exit status, or a usage error.
func (c *cliClient) run(ctx context.Context, line callLine, stdout io.Writer) (int, error) {
	tool, err := c.findTool(ctx, line.tool)
	if err != nil {
		return 0, err
	}
	schema := schemaOf(tool)
	if line.help {
		printToolHelp(stdout, tool, schema)
		return 0, nil
	}
	sessions, err := c.adopt(ctx)
	if err != nil {
		return 0, err
	}
	if _, takesSession := schema.Properties["sessionId"]; takesSession {
		if where := c.sessionElsewhere(ctx, line, schema, sessions); where != "" {
			return 0, usagef("%s", where)
		}
	}
	args, err := buildArgs(line, schema, sessions)
	if err != nil {
		return 0, err
	}
	res, err := c.callOwned(ctx, line.tool, args)
	if err != nil {
		return 0, err
	}
	answer := answerOf(res)
	if key, _ := answer["reconnectKey"].(string); key != "" {
		if err := c.files.saveReconnectKey(key); err != nil {
			return 0, err
		}
	}
	if line.jsonOut {
		printJSON(stdout, res)
	} else {
		formatAnswer(stdout, answer)
	}
	if res.IsError {
		return 1, nil
	}
	return 0, nil
}

// callOwned calls the tool. Two shells' calls at the same moment each
// adopt the workspace's sessions, and the later adoption takes them from
// the earlier call before its tool call runs: the server then refuses it
// as another client's. Such a call takes them back and tries again, a few
// times.
func (c *cliClient) callOwned(ctx context.Context, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	for attempt := 1; ; attempt++ {
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			return nil, fmt.Errorf("calling %s: %w", tool, err)
		}
		refusal, _ := answerOf(res)["error"].(string)
		if !res.IsError || attempt == ownedAttempts || !strings.Contains(refusal, "belongs to another client") {
			return res, nil
		}
		// A random pause first: calls that took the sessions from each
		// other in turn would otherwise keep doing so.
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(10+rand.IntN(90)) * time.Millisecond):
		}
		if _, err := c.adopt(ctx); err != nil {
			return nil, err
		}
	}
}

// sessionElsewhere says which other directory's server holds the session
// the call is about, when this directory's server does not: the session
// the call names (--session), or any when the tool needs one and none is
// open here. "" when the session is here, or nowhere.
func (c *cliClient) sessionElsewhere(ctx context.Context, line callLine, schema toolSchema, here []string) string {
	wanted := line.session
	switch {
	case wanted != "" && slices.ContainsFunc(here, func(id string) bool { return strings.HasPrefix(id, wanted) }):
		return ""
	case wanted == "" && (len(here) > 0 || !slices.Contains(schema.Required, "sessionId")):
		return ""
	}
	var found []string
	for _, o := range otherServers(ctx, c.files) {
		other, err := connect(ctx, o.files, o.state)
		if err != nil {
			continue
		}
		ids, err := other.adopt(ctx)
		other.close()
		if err != nil {
			continue
		}
		for _, id := range ids {
			if wanted == "" || strings.HasPrefix(id, wanted) {
				found = append(found, fmt.Sprintf("session %s is in the server of %s", shortSessionID(id), o.state.Workspace))
			}
		}
	}
	if len(found) == 0 {
		return ""
	}
	here0 := "no debug session is open in this directory's server"
	if wanted != "" {
		here0 = fmt.Sprintf("no session %s in this directory's server", wanted)
	}
	return fmt.Sprintf("%s; %s: run the call from that directory (the server resolves relative paths against its own)", here0, strings.Join(found, ", "))
}

// ownedAttempts bounds callOwned's tries.
const ownedAttempts = 10

func (c *cliClient) findTool(ctx context.Context, name string) (*mcp.Tool, error) {
	list, err := c.cs.ListTools(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("listing the tools: %w", err)
	}
	var names []string
	for _, t := range list.Tools {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return nil, usagef("no tool %q; the tools: %s", name, strings.Join(names, ", "))
}

// adopt takes back the debug sessions earlier calls from this workspace
// created (each call is a new MCP session, which owns nothing), and
// returns the ids of every open session.
func (c *cliClient) adopt(ctx context.Context) ([]string, error) {
	args := map[string]any{}
	if key := c.files.reconnectKey(); key != "" {
		args["adopt"] = key
	}
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_debug_sessions", Arguments: args})
	if err == nil && res.IsError {
		// No session of ours is left to take back: list what there is.
		res, err = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_debug_sessions", Arguments: map[string]any{}})
	}
	if err != nil {
		return nil, fmt.Errorf("listing the debug sessions: %w", err)
	}
	var ids []string
	for _, s := range asList(answerOf(res)["sessions"]) {
		if id, _ := asMap(s)["id"].(string); id != "" {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// answerOf is a tool result's structured answer, or its text parsed.
func answerOf(res *mcp.CallToolResult) map[string]any {
	var raw []byte
	if res.StructuredContent != nil {
		raw, _ = json.Marshal(res.StructuredContent)
	} else if len(res.Content) > 0 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			raw = []byte(t.Text)
		}
	}
	answer := map[string]any{}
	if json.Unmarshal(raw, &answer) != nil && len(raw) > 0 {
		answer["message"] = string(raw)
	}
	return answer
}

func printJSON(w io.Writer, res *mcp.CallToolResult) {
	b, _ := json.MarshalIndent(answerOf(res), "", "  ")
	fmt.Fprintf(w, "%s\n", b)
}

// toolSchema is the part of a tool's input schema the command line uses.
type toolSchema struct {
	Properties map[string]propSchema `json:"properties"`
	Required   []string              `json:"required"`
}

type propSchema struct {
	Type        any    `json:"type"` // a name, or a list of names
	Description string `json:"description"`
}

// types lists the JSON types a property accepts.
func (p propSchema) types() []string {
	switch t := p.Type.(type) {
	case string:
		return []string{t}
	case []any:
		var names []string
		for _, n := range t {
			if s, ok := n.(string); ok && s != "null" {
				names = append(names, s)
			}
		}
		return names
	}
	return nil
}

func schemaOf(tool *mcp.Tool) toolSchema {
	var s toolSchema
	b, _ := json.Marshal(tool.InputSchema)
	_ = json.Unmarshal(b, &s)
	return s
}

func printToolHelp(w io.Writer, tool *mcp.Tool, schema toolSchema) {
	fmt.Fprintf(w, "mcp-debugger call %s [--key value]...\n\n%s\n\nArguments:\n", tool.Name, tool.Description)
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := schema.Properties[name]
		req := ""
		if slices.Contains(schema.Required, name) {
			req = ", required"
		}
		flag, desc := "--"+name, p.Description
		if name == "sessionId" {
			flag, req, desc = "--session", "", "the debug session, or a unique prefix of its id; optional when one session is open"
		}
		fmt.Fprintf(w, "  %s (%s%s)\n      %s\n", flag, strings.Join(p.types(), "|"), req, desc)
	}
}

// buildArgs turns the command line into the tool's arguments, typed by
// its schema; a session id prefix becomes the full id.
func buildArgs(line callLine, schema toolSchema, sessions []string) (map[string]any, error) {
	args := map[string]any{}
	if line.jsonArgs != "" {
		if err := json.Unmarshal([]byte(line.jsonArgs), &args); err != nil {
			return nil, usagef("--json: %v", err)
		}
	}
	for _, key := range line.order {
		p, ok := schema.Properties[key]
		if !ok {
			return nil, usagef("%s takes no --%s (mcp-debugger call %s --help lists its arguments)", line.tool, key, line.tool)
		}
		v, err := typedValue(p, line.flags[key])
		if err != nil {
			return nil, usagef("--%s: %v", key, err)
		}
		args[key] = v
	}
	if _, takesSession := schema.Properties["sessionId"]; takesSession {
		if err := resolveSession(args, line, schema, sessions); err != nil {
			return nil, err
		}
	}
	for _, name := range schema.Required {
		if _, ok := args[name]; !ok {
			return nil, usagef("%s needs --%s (mcp-debugger call %s --help lists its arguments)", line.tool, name, line.tool)
		}
	}
	return args, nil
}

// resolveSession fills sessionId from --session (a unique prefix is
// enough), or, when the tool requires one and exactly one is open, with it.
func resolveSession(args map[string]any, line callLine, schema toolSchema, sessions []string) error {
	given := line.session
	if s, ok := args["sessionId"].(string); ok && given == "" {
		given = s
	}
	if given == "" {
		if !slices.Contains(schema.Required, "sessionId") {
			return nil
		}
		if len(sessions) != 1 {
			return usagef("%d debug sessions are open: pass --session (mcp-debugger status lists them)", len(sessions))
		}
		args["sessionId"] = sessions[0]
		return nil
	}
	var matches []string
	for _, id := range sessions {
		if strings.HasPrefix(id, given) {
			matches = append(matches, id)
		}
	}
	switch len(matches) {
	case 1:
		args["sessionId"] = matches[0]
	case 0:
		// Not ours to judge: the server's answer says what is wrong.
		args["sessionId"] = given
	default:
		return usagef("--session %s matches %d sessions; give more of the id", given, len(matches))
	}
	return nil
}

// typedValue converts a typed word to the property's JSON type.
func typedValue(p propSchema, word string) (any, error) {
	types := p.types()
	switch {
	case slices.Contains(types, "string") && len(types) == 1:
		return word, nil
	case slices.Contains(types, "boolean") && len(types) == 1:
		b, err := strconv.ParseBool(word)
		if err != nil {
			return nil, fmt.Errorf("want true or false, got %q", word)
		}
		return b, nil
	case slices.Contains(types, "integer") || slices.Contains(types, "number"):
		if n, err := strconv.ParseFloat(word, 64); err == nil {
			return n, nil
		}
		if slices.Contains(types, "string") {
			return word, nil
		}
		return nil, fmt.Errorf("want a number, got %q", word)
	}
	// Objects, arrays and what the schema leaves open: JSON when it
	// parses, else the word as a string.
	var v any
	if err := json.Unmarshal([]byte(word), &v); err == nil {
		return v, nil
	}
	// A list of one, as a shell user writes it: --env GREETING=hi.
	if len(types) == 1 && types[0] == "array" {
		return []any{word}, nil
	}
	if slices.Contains(types, "object") || slices.Contains(types, "array") {
		return nil, fmt.Errorf("want JSON (%s), got %q", strings.Join(types, "|"), word)
	}
	return word, nil
}
