package python

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// pytestProbeTimeout bounds one "can this interpreter import pytest" check.
const pytestProbeTimeout = 10 * time.Second

// TestPlan runs the project's tests under debugpy, with pytest or
// unittest (testRunner), from the project's root so that the tests import
// its packages as its own runs do. A failed assertion is caught by the
// runner, so it is no uncaught exception: the run uses debugpy's
// userUnhandled filter, which stops where an exception leaves the user's
// code (justMyCode) for a library's — the test function's assert line.
func (a *Adapter) TestPlan(ctx context.Context, req adapter.TestRequest) (*adapter.TestPlan, error) {
	dir := req.Path
	if st, err := os.Stat(req.Path); err != nil {
		return nil, err
	} else if !st.IsDir() {
		dir = filepath.Dir(req.Path)
	}
	// The project's root is where its own runs (and its CI) start the
	// tests, so that `import pkg` finds the package beside them.
	cwd := req.Cwd
	if cwd == "" {
		if cwd = localHost(ctx, search{env: req.Env}).projectRoot(dir); cwd == "" {
			cwd = dir
		}
	}
	s := search{explicit: req.ExecutablePath, script: req.Path, dir: cwd, env: req.Env}
	runner, err := a.testRunner(ctx, req, dir, cwd, s)
	if err != nil {
		return nil, err
	}
	if runner == runnerUnittest {
		return a.unittestPlan(ctx, req, dir, cwd, s), nil
	}
	python, err := a.pytestInterpreter(ctx, s)
	if err != nil {
		return nil, err
	}
	target := req.Path
	if req.Name != "" {
		target += "::" + req.Name
	}
	// -x: the first failure is the one to look at; no cache files left in
	// the user's project.
	args := []string{target, "-x", "-q", "-p", "no:cacheprovider"}
	if req.StdinFile != "" {
		// pytest's capture gives tests a stdin that refuses every read;
		// the input the agent gave is there for the tests to read.
		args = append(args, "-s")
	}
	return &adapter.TestPlan{
		Runner:             runnerPytest,
		Program:            req.Path,
		Args:               args,
		Cwd:                cwd,
		Env:                req.Env,
		Extra:              map[string]any{"module": "pytest"},
		ExecutablePath:     python.path,
		ExecutableReason:   python.origin,
		BreakOnExceptions:  "userUnhandled",
		TestNameExpression: `__import__("os").environ.get("PYTEST_CURRENT_TEST", "")`,
		FailureSummary:     pytestFailure,
		// pytest's assertion rewriting keeps its operands and messages in
		// the test's locals (@py_assert1, @py_format4): the failure's
		// message already says them.
		HiddenLocal: func(name string) bool { return strings.HasPrefix(name, "@py_") },
		NothingRan:  pytestRanNothing,
		TestNames: func(ctx context.Context) ([]string, error) {
			return pytestCollect(ctx, python.path, cwd, req.Path)
		},
	}, nil
}

// pytest's exit codes: 4 for a usage error (a path::name that names no
// test: "ERROR: not found: …"), 5 when it collected no test.
const (
	pytestUsageErrorExit = 4
	pytestNoTestsExit    = 5
)

// pytestRanNothing: pytest collected no test, or was given the name of
// none.
func pytestRanNothing(output string, exitCode int) bool {
	return exitCode == pytestNoTestsExit ||
		exitCode == pytestUsageErrorExit && strings.Contains(output, "ERROR: not found:")
}

// collectTimeout bounds pytest's collection, which imports the tests.
const collectTimeout = time.Minute

// pytestCollect is the node ids pytest collects at path
// ("test_cart.py::test_total"), run from dir with python.
func pytestCollect(ctx context.Context, python, dir, path string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, collectTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", path)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	out, _ := cmd.Output() // exit 5 (nothing collected) still lists nothing
	var ids []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "::") && !strings.ContainsAny(l, " \t") {
			ids = append(ids, l)
		}
	}
	if len(ids) == 0 && ctx.Err() != nil {
		return nil, fmt.Errorf("pytest --collect-only %s: %w", path, ctx.Err())
	}
	return ids, nil
}

var (
	// pytestSummaryLine is the short test summary's line for a failure:
	// "FAILED path::test - Error: message", ERROR for one outside the test
	// (a fixture, the collection); the message is cut to the terminal's
	// width, ending in "...", and absent for a failure that raised nothing.
	pytestSummaryLine = regexp.MustCompile(`(?m)^(?:FAILED|ERROR) (\S+)(?: - (.*))?$`)
	// pytestReport is the failure's report, from its banner to the summary.
	pytestReport = regexp.MustCompile(`(?ms)^=+ (?:FAILURES|ERRORS) =+$(.*?)^=+ short test summary info =+$`)
	// pytestUsageError is pytest's complaint about its command line: "ERROR:
	// not found: path::test_x".
	pytestUsageError = regexp.MustCompile(`(?m)^ERROR: .+$`)
	// pytestReportHeader opens one test's report: "____ test_x ____".
	pytestReportHeader = regexp.MustCompile(`^_{3,} .* _{3,}$`)
)

