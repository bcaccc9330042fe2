package python

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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
	}, nil
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
