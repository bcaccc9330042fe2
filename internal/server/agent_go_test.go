package server

import (
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// debug_test on go test: a failed t.Errorf is no panic; the run stops where
// the test failed, in the test's own frame, with t.Errorf's message.
func TestGoDebugTestStopsInTheFailingTest(t *testing.T) {
	h := newHarness(t)
	testenv.RequireAdapter(t, "go")
	file := goProgram(t, "failing", "cart_test.go")
	res := h.ok("debug_test", map[string]any{"language": "go", "path": file})
	test := res.obj("test")
	if test.str("runner") != "go test" || test["failed"] != true || !strings.HasSuffix(test.str("name"), "TestTotalWithDiscount") {
		t.Fatalf("debug_test names the failing test: %v", res)
	}
	if !strings.Contains(test.str("message"), "cart_test.go:15: discounted total = 30, want 40") {
		t.Errorf("the failure's message: %q", test.str("message"))
	}
	if loc := res.obj("location"); loc.num("line") != 15 || !strings.HasSuffix(loc.str("file"), "cart_test.go") {
		t.Errorf("the snapshot shows the test's frame: %v", loc)
	}
	if l := res.vars("locals"); l["got"] != "30" {
		t.Errorf("the test's locals: %v", l)
	}

	passing := h.ok("debug_test", map[string]any{"language": "go", "path": file, "name": "TestTotalWithoutDiscount"})
	if pt := passing.obj("test"); pt["passed"] != true || passing.str("state") != "stopped" {
		t.Errorf("a passing test: %v", passing)
	}
}
