package server

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/golang"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/java"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/lldb"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/node"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/python"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/ruby"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// The behaviours of the conformance table, in the table's order.
const (
	behaviourBreakpoint = "line breakpoint"
	behaviourCondition  = "condition"
	behaviourStepOver   = "step over"
	behaviourStepInto   = "step into"
	behaviourStepOut    = "step out"
	behaviourLocals     = "locals"
	behaviourEvaluate   = "evaluate"
	behaviourException  = "exception stop"
	behaviourOutput     = "output"
	behaviourExitCode   = "exit code"
	behaviourAttach     = "attach"
	behaviourClose      = "close leaves no process"
)

var conformBehaviours = []string{
	behaviourBreakpoint, behaviourCondition, behaviourStepOver, behaviourStepInto, behaviourStepOut,
	behaviourLocals, behaviourEvaluate, behaviourException, behaviourOutput, behaviourExitCode,
	behaviourAttach, behaviourClose,
}

// conformRow is one language's row: its program, the lines the cells use
// and what the program does there. Every program has the same shape:
// weigh(item, factor) { scaled = item * factor; return scaled } called in
// a loop over i = 0..3 with factor 3 from main; raiseArg takes the
// exception path, "wait" (but in Ruby's, which rdbg --open holds at its
// first line) loops on weigh for an attach.
type conformRow struct {
	language string
	// requires are the tools the row needs beyond its adapter.
	requires []func(*testing.T)
	// source is the file the lines are in; script is start_debugging's
	// scriptPath.
	source, script func(*testing.T) string
	// loopLine calls weigh; weighLine is weigh's first line, the next its
	// second; raiseLine is where raiseArg stops the program.
	loopLine, weighLine, raiseLine int
	raiseArg                       string
	// raiseText is what the exception stop's description says.
	raiseText string
	// stepOverLine, when set, is where a step over from weigh's first
	// line stops, for a language whose next line has no stop of its own.
	stepOverLine int
	// stepOutReturnLine, when set, is where step out stops first: the
	// adapter stops on the method's return, and a step over then reaches
	// the caller.
	stepOutReturnLine int
	// launchStart and raiseStart add arguments to the starts of the
	// launched session and of the exception path.
	launchStart, raiseStart map[string]any
	// processes is how many processes a launched session starts at least:
	// the program and, unless the adapter is built in or runs inside the
	// program (rdbg), the adapter.
	processes int
	// output is a line the program prints; exitCode its end's exit code.
	output   string
	exitCode int
	// attach starts the program waiting ("wait") the way a user would for
	// an attach and returns attach_to_process's arguments.
	attach func(*testing.T) map[string]any
	// notApplicable gives, per behaviour the language cannot do, why.
	notApplicable map[string]string
}

func testdataFile(parts ...string) func(*testing.T) string {
	return func(t *testing.T) string {
		return filepath.Join(append([]string{repoRoot(t), "testdata"}, parts...)...)
	}
}

