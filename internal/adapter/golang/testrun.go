package golang

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// failBreakpoint is where every failing Go test passes: t.Error, t.Errorf,
// t.Fatal and t.Fail all end in (*common).Fail. A failed test is no panic,
// so only a breakpoint catches it.
const failBreakpoint = "testing.(*common).Fail"

// testOutputLine is the line t.Errorf prints (streamed at once under
// -test.v): "    cart_test.go:15: discounted total = 30, want 40".
var testOutputLine = regexp.MustCompile(`(?m)^\s*\S+_test\.go:\d+: .*$`)

// TestPlan runs a package's tests in Delve's test mode, stopping in the
// failing test's own frame; panics stop as uncaught exceptions.
func (a *Adapter) TestPlan(_ context.Context, req adapter.TestRequest) (*adapter.TestPlan, error) {
	st, err := os.Stat(req.Path)
	if err != nil {
		return nil, err
	}
	extra := map[string]any{}
	if st.IsDir() {
		extra["mode"] = modeTest
	} else if !strings.HasSuffix(req.Path, "_test.go") {
		extra["mode"] = modeTest
		extra["program"] = packageDir(req.Path)
	}
	args := []string{"-test.v"}
	if req.Name != "" {
		args = append(args, "-test.run", runPattern(req.Name))
	}
	return &adapter.TestPlan{
		Runner:              "go test",
		Program:             req.Path,
		Args:                args,
		Cwd:                 packageDir(req.Path),
		Extra:               extra,
		BreakOnExceptions:   "uncaught",
		FunctionBreakpoints: []string{failBreakpoint},
		TestFrame:           func(_, path string) bool { return strings.HasSuffix(path, "_test.go") },
		FailureOutput:       testOutputLine,
		NothingRan:          func(output string, _ int) bool { return strings.Contains(output, noTestsToRun) },
		TestNames:           func(ctx context.Context) ([]string, error) { return listTests(ctx, packageDir(req.Path)) },
	}, nil
}

// noTestsToRun is what the testing package prints when -test.run matched
// no test (its exit code is still 0).
const noTestsToRun = "testing: warning: no tests to run"

// runPattern is -test.run for a test name as `go test -v` prints it:
// "TestTree/size_11" names the subtest size_11 of TestTree. The testing
// package splits the pattern at each slash and matches every level of the
// name on its own, so each level is anchored by itself (anchoring the
// whole would leave "^(?:TestTree" and "size_11)$", matching nothing).
// A level matches as printed, where the testing package turned spaces
// into underscores and kept "(" or "+" as they are, and also as a regular
// expression ("TestA|TestB") when it is one.
func runPattern(name string) string {
	levels := strings.Split(name, "/")
	for i, l := range levels {
		if i > 0 {
			l = strings.ReplaceAll(l, " ", "_")
		}
		literal := regexp.QuoteMeta(l)
		if _, err := regexp.Compile(l); err == nil && l != literal {
			literal += "|" + l
		}
		levels[i] = "^(?:" + literal + ")$"
	}
	return strings.Join(levels, "/")
}

// listTimeout bounds `go test -list`, which builds the package's tests.
const listTimeout = 2 * time.Minute

// listTests is the package's top-level tests, examples, benchmarks and
// fuzz targets, as `go test -list .` names them.
func listTests(ctx context.Context, dir string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-list", ".")
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go test -list in %s: %w", dir, err)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "ok ") && !strings.HasPrefix(l, "ok\t") {
			names = append(names, l)
		}
	}
	return names, nil
}
