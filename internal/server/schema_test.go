package server

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsListBudgets are what each profile's tool list may cost an agent's
// context: every client loads all of it before the first call. Issue 15
// set 40 KB for the one list there was (it had been 102 KB); the default
// keeps it, with room for arguments still to come, now that every argument
// is described and every answer's shape declared. docs/benchmarks.md
// records the sizes.
var toolsListBudgets = map[Profile]int{
	ProfileCore:    30_000,
	ProfileDefault: 40_000,
	ProfileAll:     56_000,
}

func TestToolListFitsItsBudget(t *testing.T) {
	for _, profile := range Profiles {
		tools, size := toolsOf(t, profile)
		t.Logf("%s: %d tools, %d bytes; instructions %d bytes", profile, len(tools), size, len(instructionsFor(profile)))
		if size > toolsListBudgets[profile] {
			t.Errorf("%s: tools/list is %d bytes, over its budget of %d", profile, size, toolsListBudgets[profile])
		}
	}
}

// The run-control tools' output schemas leave the answer's common fields to
// the instructions: each must be explained there, in every profile, or its
// meaning is lost.
func TestInstructionsExplainRunAnswers(t *testing.T) {
	for _, profile := range Profiles {
		text := instructionsFor(profile)
		for _, field := range runFields {
			if !strings.Contains(text, "`"+field) {
				t.Errorf("%s: the instructions do not explain the run-control answer's field %q", profile, field)
			}
		}
	}
}

// An agent told of a tool it is not offered tries it anyway: the
// instructions, the tools' descriptions and the prompts name only tools the
// profile has.
func TestProfilesNameOnlyToolsTheyOffer(t *testing.T) {
	counts := map[Profile]int{}
	for _, profile := range Profiles {
		tools, _ := toolsOf(t, profile)
		counts[profile] = len(tools)
		offered := map[string]bool{}
		var descriptions strings.Builder
		for _, tool := range tools {
			offered[tool["name"].(string)] = true
			raw, _ := json.Marshal(tool)
			descriptions.Write(raw)
		}
		h := newHarnessOffering(t, profile)
		for prompt, err := range h.cs.Prompts(h.ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			args := map[string]string{}
			for _, a := range prompt.Arguments {
				args[a.Name] = "x"
			}
			got, err := h.cs.GetPrompt(h.ctx, &mcp.GetPromptParams{Name: prompt.Name, Arguments: args})
			if err != nil {
				t.Fatalf("prompt %s: %v", prompt.Name, err)
			}
			raw, _ := json.Marshal(got)
			descriptions.Write(raw)
		}
		for name := range traits {
			if offered[name] != profile.offers(name) {
				t.Errorf("%s: %s offered %v, want %v", profile, name, offered[name], profile.offers(name))
			}
			if offered[name] {
				continue
			}
			word := regexp.MustCompile(`\b` + name + `\b`)
			if word.MatchString(instructionsFor(profile)) {
				t.Errorf("%s: the instructions name %s, which it does not offer", profile, name)
			}
			if word.MatchString(descriptions.String()) {
				t.Errorf("%s: a tool's schema or a prompt names %s, which it does not offer", profile, name)
			}
		}
	}
	if counts[ProfileAll] != len(traits) || counts[ProfileDefault] > cursorMaxTools || counts[ProfileCore] > 20 {
		t.Errorf("tools per profile: %v (all: %d)", counts, len(traits))
	}
}

func TestToolAnnotationsLetClientsAutoApproveReads(t *testing.T) {
	h := newHarness(t)
	list, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, tool := range list.Tools {
		if tool.Title == "" {
			t.Errorf("%s has no title", tool.Name)
		}
		reads := strings.HasPrefix(tool.Name, "get_") || strings.HasPrefix(tool.Name, "list_") ||
			tool.Name == "read_memory" || tool.Name == "disassemble" || tool.Name == "wait_for_stop" ||
			tool.Name == "query_recording"
		readOnly := tool.Annotations != nil && tool.Annotations.ReadOnlyHint
		if reads != readOnly {
			t.Errorf("%s: readOnlyHint %v", tool.Name, readOnly)
		}
		// MCP's default is open-world: a tool that reaches the internet.
		if a := tool.Annotations; a == nil || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s touches only local programs: it should say openWorldHint false", tool.Name)
		}
		switch tool.Name {
		case "set_breakpoint", "add_watch", "step_over", "step_into", "step_out", "continue_execution", "pause_execution":
			seen++
			// Hosts that confirm destructive tools would ask on every step.
			if a := tool.Annotations; a == nil || a.DestructiveHint == nil || *a.DestructiveHint {
				t.Errorf("%s only adds or moves the program already started: it should say destructiveHint false", tool.Name)
			}
		case "start_debugging", "evaluate_expression", "close_debug_session", "set_variable":
			seen++
			if a := tool.Annotations; a != nil && (a.ReadOnlyHint || a.DestructiveHint != nil && !*a.DestructiveHint) {
				t.Errorf("%s runs or changes the program: it must not claim to be harmless: %+v", tool.Name, a)
			}
		}
	}
	if seen != 11 {
		t.Errorf("checked %d of the 11 named tools", seen)
	}
}

// An output schema tells a client what an answer holds before it calls:
// success always, error and hint when it failed, the fields of a nested
// object, and for a run-control tool at least where it stopped.
func TestOutputSchemasDeclareTheirShape(t *testing.T) {
	tools, _ := toolsOf(t, ProfileAll)
	for _, tool := range tools {
		name := tool["name"].(string)
		out, _ := tool["outputSchema"].(map[string]any)
		props, _ := out["properties"].(map[string]any)
		if required, _ := out["required"].([]any); !slices.Contains(required, any("success")) {
			t.Errorf("%s: success is not required: %v", name, out["required"])
		}
		for _, field := range []string{"success", "error", "hint"} {
			if props[field] == nil {
				t.Errorf("%s: the output schema does not declare %s", name, field)
			}
		}
		if strings.HasPrefix(name, "step_") || name == "continue_execution" || name == "start_debugging" {
			if props["state"] == nil || props["location"] == nil {
				t.Errorf("%s: a run-control answer's schema should declare state and location: %v", name, props)
			}
		}
		for field, p := range props {
			p := p.(map[string]any)
			if p["type"] == "object" && p["description"] == nil {
				t.Errorf("%s: the object %s is not described", name, field)
			}
		}
	}
}

// An optional argument is declared with its value's type alone: optional
// means not required, not ["null", "boolean"], which some clients render
// as a type picker and others refuse.
func TestOptionalArgumentsHavePlainTypes(t *testing.T) {
	h := newHarness(t)
	list, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		raw, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			Properties map[string]struct {
				Type any `json:"type"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			t.Fatal(err)
		}
		for name, p := range in.Properties {
			if _, plain := p.Type.(string); !plain {
				t.Errorf("%s: argument %q has type %v, want one JSON type", tool.Name, name, p.Type)
			}
		}
	}
}
