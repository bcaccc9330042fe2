package python

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// The runners debug_test drives for Python.
const (
	runnerPytest   = "pytest"
	runnerUnittest = "unittest"
)

// testRunner is the runner the agent chose, else the one the project
// uses: pytest when its configuration or its tests name pytest, or its own
// environment has it installed; unittest for a unittest suite; pytest
// otherwise, for bare test functions are pytest's format (unittest would
// find no test in them).
func (a *Adapter) testRunner(ctx context.Context, req adapter.TestRequest, dir, root string, s search) (string, error) {
	switch r := strings.ToLower(req.Runner); r {
	case runnerPytest, runnerUnittest:
		return r, nil
	case "":
	default:
		return "", fmt.Errorf("runner %q: Python's tests run with pytest or unittest", req.Runner)
	}
	uses := testImports(req.Path)
	if uses[runnerPytest] || pytestConfigured(dir, root) {
		return runnerPytest, nil
	}
	if cands := a.finder.preferred(ctx, s); len(cands) > 0 && isEnvironment(cands[0].origin) &&
		cands[0].missing == nil && importsPytest(ctx, cands[0].path, s) == nil {
		return runnerPytest, nil
	}
	if uses[runnerUnittest] {
		return runnerUnittest, nil
	}
	return runnerPytest, nil
}

// pytestSections are the configuration files and the sections in them
// that say a project runs pytest ("" : the file alone says it).
var pytestSections = map[string]string{
	"conftest.py":    "",
	"pytest.ini":     "",
	".pytest.ini":    "",
	"pyproject.toml": "[tool.pytest",
	"setup.cfg":      "[tool:pytest]",
	"tox.ini":        "[pytest]",
}

// pytestConfigured reports whether a directory from dir up to root holds
// pytest's configuration.
func pytestConfigured(dir, root string) bool {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		for file, section := range pytestSections {
			b, err := os.ReadFile(filepath.Join(d, file))
			if err == nil && (section == "" || strings.Contains(string(b), section)) {
				return true
			}
		}
		if d == filepath.Clean(root) || filepath.Dir(d) == d {
			return false
		}
	}
}

// testImport finds a test module's import of a runner.
var testImport = regexp.MustCompile(`(?m)^\s*(?:import|from)\s+(pytest|unittest)\b`)

// maxScannedTests bounds the files of a test directory read for their
// imports, and maxScannedBytes each file's bytes.
const (
	maxScannedTests = 200
	maxScannedBytes = 1 << 20
)

// testImports says which runners the test modules at path (a file, or the
// test_*.py and *_test.py files under a directory) import.
func testImports(path string) map[string]bool {
	uses := map[string]bool{}
	scan := func(file string) {
		f, err := os.Open(file)
		if err != nil {
			return
		}
		defer f.Close()
		b := make([]byte, maxScannedBytes)
		n, _ := f.Read(b)
		for _, m := range testImport.FindAllSubmatch(b[:n], -1) {
			uses[string(m[1])] = true
		}
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		scan(path)
		return uses
	}
	seen := 0
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || seen >= maxScannedTests {
			return filepath.SkipDir
		}
		name := d.Name()
		if d.IsDir() && p != path && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "__pycache__") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".py") && (strings.HasPrefix(name, "test") || strings.HasSuffix(name, "_test.py")) {
			seen++
			scan(p)
		}
		return nil
	})
	return uses
}

// unittestNameExpression is the running test's id
// ("tests.test_area.AreaTest.test_square"): unittest keeps no global
// record of it, so the expression walks the paused thread's frames to the
// TestCase whose method runs.
const unittestNameExpression = `next((f.f_locals["self"].id() for f, _ in __import__("traceback").walk_stack(None) ` +
	`if isinstance(f.f_locals.get("self"), __import__("unittest").TestCase)), "")`

