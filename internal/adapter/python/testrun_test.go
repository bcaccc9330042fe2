package python

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// pytestOutput runs one test of a fixture under plain pytest, as debug_test
// would without the debugger, and returns what pytest printed.
func pytestOutput(t *testing.T, file, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	path := fixture(t, file)
	plan, err := New().TestPlan(ctx, adapter.TestRequest{Path: path, Name: name})
	if err != nil {
		t.Skip(err)
	}
	cmd := exec.CommandContext(ctx, plan.ExecutablePath, append([]string{"-m", "pytest"}, plan.Args...)...)
	cmd.Dir = filepath.Dir(path)
	out, err := cmd.CombinedOutput()
	if _, failed := err.(*exec.ExitError); !failed {
		t.Fatalf("want the test to fail, got %v: %s", err, out)
	}
	return string(out)
}

// pytest cuts the summary's message to the terminal's width; the message
// then comes whole from the report's "E" lines.
func TestPytestFailureWholeMessage(t *testing.T) {
	out := pytestOutput(t, filepath.Join("tests", "test_deep.py"), "test_depth_of_a_cycle")
	name, msg := pytestFailure(out)
	if name != "test_deep.py::test_depth_of_a_cycle" || !strings.HasPrefix(msg, "RecursionError: maximum recursion depth exceeded") || strings.HasSuffix(msg, "...") {
		t.Errorf("pytestFailure = %q, %q from:\n%s", name, msg, out)
	}
}

// A failed assertion's report ends with two "E" lines: the message and
// pytest's explanation.
func TestPytestFailureAssertion(t *testing.T) {
	out := pytestOutput(t, filepath.Join("tests", "test_cart.py"), "test_total_with_discount")
	name, msg := pytestFailure(out)
	if name != "test_cart.py::test_total_with_discount" || msg != "AssertionError: discounted total\nassert 30.0 == 40" {
		t.Errorf("pytestFailure = %q, %q from:\n%s", name, msg, out)
	}
}
