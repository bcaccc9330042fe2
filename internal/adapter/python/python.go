// Package python debugs Python programs with debugpy.
//
// Launch runs `python -m debugpy.adapter` (through a small bootstrap, see
// nodelay.go) over stdio, under an interpreter that can import debugpy; the
// program itself runs under the interpreter the user chose, which need not
// have debugpy (see importpath.go). Attach connects to the adapter of a
// program started with `python -m debugpy --listen HOST:PORT`.
package python

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

func init() { adapter.Register(New()) }

const (
	languageID = "python"
	// adapterID is what VS Code sends for debugpy; the adapter ignores it.
	adapterID = "debugpy"
	// evaluateContext: "watch" gives a plain value for every expression:
	// debugpy's "repl" renders None as an empty string and failures as a
	// whole traceback ("Traceback (most recent call last): …"), where
	// "watch" answers "None" and "NameError: name 'x' is not defined".
	// The price: "watch" compiles in eval mode, so statements ("x = 5")
	// fail with a SyntaxError that "repl" would have executed.
	// docs/adapter-quirks.md: debugpy-3.
	evaluateContext = "watch"
	// aptPackage is Debian's and Ubuntu's debugpy.
	aptPackage = "python3-debugpy"
)

// Adapter is debugpy. The zero value is not usable; call New.
type Adapter struct {
	finder *finder
}

// New returns the debugpy adapter, looking for interpreters on this machine.
func New() *Adapter {
	return &Adapter{finder: newFinder()}
}

// Language describes Python.
func (a *Adapter) Language() adapter.Language {
	return adapter.Language{
		ID:                 languageID,
		Aliases:            []string{"py", "python3"},
		DisplayName:        "Python",
		Description:        "debugpy (Microsoft's Python debug adapter), run by a Python interpreter that can import it",
		RequiresExecutable: true,
		DefaultExecutable:  "python3",
		// A Python float's repr always has a point, an exponent, inf or nan;
		// a list's is in brackets and a tuple's in parentheses (a subclass
		// has its own type name, which stays).
		PlainTypes: []string{"int", "float", "str", "bool", "NoneType", "list", "tuple"},
		VSCodeType: "debugpy",
		TestRunner: "pytest",
	}
}

// Check looks for an interpreter that can import debugpy. Probe results
// are cached per interpreter until it or its import path changes, so
// repeated calls cost a few stat calls.
func (a *Adapter) Check(ctx context.Context) adapter.Availability {
	found, tried := a.finder.findDebugpy(ctx, search{})
	attach := adapter.ModeStatus{Supported: true, Available: true}
	if found == nil {
		reason := unavailableReason(tried)
		return adapter.Availability{
			Reason:      reason,
			InstallHint: installHint(tried),
			Launch:      adapter.ModeStatus{Supported: true, Reason: reason},
			// Attaching needs no local debugpy: the program brings its own.
			Attach: attach,
		}
	}
	return adapter.Availability{
		Installed: true,
		Version:   found.Debugpy,
		Path:      found.Path,
		Launch:    adapter.ModeStatus{Supported: true, Available: true},
		Attach:    attach,
	}
}

// unavailableError says that no interpreter can run debugpy, naming each
// one tried and what to install.
func unavailableError(tried []tried) *adapter.UnavailableError {
	return &adapter.UnavailableError{
		Language:    languageID,
		Reason:      unavailableReason(tried),
		InstallHint: installHint(tried),
	}
}

func unavailableReason(tried []tried) string {
	if len(tried) == 0 {
		return "no Python interpreter found (looked for VIRTUAL_ENV, the project's venv, uv, Poetry, Pipenv and conda environments, PYTHON_PATH, python3 and python on PATH)"
	}
	parts := make([]string, len(tried))
	for i, t := range tried {
		parts[i] = t.String()
	}
	return "no Python interpreter here can import debugpy; tried: " + strings.Join(parts, "; ")
}

// installHint prefers the distribution's package, which serves the system
// interpreter, and names pip for the interpreter the user is most likely to
// run their program with.
func installHint(tried []tried) string {
	py := ""
	for _, t := range tried {
		if t.info != nil {
			py = t.info.Path
			break
		}
	}
	return installHintFor(goos, goos == "linux" && hasAptGet(), py)
}

// installHintFor is the install command for an OS: py is the interpreter
// to give debugpy to, "" when there is none and Python itself is missing.
func installHintFor(goos string, apt bool, py string) string {
	if py == "" {
		switch {
		case apt:
			return "apt-get install -y python3 " + aptPackage
		case goos == "darwin":
			return "brew install python (or python.org's installer), then: python3 -m pip install debugpy"
		case goos == "windows":
			return "winget install Python.Python.3.12, then: py -3 -m pip install debugpy"
		}
		return "install Python 3, then: python3 -m pip install debugpy"
	}
	pip := py + " -m pip install debugpy"
	switch {
	case apt:
		return fmt.Sprintf("apt-get install -y %s (or: %s)", aptPackage, pip)
	case goos == "darwin":
		// Homebrew's Python refuses pip installs outside a virtualenv
		// (PEP 668); one made for debugpy serves every project.
		return pip + " (Homebrew's Python refuses it: python3 -m venv ~/.debugpy && ~/.debugpy/bin/pip install debugpy, and set PYTHON_PATH to that venv's bin/python, full path)"
	}
	return pip
}

// hasAptGet reports whether this is a Debian-like system. It looks in the
// system's directories, not PATH, which may be the user's narrower one.
func hasAptGet() bool {
	if _, err := exec.LookPath("apt-get"); err == nil {
		return true
	}
	_, err := os.Stat("/usr/bin/apt-get")
	return err == nil
}

// ProgramInLaunchArgs names the module a launch runs ("module":
// "unittest", as python -m unittest), which needs no program file.
func (*Adapter) ProgramInLaunchArgs(args map[string]any) string {
	if m, _ := args["module"].(string); m != "" {
		return "-m " + m
	}
	return ""
}