// unittestPlan runs `python -m unittest discover` on the test file or
// directory: discovery imports the tests from the top of their package
// (packageTop), with cwd on sys.path for the project's own packages, as
// `python -m unittest` from the project's root does.
func (a *Adapter) unittestPlan(ctx context.Context, req adapter.TestRequest, dir, cwd string, s search) *adapter.TestPlan {
	top := packageTop(dir, cwd)
	// -f: the first failure is the one to look at.
	args := []string{"discover", "-f", "-s", dir, "-t", top}
	if dir != req.Path {
		args = append(args, "-p", filepath.Base(req.Path))
	}
	if req.Name != "" {
		args = append(args, "-k", req.Name)
	}
	// The launch chooses the interpreter as start_debugging does; the
	// listing of the tests takes the first it would look at.
	lister := "python3"
	if cands := a.finder.preferred(ctx, s); len(cands) > 0 && cands[0].missing == nil && len(cands[0].args) == 0 {
		lister = cands[0].path
	}
	return &adapter.TestPlan{
		Runner:             runnerUnittest,
		Program:            req.Path,
		Args:               args,
		Cwd:                cwd,
		Env:                req.Env,
		Extra:              map[string]any{"module": runnerUnittest},
		ExecutablePath:     req.ExecutablePath,
		BreakOnExceptions:  "userUnhandled",
		TestNameExpression: unittestNameExpression,
		FailureSummary:     unittestFailure,
		NothingRan: func(output string, _ int) bool {
			return unittestRanNone.MatchString(output)
		},
		TestNames: func(ctx context.Context) ([]string, error) {
			return unittestList(ctx, lister, cwd, dir, top, args, s)
		},
	}
}

// packageTop is the directory discovery imports dir's tests from: the
// first directory above dir's chain of packages (__init__.py), stopping
// at cwd.
func packageTop(dir, cwd string) string {
	top := filepath.Clean(dir)
	for top != filepath.Clean(cwd) && isRegularFile(filepath.Join(top, "__init__.py")) && filepath.Dir(top) != top {
		top = filepath.Dir(top)
	}
	return top
}

func isRegularFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

var (
	// unittestRanNone is unittest's summary of a run of no test.
	unittestRanNone = regexp.MustCompile(`(?m)^Ran 0 tests`)
	// unittestHeader opens a failure's report: "FAIL: test_square
	// (tests.test_area.AreaTest.test_square)" (before 3.11 the
	// parentheses hold the class alone); ERROR for an exception, an import
	// that failed among them.
	unittestHeader = regexp.MustCompile(`(?m)^(?:FAIL|ERROR): (\S+) \(([^)]*)\)\s*$`)
	// unittestRule separates the parts of unittest's report.
	unittestRule = regexp.MustCompile(`^(?:-{20,}|={20,})$`)
)

// unittestFailure reads the first failing test's id and its exception's
// last line from unittest's report, for a run that failed without
// stopping (a test module that could not be imported).
func unittestFailure(output string) (name, message string) {
	loc := unittestHeader.FindStringSubmatchIndex(output)
	if loc == nil {
		return "", ""
	}
	method, id := output[loc[2]:loc[3]], output[loc[4]:loc[5]]
	name = id
	if !strings.HasSuffix(id, "."+method) {
		name = id + "." + method
	}
	lines := strings.Split(output[loc[1]:], "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if unittestRule.MatchString(l) && i > 1 {
			break
		}
		if l != "" && !unittestRule.MatchString(l) {
			message = l
		}
	}
	return name, message
}

// listTimeout bounds unittest's discovery when listing the tests.
const listTimeout = time.Minute

// unittestLister prints the id of every test discovery finds, given
// discover's -s, -p and -t.
const unittestLister = `import sys, unittest
def ids(s):
    for t in s:
        if isinstance(t, unittest.TestSuite):
            yield from ids(t)
        else:
            yield t.id()
print("\n".join(ids(unittest.TestLoader().discover(sys.argv[1], sys.argv[2], sys.argv[3]))))
`

// unittestList is the ids of the tests the plan's discovery finds, for
// the answer that no test matched.
func unittestList(ctx context.Context, python, cwd, dir, top string, args []string, s search) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	pattern := "test*.py"
	for i, a := range args {
		if a == "-p" && i+1 < len(args) {
			pattern = args[i+1]
		}
	}
	cmd := exec.CommandContext(ctx, python, "-c", unittestLister, dir, pattern, top)
	cmd.Dir = cwd
	cmd.Env = s.environ()
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the unittest tests under %s: %w", dir, err)
	}
	return strings.Fields(string(out)), nil
}
