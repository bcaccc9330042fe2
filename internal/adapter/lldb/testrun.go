package lldb

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// testPanicLine is what a failing Rust test prints: the panic's place, then
// its message (an assertion's with its left and right values).
var testPanicLine = regexp.MustCompile(`(?m)^thread '[^']*'[^\n]* panicked at [^\n]*\n[^\n]*(?:\n\s*left:[^\n]*\n\s*right:[^\n]*)?`)

// testArtifact is the part of a `cargo test --no-run --message-format=json`
// line we read.
type testArtifact struct {
	Reason string `json:"reason"`
	Target struct {
		Name    string `json:"name"`
		SrcPath string `json:"src_path"`
	} `json:"target"`
	Profile struct {
		Test bool `json:"test"`
	} `json:"profile"`
	Executable string `json:"executable"`
}

// TestPlan builds a Cargo project's tests (`cargo test --no-run`) and runs
// the test binary under lldb-dap: a failed assertion is a panic, which
// stops as an exception (see the rust_panic breakpoint in launch.go).
// Only Rust: C and C++ have no test runner of their own. RUST_BACKTRACE
// is 0 whatever the server inherited: the stop shows the stack, and std's
// backtrace of it is some twenty lines of output per failure.
func (a *Adapter) TestPlan(ctx context.Context, req adapter.TestRequest) (*adapter.TestPlan, error) {
	if a.lang.ID != langRust {
		return nil, fmt.Errorf("debug_test runs cargo test; %s has no test runner to drive", a.lang.DisplayName)
	}
	t, err := classify(req.Path)
	if err != nil {
		return nil, err
	}
	if t.kind != kindCargo {
		return nil, fmt.Errorf("%s is not in a Cargo project: debug_test runs cargo test", req.Path)
	}
	out, err := runTool(ctx, t.path, "cargo", "test", "--no-run", "--message-format=json")
	if err != nil {
		return nil, &adapter.BuildError{Command: "cargo test --no-run in " + t.path, Output: cargoErrors(out)}
	}
	exe, err := pickTestBinary(out, t)
	if err != nil {
		return nil, err
	}
	args := []string{"--nocapture", "--test-threads=1"}
	if req.Name != "" {
		args = append([]string{req.Name}, args...)
	}
	return &adapter.TestPlan{
		Runner:            "cargo test",
		Program:           exe,
		Args:              args,
		Cwd:               t.path,
		Env:               map[string]string{"RUST_BACKTRACE": "0"},
		Runtime:           cargoTestRuntime(ctx, t.path),
		BreakOnExceptions: "uncaught",
		TestFrame:         func(_, path string) bool { return isTestSource(a.finder.machine.OS, t.path, path) },
		FailureOutput:     testPanicLine,
	}, nil
}

// cargoTestRuntime names the package whose tests cargo built, and its
// workspace: "rust: cargo test, package app, workspace /p"; the directory
// alone when cargo cannot say (the tests run all the same).
func cargoTestRuntime(ctx context.Context, dir string) string {
	meta, err := readCargoMetadata(ctx, dir)
	if err != nil {
		return "rust: cargo test in " + dir
	}
	pkg, err := packageAt(meta, dir)
	if err != nil {
		return "rust: cargo test in " + dir
	}
	return fmt.Sprintf("rust: cargo test, package %s, workspace %s", pkg.Name, meta.WorkspaceRoot)
}

// pickTestBinary chooses among the test binaries cargo built: the one built
// from the file the agent named, else the only one.
func pickTestBinary(cargoJSON string, t target) (string, error) {
	var all []testArtifact
	sc := bufio.NewScanner(strings.NewReader(cargoJSON))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		var a testArtifact
		if json.Unmarshal(sc.Bytes(), &a) != nil || a.Reason != "compiler-artifact" || !a.Profile.Test || a.Executable == "" {
			continue
		}
		if t.source != "" && a.Target.SrcPath == t.source {
			return a.Executable, nil
		}
		all = append(all, a)
	}
	switch len(all) {
	case 0:
		return "", fmt.Errorf("cargo built no test binary in %s", t.path)
	case 1:
		return all[0].Executable, nil
	}
	var names []string
	for _, a := range all {
		names = append(names, a.Target.SrcPath)
	}
	return "", fmt.Errorf("the project has several test targets; pass path as one of: %s", strings.Join(names, ", "))
}

// cargoErrors keeps the compiler's rendered messages from cargo's JSON
// lines, so a build error reads as cargo would print it.
func cargoErrors(cargoJSON string) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(cargoJSON))
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		var m struct {
			Reason  string `json:"reason"`
			Message struct {
				Rendered string `json:"rendered"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			b.WriteString(sc.Text() + "\n")
			continue
		}
		if m.Reason == "compiler-message" {
			b.WriteString(m.Message.Rendered)
		}
	}
	return b.String()
}

// isTestSource says whether a frame's path is a Rust source file of the
// workspace at root: the test's own frame. lldb-dap 21 gives a frame
// without line information the path "<binary>`<function>", and the test
// binary is in the workspace too (target/debug/deps): such a frame is no
// source file, however it is named.
// docs/adapter-quirks.md: lldb-29.
func isTestSource(o platform.OS, root, path string) bool {
	return path != root && strings.HasSuffix(path, ".rs") && !strings.Contains(path, "`") && o.Within(root, path)
}
