package node

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

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
// runs its tests in the process being debugged. In a project whose
// package.json scripts.test runs node:test (node --test, tsx --test), the
// file runs as that script runs it: from the package's directory, with
// its node options (--import tsx, --experimental-strip-types, ...) and
// environment; given a directory, the one test file the script runs there.
// A failed assertion is caught by the test runner, so it stops through
// the userUnhandled exception filter (userunhandled.go). The plan names no
// test frame: the stop is shown where the exception was thrown, in the
// deepest frame of the user's code (Node's internals, node:assert among
// them, and packages are subtle frames the snapshot passes over), so a
// failed assertion shows the test's line and an exception from the code
// under test shows its throw site and locals. The test's name comes from
// the async resource the runner runs each test in, which is the same in
// every synchronous frame of the test.
func (a *Adapter) TestPlan(_ context.Context, req adapter.TestRequest) (*adapter.TestPlan, error) {
	st, err := os.Stat(req.Path)
	if err != nil {
		return nil, err
	}
	file := filepath.Clean(req.Path)
	dir := file
	if !st.IsDir() {
		dir = filepath.Dir(file)
	}
	script, runsNodeTest := projectTestScript(dir)
	if st.IsDir() {
		if file, err = onlyTestFile(script, runsNodeTest, dir); err != nil {
			return nil, err
		}
	}
	plan := &adapter.TestPlan{
		Runner:             "node:test",
		Program:            file,
		Cwd:                filepath.Dir(file),
		Extra:              map[string]any{},
		ExecutablePath:     req.ExecutablePath,
		BreakOnExceptions:  userUnhandled,
		TestNameExpression: testNameExpression,
	}
	var options []string
	if runsNodeTest {
		options = script.options
		plan.Cwd, plan.Env = script.dir, script.env
		plan.Extra[testScriptArg] = script.text
	}
	if req.Name != "" {
		options = append(withoutNamePatterns(options), "--test-name-pattern=^"+regexp.QuoteMeta(req.Name)+"$")
	}
	if len(options) > 0 {
		plan.Extra["runtimeArgs"] = options
	}
	return plan, nil
}

// onlyTestFile is the test file a directory holds, when it is one: node
// --test runs each file in a child process, which the debugger does not
// follow, so a run under the debugger is one file's.
func onlyTestFile(script testScript, runsNodeTest bool, dir string) (string, error) {
	if !runsNodeTest {
		return "", errors.New("debug_test for JavaScript runs one test file: pass its path (a directory is understood only in a project whose package.json scripts.test runs node --test or tsx --test)")
	}
	files, err := script.testFilesIn(dir)
	if err != nil {
		return "", err
	}
	switch len(files) {
	case 0:
		return "", fmt.Errorf("package.json scripts.test %q runs no test file in %s", script.text, dir)
	case 1:
		return files[0], nil
	}
	names := make([]string, 0, 10)
	for _, f := range files[:min(len(files), 10)] {
		rel, _ := filepath.Rel(dir, f)
		names = append(names, rel)
	}
	return "", fmt.Errorf("package.json scripts.test %q runs %d test files in %s (%s); debug_test runs one: pass its path", script.text, len(files), dir, strings.Join(names, ", "))
}
