package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// lookPrograms sum 0..4 in a loop, in every language; line is the loop's
// body (total += i), where a print would go.
var lookPrograms = []struct {
	language, file, source string
	line                   int
}{
	{"python", "sum.py", "total = 0\nfor i in range(5):\n    total += i\nprint(total)\n", 3},
	{"javascript", "sum.js", "let total = 0;\nfor (let i = 0; i < 5; i++) {\n  total += i;\n}\nconsole.log(total);\n", 3},
	{"go", "sum.go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\ttotal := 0\n\tfor i := 0; i < 5; i++ {\n\t\ttotal += i\n\t}\n\tfmt.Println(total)\n}\n", 8},
	{"c", "sum.c", "#include <stdio.h>\nint main(void) {\n\tint total = 0;\n\tfor (int i = 0; i < 5; i++) {\n\t\ttotal += i;\n\t}\n\tprintf(\"%d\\n\", total);\n\treturn 0;\n}\n", 5},
	{"ruby", "sum.rb", "total = 0\n5.times do |i|\n  total += i\nend\nputs total\n", 3},
	{"java", "Sum.java", "public class Sum {\n    public static void main(String[] args) {\n        int total = 0;\n        for (int i = 0; i < 5; i++) {\n            total += i;\n        }\n        System.out.println(total);\n    }\n}\n", 5},
}

// One call per look, the debugger's answer to "add a print and rerun": a
// print probe given to start_debugging with a language, no session made
// beforehand, answers the program's end with a row of values per hit and
// its output, and leaves no session behind.
func TestOneCallLooksAtALoopLikeAPrint(t *testing.T) {
	for _, row := range lookPrograms {
		t.Run(row.language, func(t *testing.T) {
			t.Parallel()
			testenv.RequireAdapter(t, row.language)
			prog := filepath.Join(t.TempDir(), row.file)
			if err := os.WriteFile(prog, []byte(row.source), 0o644); err != nil {
				t.Fatal(err)
			}
			h := newHarness(t)
			res := h.ok("start_debugging", map[string]any{"language": row.language, "scriptPath": prog, "timeout": 120000,
				"probes": []string{fmt.Sprintf("%s:%d print i, total", prog, row.line)}})
			if res.str("state") != "stopped" {
				t.Fatalf("the run did not end: %v", res)
			}
			tables := res.list("trace")
			if len(tables) != 1 {
				t.Fatalf("want one trace table, got %v", res["trace"])
			}
			var got []string
			for _, r := range tables[0]["rows"].([]any) {
				got = append(got, fmt.Sprint(r))
			}
			want := []string{"[0 0]", "[1 0]", "[2 1]", "[3 3]", "[4 6]"}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("rows (i, total) %v, want %v (columns %v)", got, want, tables[0]["columns"])
			}
			if !strings.Contains(res.outputText("output"), "10") {
				t.Errorf("the program's output (10) is not in the answer: %v", res["output"])
			}
			if id := res.str("sessionId"); id != "" {
				t.Errorf("the session %s was kept after a printing run", id)
			}
			if sessions := h.ok("list_debug_sessions", map[string]any{}).list("sessions"); len(sessions) != 0 {
				t.Errorf("sessions left after the look: %v", sessions)
			}
		})
	}
}

// A probe without print is a breakpoint: one call answers the stop, with
// the session to go on with; a condition picks the hit.
func TestOneCallStopsAtAConditionalProbe(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	prog := filepath.Join(t.TempDir(), "sum.py")
	if err := os.WriteFile(prog, []byte(lookPrograms[0].source), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	res := h.ok("start_debugging", map[string]any{"language": "python", "scriptPath": prog, "probes": []string{prog + ":3 if i == 3"}})
	wantStop(t, res, "breakpoint", 3)
	if v := res.vars("locals"); v["i"] != "3" || v["total"] != "3" {
		t.Errorf("stopped with locals %v, want i=3 total=3", v)
	}
	id := res.str("sessionId")
	if id == "" {
		t.Fatalf("the answer has no sessionId to go on with: %v", res)
	}
	h.ok("continue_execution", map[string]any{"sessionId": id})
	h.ok("close_debug_session", map[string]any{"sessionId": id})
}

// A probe that cannot be read, or a language nobody knows, is refused
// with what to write, and no session is left.
func TestOneCallRefusesBadProbesAndLeavesNothing(t *testing.T) {
	h := newHarness(t)
	for _, args := range []map[string]any{
		{"language": "python", "scriptPath": "x.py", "probes": []string{"x.py"}},
		{"language": "python", "scriptPath": "x.py", "probes": []string{"x.py:3 show i"}},
		{"language": "python", "scriptPath": "x.py", "probes": []string{"x.py:3 print "}},
		{"language": "nosuch", "scriptPath": "x.py"},
		{"sessionId": "abc", "language": "python", "scriptPath": "x.py"},
		{"scriptPath": "x.py"},
	} {
		res, isErr := h.call("start_debugging", args)
		if !isErr {
			t.Errorf("start_debugging %v was not refused: %v", args, res)
		}
	}
	if sessions := h.ok("list_debug_sessions", map[string]any{}).list("sessions"); len(sessions) != 0 {
		t.Errorf("sessions left after refused looks: %v", sessions)
	}
}

// debug_test takes the same probes: a print probe in the code under test
// shows each iteration's values beside the failure.
func TestDebugTestWithAPrintProbe(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	dir := t.TempDir()
	test := filepath.Join(dir, "test_sum.py")
	src := "def total(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 7\n"
	if err := os.WriteFile(test, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	res := h.ok("debug_test", map[string]any{"language": "python", "path": test, "probes": []string{test + ":4 print x, t"}, "timeout": 120000})
	if !res.obj("test")["failed"].(bool) {
		t.Fatalf("the test should fail: %v", res)
	}
	tables := res.list("trace")
	if len(tables) != 1 || fmt.Sprint(tables[0]["rows"]) != "[[1 0] [2 1] [3 3]]" {
		t.Errorf("trace (x, t): %v", res["trace"])
	}
	h.ok("close_debug_session", map[string]any{"sessionId": res.str("sessionId")})
}
