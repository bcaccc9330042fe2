package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// toolsListBudget is what the tool list may cost an agent's context: every
// client loads all of it before the first call (issue 15 set 40 KB; it was
// 102 KB).
const toolsListBudget = 40_000

func TestToolListFitsItsBudget(t *testing.T) {
	h := newHarness(t)
	list, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > toolsListBudget {
		t.Errorf("tools/list is %d bytes, over its budget of %d", len(raw), toolsListBudget)
	}
}

// The run-control tools' output schemas leave the answer's common fields to
// the instructions: each must be explained there, or its meaning is lost.
func TestInstructionsExplainRunAnswers(t *testing.T) {
	for _, field := range runFields {
		if !strings.Contains(instructions, "`"+field) {
			t.Errorf("the instructions do not explain the run-control answer's field %q", field)
		}
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
		switch tool.Name {
		case "set_breakpoint", "add_watch":
			seen++
			if a := tool.Annotations; a == nil || a.DestructiveHint == nil || *a.DestructiveHint {
				t.Errorf("%s only adds: it should say destructiveHint false", tool.Name)
			}
		case "start_debugging", "evaluate_expression", "close_debug_session", "set_variable":
			seen++
			if a := tool.Annotations; a != nil && (a.ReadOnlyHint || a.DestructiveHint != nil && !*a.DestructiveHint) {
				t.Errorf("%s runs or changes the program: it must not claim to be harmless: %+v", tool.Name, a)
			}
		}
	}
	if seen != 6 {
		t.Errorf("checked %d of the 6 named tools", seen)
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
