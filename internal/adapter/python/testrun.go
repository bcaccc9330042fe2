package python

import (
	"context"
	"errors"
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

// TestPlan runs pytest under debugpy. A failed assertion is caught by
// pytest, so it is no uncaught exception: the run uses debugpy's
// userUnhandled filter, which stops where an exception leaves the user's
// code (justMyCode) for a library's — the test function's assert line.
func (a *Adapter) TestPlan(ctx context.Context, req adapter.TestRequest) (*adapter.TestPlan, error) {
	dir := req.Path
	if st, err := os.Stat(req.Path); err != nil {
		return nil, err
	} else if !st.IsDir() {
		dir = filepath.Dir(req.Path)
	}
	python, tried := a.pytestInterpreter(ctx, search{explicit: req.ExecutablePath, dir: dir})
	if python == "" {
		return nil, &adapter.UnavailableError{
			Language:    languageID,
			Reason:      "pytest cannot be imported by any Python interpreter found (" + strings.Join(tried, "; ") + ")",
			InstallHint: "apt-get install -y python3-pytest (or: python3 -m pip install pytest)",
		}
	}
	target := req.Path
	if req.Name != "" {
		target += "::" + req.Name
	}
	return &adapter.TestPlan{
		Runner:  "pytest",
		Program: req.Path,
		// -x: the first failure is the one to look at; no cache files
		// left in the user's project.
		Args:               []string{target, "-x", "-q", "-p", "no:cacheprovider"},
		Cwd:                dir,
		Extra:              map[string]any{"module": "pytest"},
		ExecutablePath:     python,
		BreakOnExceptions:  "userUnhandled",
		TestNameExpression: `__import__("os").environ.get("PYTEST_CURRENT_TEST", "")`,
		FailureSummary:     pytestFailure,
		// pytest's assertion rewriting keeps its operands and messages in
		// the test's locals (@py_assert1, @py_format4): the failure's
		// message already says them.
		HiddenLocal: func(name string) bool { return strings.HasPrefix(name, "@py_") },
	}, nil
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

// pytestInterpreter is the first interpreter, of those the user points at
// and then the machine's, that imports pytest; with the ones it tried.
func (a *Adapter) pytestInterpreter(ctx context.Context, s search) (string, []string) {
	var paths []string
	for _, c := range a.finder.preferred(s) {
		if c.missing == nil {
			paths = append(paths, c.path)
		}
	}
	if s.explicit == "" {
		paths = append(paths, a.finder.system()...)
	}
	seen := map[string]bool{}
	var tried []string
	for _, p := range paths {
		real := realPath(p)
		if seen[real] {
			continue
		}
		seen[real] = true
		pctx, cancel := context.WithTimeout(ctx, pytestProbeTimeout)
		cmd := exec.CommandContext(pctx, p, "-c", "import pytest")
		cmd.Env = mergeEnv(os.Environ(), s.env)
		err := cmd.Run()
		cancel()
		if err == nil {
			return p, tried
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			tried = append(tried, p+": no pytest")
		} else {
			tried = append(tried, p+": "+err.Error())
		}
	}
	return "", tried
}
