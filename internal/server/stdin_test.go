package server

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The program's standard input, in every language: given as text it is
// what the program reads, and a restart reads it again; given as a file,
// the same. Without it a program reads end of file at once.
func TestProgramReadsTheStdinGiven(t *testing.T) {
	rows := []struct {
		language string
		program  func(t *testing.T) string
	}{
		{"python", func(t *testing.T) string { return pythonProgram(t, "stdin.py") }},
		{"go", func(t *testing.T) string { return goProgram(t, "stdin", "main.go") }},
		{"c", func(t *testing.T) string { return nativeProgram(t, "c", "stdin.c") }},
		{"ruby", func(t *testing.T) string { return rubyProgram(t, "stdin.rb") }},
		{"javascript", func(t *testing.T) string { return nodeProgram(t, "stdin.js") }},
		{"java", func(t *testing.T) string { return javaSource(t, "Stdin.java") }},
	}
	for _, row := range rows {
		t.Run(row.language, func(t *testing.T) {
			h := newHarness(t)
			prog := row.program(t)
			var id string
			if row.language == "go" && refusedByAnOldDelve(t, h, "start_debugging", map[string]any{"language": "go", "scriptPath": prog, "stdin": "alpha\n"}) {
				return
			}
			run := func(tool string, args map[string]any) string {
				t.Helper()
				if tool == "start_debugging" {
					id = h.sessionFor(row.language)
					args["scriptPath"] = prog
				}
				args["sessionId"], args["timeout"] = id, 120000
				end := h.ok(tool, args)
				if end.str("state") != "stopped" {
					t.Fatalf("%s should run the program to its end: %v", tool, end)
				}
				return h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
			}
			if got := run("start_debugging", map[string]any{"stdin": "alpha\nbeta\n"}); got != "read 2 lines, first alpha\n" {
				t.Errorf("with stdin text the program reads it: %q", got)
			}
			if got := run("restart_debugging", map[string]any{}); got != "read 2 lines, first alpha\n" {
				t.Errorf("a restart reads the same input again: %q", got)
			}
			file := filepath.Join(t.TempDir(), "input.txt")
			if err := os.WriteFile(file, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := run("start_debugging", map[string]any{"stdinFile": file}); got != "read 3 lines, first one\n" {
				t.Errorf("with stdinFile the program reads the file: %q", got)
			}
			if got := run("start_debugging", map[string]any{}); got != "read 0 lines, first none\n" {
				t.Errorf("without input the program reads end of file: %q", got)
			}
		})
	}
}

// A test run and a recording read the standard input they are given, as
// start_debugging's program does: debug_test's failure message and the
// recorded program's output say what was read. pytest's capture would
// refuse the read: the tests run without it when input was given.
func TestTestsAndRecordingsReadTheStdinGiven(t *testing.T) {
	failure := func(h *harness, res result) string { return res.obj("test").str("message") }
	output := func(h *harness, res result) string {
		return h.ok("get_output", map[string]any{"sessionId": res.str("sessionId")}).outputText("entries")
	}
	rows := []struct {
		tool, language, target, path string
		// said is what shows the input was read: the failing test's
		// message, or the recorded program's output.
		said func(h *harness, res result) string
	}{
		{"debug_test", "python", "path", filepath.Join(repoRoot(t), "testdata", "python", "stdintests", "test_input.py"), failure},
		{"debug_test", "go", "path", goProgram(t, "stdin", "stdin_test.go"), failure},
		{"record", "python", "scriptPath", pythonProgram(t, "stdin.py"), output},
		{"record", "javascript", "scriptPath", nodeProgram(t, "stdin.js"), output},
		{"record", "java", "scriptPath", javaSource(t, "Stdin.java"), output},
		{"record", "go", "scriptPath", goProgram(t, "stdin", "main.go"), output},
		{"record", "c", "scriptPath", nativeProgram(t, "c", "stdin.c"), output},
	}
	for _, tool := range []string{"debug_test", "record"} {
		t.Run(tool, func(t *testing.T) {
			for _, row := range rows {
				if row.tool != tool {
					continue
				}
				t.Run(row.language, func(t *testing.T) {
					t.Parallel()
					h := newHarness(t)
					args := map[string]any{"language": row.language, row.target: row.path, "stdin": "alpha\nbeta\n"}
					if row.language == "go" && refusedByAnOldDelve(t, h, tool, args) {
						return
					}
					if said := row.said(h, h.ok(tool, args)); !strings.Contains(said, "read 2 lines, first alpha") {
						t.Errorf("%s should show the input was read (read 2 lines, first alpha): %q", tool, said)
					}
				})
			}
		})
	}
}

// A program that reads past the end of an input it was not given stops at
// the language's exception for it, and the stop says to give it input;
// given input, the same program runs to its end.
func TestReadingPastNoInputSaysToGiveSome(t *testing.T) {
	rows := []struct {
		language, program string
	}{
		{"python", pythonProgram(t, "ask.py")},
		{"java", javaSource(t, "Ask.java")},
	}
	for _, row := range rows {
		t.Run(row.language, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			id := h.sessionFor(row.language)
			stop := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": row.program, "timeout": 60000})
			if stop.str("stopReason") != "exception" {
				t.Fatalf("reading past no input stops at the exception: %v", stop)
			}
			if hint := stop.obj("exception").str("hint"); !strings.Contains(hint, "stdin") {
				t.Errorf("the exception's stop should say to pass stdin: %v", stop["exception"])
			}
			end := h.ok("restart_debugging", map[string]any{"sessionId": id, "stdin": "ada\n", "timeout": 60000})
			if end.str("state") != "stopped" {
				t.Fatalf("with input the program ends: %v", end)
			}
			if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(out, "hello ada") {
				t.Errorf("with input the program greets ada: %q", out)
			}
		})
	}
}

// refusedByAnOldDelve makes the call and reports whether it was refused as
// a Delve before 1.26 must refuse input (its launch has no stdinFrom:
// delve-25), saying to upgrade: the other path, which the matrix's older
// Delve rows take. Any other failure fails the test; a success is false,
// and the caller goes on with the input read.
func refusedByAnOldDelve(t *testing.T, h *harness, tool string, args map[string]any) bool {
	t.Helper()
	res, _ := h.call(tool, maps.Clone(args))
	if res["success"] != false {
		if id := res.str("sessionId"); id != "" {
			// Closed already when the run closed itself: either is fine.
			h.call("close_debug_session", map[string]any{"sessionId": id})
		}
		return false
	}
	if msg := res.str("error"); !strings.Contains(msg, "cannot give the program its standard input") || !strings.Contains(msg, "upgrade it") {
		t.Fatalf("%s with stdin failed for another reason: %v", tool, res)
	}
	t.Logf("this Delve takes no input, and %s says to upgrade it: %s", tool, res.str("error"))
	return true
}