func conformRows() []conformRow {
	needCC := requireTool("apt-get install -y gcc", "cc")
	needCXX := requireTool("apt-get install -y g++", "c++")
	needCargo := requireTool("rustup or apt-get install -y cargo", "cargo")
	needNode := requireTool("apt-get install -y nodejs", "node")
	needRuby := requireTool("apt-get install -y ruby", "ruby")
	needJava := requireTool("apt-get install -y openjdk-17-jdk-headless", "java", "javac")
	ts := testdataFile("node", "ts", "dist", "conform.js")
	return []conformRow{{
		language: "python", source: testdataFile("python", "conform.py"), script: testdataFile("python", "conform.py"),
		loopLine: 16, weighLine: 9, raiseLine: 18, raiseArg: "raise", raiseText: "bad mode raise",
		// debugpy stops at sys.exit(3) as at an uncaught exception
		// (SystemExit with a non-zero code): the launched session asks it
		// not to, for the program to reach its exit code.
		launchStart: map[string]any{"breakOnExceptions": "none"},
		output:      "conform total 18", exitCode: 3, processes: 2,
		attach: func(t *testing.T) map[string]any {
			av := testenv.RequireAdapter(t, "python")
			port := strconv.Itoa(freePort(t))
			cmd := exec.Command(av.Path, "-u", "-m", "debugpy", "--listen", "127.0.0.1:"+port, "--wait-for-client", testdataFile("python", "conform.py")(t), "wait")
			// debugpy says nothing when it listens: the attach retries
			// until it does.
			p, err := proc.Start(cmd)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(p.Kill)
			return map[string]any{"host": "127.0.0.1", "port": port}
		},
	}, {
		language: "go", source: testdataFile("go", "conform", "main.go"), script: testdataFile("go", "conform"),
		loopLine: 24, weighLine: 13, raiseLine: 27, raiseArg: "raise", raiseText: "bad mode raise",
		output: "conform total 18", exitCode: 3, processes: 2,
		attach: func(t *testing.T) map[string]any {
			return attachByPID(t, exec.Command(buildGo(t, "conform"), "wait"))
		},
	}, {
		language: "c", requires: []func(*testing.T){needCC},
		source: testdataFile("native", "c", "conform.c"), script: testdataFile("native", "c", "conform.c"),
		loopLine: 17, weighLine: 9, raiseLine: 21, raiseArg: "raise", raiseText: "SIGSEGV",
		output: "conform total 18", exitCode: 3, processes: 2,
		attach: func(t *testing.T) map[string]any {
			return attachByPID(t, exec.Command(buildC(t, testdataFile("native", "c", "conform.c")(t)), "wait"))
		},
	}, {
		// An uncaught throw ends in std::terminate's abort: lldb-dap stops
		// on the SIGABRT, shown at the throw's line; what() is only in the
		// output terminate prints.
		language: "cpp", requires: []func(*testing.T){needCXX},
		source: testdataFile("native", "cpp", "conform.cpp"), script: testdataFile("native", "cpp", "conform.cpp"),
		loopLine: 20, weighLine: 12, raiseLine: 23, raiseArg: "raise", raiseText: "SIGABRT",
		output: "conform total 18", exitCode: 3, processes: 2,
		attach: func(t *testing.T) map[string]any {
			bin := filepath.Join(t.TempDir(), "conform")
			if b, err := exec.Command("c++", "-g", "-O0", "-o", bin, testdataFile("native", "cpp", "conform.cpp")(t)).CombinedOutput(); err != nil {
				t.Fatalf("c++: %v\n%s", err, b)
			}
			return attachByPID(t, exec.Command(bin, "wait"))
		},
	}, {
		// Rust's row reuses testdata/native/rust, which has the shape
		// already: a panic for "panic", a wait for "wait", exit code 0.
		language: "rust", requires: []func(*testing.T){needCargo},
		source: testdataFile("native", "rust", "src", "main.rs"), script: testdataFile("native", "rust"),
		loopLine: 18, weighLine: 7, raiseLine: 21, raiseArg: "panic", raiseText: "panic",
		// weigh's tail expression has no line of its own in rustc's line
		// table: the step lands on the closing brace.
		stepOverLine: 9,
		output:       "widget 3 24 3 Some(7) 18", exitCode: 0, processes: 2,
		attach: func(t *testing.T) map[string]any {
			build := exec.Command("cargo", "build")
			build.Dir = testdataFile("native", "rust")(t)
			if b, err := build.CombinedOutput(); err != nil {
				t.Fatalf("cargo build: %v\n%s", err, b)
			}
			return attachByPID(t, exec.Command(filepath.Join(build.Dir, "target", "debug", "loop_rust"), "wait"))
		},
	}, {
		language: "javascript", requires: []func(*testing.T){needNode},
		source: testdataFile("node", "conform.js"), script: testdataFile("node", "conform.js"),
		loopLine: 12, weighLine: 5, raiseLine: 15, raiseArg: "raise", raiseText: "bad mode raise",
		output: "conform total 18", exitCode: 3, processes: 1,
		attach: func(t *testing.T) map[string]any { return attachToInspector(t, testdataFile("node", "conform.js")(t)) },
	}, {
		// The program runs compiled (dist/conform.js) with its source map;
		// breakpoints and stops are in the .ts source.
		language: "typescript", requires: []func(*testing.T){needNode},
		source: testdataFile("node", "ts", "src", "conform.ts"), script: ts,
		loopLine: 11, weighLine: 4, raiseLine: 14, raiseArg: "raise", raiseText: "bad mode raise",
		output: "conform total 18", exitCode: 3, processes: 1,
		attach: func(t *testing.T) map[string]any { return attachToInspector(t, ts(t)) },
	}, {
		language: "ruby", requires: []func(*testing.T){needRuby},
		source: testdataFile("ruby", "conform.rb"), script: testdataFile("ruby", "conform.rb"),
		loopLine: 12, weighLine: 5, raiseLine: 14, raiseArg: "raise", raiseText: "bad mode raise",
		// rdbg's step out (its fin) stops on weigh's return, at its end.
		stepOutReturnLine: 7,
		// rdbg has no filter for uncaught exceptions: "all" stops at the
		// raise.
		raiseStart: map[string]any{"breakOnExceptions": "all"},
		output:     "conform total 18", exitCode: 3, processes: 1,
		attach: func(t *testing.T) map[string]any {
			// rdbg --open holds the program at its first line until the
			// attach; the loop then calls weigh.
			_, port := rdbgOpen(t, testdataFile("ruby", "conform.rb")(t), false)
			return map[string]any{"host": "127.0.0.1", "port": port}
		},
	}, {
		language: "java", requires: []func(*testing.T){needJava},
		source: testdataFile("java", "Conform.java"), script: testdataFile("java", "Conform.java"),
		loopLine: 14, weighLine: 6, raiseLine: 17, raiseArg: "raise", raiseText: "bad mode raise",
		output: "conform total 18", exitCode: 3, processes: 1,
		attach: func(t *testing.T) map[string]any {
			cmd := exec.Command("java", "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:0", testdataFile("java", "Conform.java")(t), "wait")
			port, _ := startForAttach(t, cmd, cmd.StdoutPipe, regexp.MustCompile(`Listening for transport dt_socket at address: (\d+)`))
			return map[string]any{"host": "127.0.0.1", "port": port}
		},
	}}
}

