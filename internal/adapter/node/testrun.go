package node

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

var _ adapter.TestRunner = (*Adapter)(nil)

// testNameExpression is, evaluated where a node:test test failed, the
// test's name: the test runner runs each test function inside its Test
// (an AsyncResource), which async_hooks hands back. The test's frame has
// no require of its own in scope: process.getBuiltinModule (Node 20.16+)
// or the main module's require reach async_hooks. Past an await the
// resource is another one, and the name is then the frame's.
const testNameExpression = `((h) => { const r = h && h.executionAsyncResource(); return r && typeof r.name === "string" && typeof r.fn === "function" ? r.name : ""; })(process.getBuiltinModule?.("node:async_hooks") ?? process.mainModule?.require("node:async_hooks"))`

// TestPlan runs a node:test file directly (`node file.test.js`), which
// runs its tests in the process being debugged. A failed assertion is
// caught by the test runner, so it stops through the userUnhandled
// exception filter (userunhandled.go). The plan names no test frame: the
// stop is shown where the exception was thrown, in the deepest frame of
// the user's code (Node's internals, node:assert among them, and packages
// are subtle frames the snapshot passes over), so a failed assertion shows
// the test's line and an exception from the code under test shows its
// throw site and locals. The test's name comes from the async resource the
// runner runs each test in, which is the same in every synchronous frame of
// the test.
func (a *Adapter) TestPlan(_ context.Context, req adapter.TestRequest) (*adapter.TestPlan, error) {
	st, err := os.Stat(req.Path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, errors.New("debug_test for JavaScript runs one test file: pass its path (node --test on a directory runs each file in a child process, which the debugger does not follow)")
	}
	extra := map[string]any{}
	if req.Name != "" {
		extra["runtimeArgs"] = []string{"--test-name-pattern=^" + regexp.QuoteMeta(req.Name) + "$"}
	}
	file := filepath.Clean(req.Path)
	return &adapter.TestPlan{
		Runner:             "node:test",
		Program:            file,
		Cwd:                filepath.Dir(file),
		Extra:              extra,
		ExecutablePath:     req.ExecutablePath,
		BreakOnExceptions:  userUnhandled,
		TestNameExpression: testNameExpression,
	}, nil
}
