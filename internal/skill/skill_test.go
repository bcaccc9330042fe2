package skill_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/mcp-debugger/mcp-debugger/internal/skill"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mention is a tool the text names, `tool` or `tool {arg, …}`.
var mention = regexp.MustCompile("`([a-z]+(?:_[a-z]+)+)(?: \\{([^}`]*)\\})?`")

// argName is the name at the start of an argument in braces.
var argName = regexp.MustCompile(`^[A-Za-z]+`)

// offered lists the tools of the profile `mcp-debugger setup` writes (the
// default one) with their arguments.
func offered(t *testing.T) map[string][]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := server.New(server.Options{})
	defer srv.Close()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "skill-check", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools := map[string][]string{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		_ = json.Unmarshal(raw, &schema)
		for name := range schema.Properties {
			tools[tool.Name] = append(tools[tool.Name], name)
		}
		if tools[tool.Name] == nil {
			tools[tool.Name] = []string{}
		}
	}
	return tools
}

// untrue lists what text names that the tools do not have.
func untrue(text string, tools map[string][]string) []string {
	var wrong []string
	for _, m := range mention.FindAllStringSubmatch(text, -1) {
		args, ok := tools[m[1]]
		if !ok {
			wrong = append(wrong, fmt.Sprintf("no tool %s", m[1]))
			continue
		}
		for _, arg := range strings.Split(m[2], ",") {
			name := argName.FindString(strings.TrimSpace(arg))
			if name != "" && !slices.Contains(args, name) {
				wrong = append(wrong, fmt.Sprintf("%s takes no %s", m[1], name))
			}
		}
	}
	return wrong
}

// The skill and the subagent name only tools, and arguments of them, that
// the server offers in the profile setup writes: an agent told of a tool
// or argument it does not have tries it anyway.
func TestSkillNamesOnlyWhatTheServerOffers(t *testing.T) {
	tools := offered(t)
	for _, doc := range []struct{ name, text string }{{"skill.md", skill.Skill}, {"agent.md", skill.Agent}} {
		if n := len(mention.FindAllString(doc.text, -1)); n == 0 {
			t.Errorf("%s names no tool in the checked form", doc.name)
		}
		for _, w := range untrue(doc.text, tools) {
			t.Errorf("%s: %s", doc.name, w)
		}
	}
	// The check itself can fail.
	if got := untrue("`no_such_tool` and `debug_test {language, nosuch}`", tools); len(got) != 2 {
		t.Errorf("the check missed a made-up tool or argument: %v", got)
	}
}

// The skill says what issue 39 asks it to: a one-call look is the
// debugger's answer to adding a print and rerunning.
func TestSkillOffersTheOneCallLook(t *testing.T) {
	for _, want := range []string{"add a print and rerun", "`start_debugging {language, scriptPath, args, probes}`", "`debug_test {language, path, name, probes}`", "`record {language, scriptPath}`", "`get_stack_trace {allThreads}`"} {
		if !strings.Contains(skill.Skill, want) {
			t.Errorf("the skill does not say %s", want)
		}
	}
}
