package golang

import (
	"context"
	"os"
	"regexp"
	"strings"

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
		args = append(args, "-test.run", "^(?:"+req.Name+")$")
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
	}, nil
}
