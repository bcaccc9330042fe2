package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// A snapshot over budget loses its least useful parts first and says what
// went; what matters most (where it stopped) stays.
func TestFitCutsLeastUsefulFirst(t *testing.T) {
	snap := session.Snapshot{
		State:      session.StatePaused,
		StopReason: "breakpoint",
		Location:   &session.Location{File: "/p/prog.py", Line: 12, Function: "main"},
		Context: &session.SourceContext{LineContent: "x = 1", Surrounding: []session.SourceLine{
			{Line: 10, Content: "a"}, {Line: 11, Content: "b"}, {Line: 12, Content: "x = 1", Current: true}, {Line: 13, Content: "c"}, {Line: 14, Content: "d"},
		}},
	}
	for i := range 30 {
		snap.Locals = append(snap.Locals, session.Variable{Name: fmt.Sprintf("v%d", i), Value: strings.Repeat("x", 200)})
	}
	for i := range 30 {
		snap.Output = append(snap.Output, session.OutputEntry{Seq: uint64(100 + i), Category: "stdout", Output: strings.Repeat("o", 100) + "\n"})
	}
	res := runResultOf(&snap, "")
	full := sizeOf(res)

	res.fit(6000)
	body, _ := json.Marshal(res)
	if len(body) > 6000 || len(body) >= full {
		t.Fatalf("fit(6000) left %d bytes (from %d)", len(body), full)
	}
	if res.Location == nil || res.Location.Line != 12 {
		t.Fatalf("the location must survive: %+v", res.Location)
	}
	left := strings.Join(res.Budget.LeftOut, "\n")
	if !strings.Contains(left, "long values shortened") || !strings.Contains(left, "get_output with since=99") {
		t.Errorf("first long values, then older output go, each named with how to get it: %s", left)
	}
	if len(res.Locals) != 30 {
		t.Errorf("locals are dropped only as a last resort: %d left", len(res.Locals))
	}

	res.fit(minMaxBytes)
	if len(res.Locals) == 30 || !strings.Contains(strings.Join(res.Budget.LeftOut, "\n"), "locals left out: get_local_variables") {
		t.Errorf("a tight budget drops locals and says so: %v", res.Budget.LeftOut)
	}
}

func TestFitLeavesSmallAnswersAlone(t *testing.T) {
	res := runResultOf(&session.Snapshot{State: session.StateRunning}, "")
	res.fit(defaultMaxBytes)
	if res.Budget != nil {
		t.Errorf("a small answer has no budget note: %+v", res.Budget)
	}
}

func TestFitVariablesPrunesNestingFirst(t *testing.T) {
	var vars []session.Variable
	for i := range 20 {
		v := session.Variable{Name: fmt.Sprintf("v%d", i), Value: "{…}", VariablesReference: i + 1}
		for j := range 3 {
			child := session.Variable{Name: fmt.Sprintf("c%d", j), Value: "{…}"}
			child.Children = []session.Variable{{Name: "deep", Value: strings.Repeat("d", 300)}}
			v.Children = append(v.Children, child)
		}
		vars = append(vars, v)
	}
	got, note := fitVariables(vars, 8000, 100)
	if note == nil || len(got) != 20 || got[0].Children == nil || got[0].Children[0].Children != nil {
		t.Fatalf("the deepest level goes first, the variables stay: %d vars, note %+v", len(got), note)
	}
	got, note = fitVariables(got, minMaxBytes, 100)
	if len(got) == 20 || !strings.Contains(strings.Join(note.LeftOut, "\n"), "page with start=") {
		t.Errorf("a tight budget drops variables from the end and says how to page: %d, %v", len(got), note)
	}
}