// startForAttach starts cmd, reads the stream pipe gives until a line
// matches ready, and returns the match's first group and the program's
// pid; the rest of the stream is drained until the program is killed at
// the test's end.
func startForAttach(t *testing.T, cmd *exec.Cmd, pipe func() (io.ReadCloser, error), ready *regexp.Regexp) (string, int) {
	t.Helper()
	stream, err := pipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	sc := bufio.NewScanner(stream)
	for sc.Scan() {
		if m := ready.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return m[1], p.Pid()
		}
	}
	t.Fatalf("%s never printed a line matching %q", cmd.Path, ready)
	return "", 0
}

// attachByPID starts a built program in its "wait" mode, waits for its
// "ready" and returns attach_to_process's arguments for its process id.
func attachByPID(t *testing.T, cmd *exec.Cmd) map[string]any {
	t.Helper()
	_, pid := startForAttach(t, cmd, cmd.StdoutPipe, regexp.MustCompile(`^(ready)`))
	return map[string]any{"processId": pid}
}

// attachToInspector runs script under node --inspect in its "wait" mode
// and returns attach_to_process's arguments for the inspector's port.
func attachToInspector(t *testing.T, script string) map[string]any {
	t.Helper()
	cmd := exec.Command("node", "--inspect=127.0.0.1:0", script, "wait")
	port, _ := startForAttach(t, cmd, cmd.StderrPipe, regexp.MustCompile(`ws://127\.0\.0\.1:(\d+)/`))
	return map[string]any{"host": "127.0.0.1", "port": port}
}

// A cell's mark in the support matrix.
const (
	cellPass          = "✓"
	cellFail          = "✗"
	cellNotApplicable = "n/a"
	cellSkipped       = "skipped"
)

// supportMatrix collects the cells' marks and the n/a reasons.
type supportMatrix struct {
	languages []string
	marks     map[string]string // language + "/" + behaviour
	reasons   []string
}

func newSupportMatrix(rows []conformRow) *supportMatrix {
	m := &supportMatrix{marks: map[string]string{}}
	for _, row := range rows {
		m.languages = append(m.languages, row.language)
	}
	return m
}

func (m *supportMatrix) mark(language, behaviour, mark, reason string) {
	m.marks[language+"/"+behaviour] = mark
	if reason != "" {
		m.reasons = append(m.reasons, fmt.Sprintf("- %s, %s: %s", language, behaviour, reason))
	}
}

// cellsNotRun counts the cells with no pass, fail or n/a mark.
func (m *supportMatrix) cellsNotRun() int {
	missing := 0
	for _, row := range m.languages {
		for _, b := range conformBehaviours {
			if mark := m.marks[row+"/"+b]; mark == "" || mark == cellSkipped {
				missing++
			}
		}
	}
	return missing
}

// markdown is docs/support-matrix.md: behaviours down, languages across.
func (m *supportMatrix) markdown() string {
	var b strings.Builder
	b.WriteString("# Support matrix\n\n")
	b.WriteString("Written by `go test ./internal/server/ -run TestConformance -update-matrix`; the test fails when\n")
	b.WriteString("this file differs from what the run produced. Each cell is the subtest\n")
	b.WriteString("`TestConformance/<language>/<behaviour>`, run on the real adapter and the language's\n")
	b.WriteString("`testdata/*/conform.*` program (Rust: `testdata/native/rust`). The exception stop is at an\n")
	b.WriteString("uncaught exception, a Go or Rust panic, C's SIGSEGV; attach is by process id (Go, C, C++,\n")
	b.WriteString("Rust) or by the port of the runtime's own debug server (debugpy, node --inspect, rdbg --open, JDWP).\n\n")
	b.WriteString("| behaviour | " + strings.Join(m.languages, " | ") + " |\n")
	b.WriteString("|---" + strings.Repeat("|:-:", len(m.languages)) + "|\n")
	for _, behaviour := range conformBehaviours {
		b.WriteString("| " + behaviour)
		for _, row := range m.languages {
			mark := m.marks[row+"/"+behaviour]
			if mark == "" {
				mark = "not run"
			}
			b.WriteString(" | " + mark)
		}
		b.WriteString(" |\n")
	}
	if len(m.reasons) > 0 {
		b.WriteString("\nn/a:\n\n")
		reasons := slices.Clone(m.reasons)
		slices.Sort(reasons)
		b.WriteString(strings.Join(reasons, "\n") + "\n")
	}
	return b.String()
}