// pytestFailure reads the failing test's name from pytest's short summary,
// and its message from the report when that says more (the summary keeps a
// message's first line, cut to the terminal's width): its "E" lines (the
// exception), or the report's last line (an XPASS(strict) says only its
// reason). Without a summary, a usage error is the message.
func pytestFailure(output string) (name, message string) {
	m := pytestSummaryLine.FindStringSubmatch(output)
	if m == nil {
		return "", pytestUsageError.FindString(output)
	}
	name, message = m[1], strings.TrimSpace(m[2])
	if r := pytestReport.FindStringSubmatch(output); r != nil {
		reported := reportMessage(r[1])
		if reported != "" && strings.HasPrefix(reported, strings.TrimSuffix(message, "...")) {
			return name, reported
		}
	}
	return name, message
}

// reportMessage is the last block of "E   " lines of a pytest report (the
// exception that ended the test, after any it was raised while handling),
// else the report's last line.
func reportMessage(report string) string {
	var block []string
	last := ""
	inBlock := false
	for _, line := range strings.Split(report, "\n") {
		text, isError := strings.CutPrefix(line, "E ")
		switch {
		case isError && inBlock:
			block = append(block, strings.TrimSpace(text))
		case isError:
			block, inBlock = []string{strings.TrimSpace(text)}, true
		default:
			inBlock = false
		}
		if t := strings.TrimSpace(line); t != "" && !pytestReportHeader.MatchString(t) {
			last = t
		}
	}
	if block != nil {
		return strings.Join(block, "\n")
	}
	return last
}

// pytestInterpreter is the interpreter that runs the tests: the program's
// (executablePath, else the project's environment) when there is one, for
// the tests import the project's packages, which another interpreter's
// pytest would not find; else the first of PYTHON_PATH, PATH and the
// machine's interpreters that imports pytest.
func (a *Adapter) pytestInterpreter(ctx context.Context, s search) (candidate, error) {
	cands := a.finder.preferred(ctx, s)
	if len(cands) > 0 && isEnvironment(cands[0].origin) {
		return a.environmentPytest(ctx, cands[0], s)
	}
	if s.explicit == "" {
		for _, p := range a.finder.system() {
			cands = append(cands, candidate{path: p, origin: "found on this machine"})
		}
	}
	seen := map[string]bool{}
	var tried []string
	for _, c := range cands {
		real := realPath(c.path)
		if c.missing != nil || seen[real] {
			continue
		}
		seen[real] = true
		c, err := a.resolveLauncher(ctx, c, s)
		if err == nil {
			err = importsPytest(ctx, c.path, s)
		}
		if err == nil {
			return c, nil
		}
		tried = append(tried, c.path+": "+err.Error())
	}
	return candidate{}, &adapter.UnavailableError{
		Language:    languageID,
		Reason:      "pytest cannot be imported by any Python interpreter found (" + strings.Join(tried, "; ") + ")",
		InstallHint: "apt-get install -y python3-pytest (or: python3 -m pip install pytest)",
	}
}

// environmentPytest is the project's environment, which must have pytest.
func (a *Adapter) environmentPytest(ctx context.Context, c candidate, s search) (candidate, error) {
	if c.missing != nil {
		return candidate{}, fmt.Errorf("python interpreter %s (%s): %w", c.path, c.origin, c.missing)
	}
	err := importsPytest(ctx, c.path, s)
	if err == nil {
		return c, nil
	}
	if ctx.Err() != nil {
		return candidate{}, err
	}
	return candidate{}, &adapter.UnavailableError{
		Language: languageID,
		Reason: fmt.Sprintf("pytest cannot be imported by %s (%s), which runs this project's tests: %v",
			c.path, c.origin, err),
		InstallHint: c.path + " -m pip install pytest",
	}
}

// resolveLauncher turns a launcher candidate (py -3) into the interpreter
// it starts, which a plan can name alone.
func (a *Adapter) resolveLauncher(ctx context.Context, c candidate, s search) (candidate, error) {
	if len(c.args) == 0 {
		return c, nil
	}
	info, err := a.finder.probeCandidate(ctx, c, s)
	if err != nil {
		return c, err
	}
	c.path, c.args = info.Path, nil
	return c, nil
}

// importsPytest checks that python can import pytest.
func importsPytest(ctx context.Context, python string, s search) error {
	ctx, cancel := context.WithTimeout(ctx, pytestProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-c", "import pytest")
	cmd.Dir = s.dir
	cmd.Env = s.environ()
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return errors.New("no pytest")
	}
	return err
}

// isEnvironment reports whether an interpreter chosen for this origin is
// the program's own environment rather than one found on PATH or the
// machine, which is only a fallback.
func isEnvironment(origin string) bool {
	switch origin {
	case originExplicit, originVirtualEnv, originProject, originUV, originPoetry, originPipenv, originCondaYML, originConda:
		return true
	}
	return false
}
