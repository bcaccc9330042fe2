package python

// Debugging a program whose interpreter lacks debugpy.
//
// debugpy's adapter runs under an interpreter that has debugpy, and starts
// the launcher and the debuggee with the request's "python" — the
// program's interpreter — as `<python> <debugpy dir>/launcher …` and
// `<python> <debugpy dir> --connect …`. Both entry points put the directory
// above debugpy on sys.path just long enough to import debugpy and take it
// off again, so debugpy itself needs nothing from us. What it cannot supply
// is what a distribution unbundled from it: Debian's python3-debugpy
// imports pydevd's "bytecode" from dist-packages, and the debuggee dies
// with "No module named 'bytecode'" (measured with pyenv's 3.11.7).
//
// So, for such an interpreter, scripts/deps.py finds which modules beside
// debugpy its debuggee side cannot start without (importing as a debuggee
// does, refusing each optional one until it proves required), and the
// launch puts a temporary directory holding symlinks to debugpy and to
// exactly those modules at the end of the program's PYTHONPATH. Nothing
// else from the other interpreter's site-packages becomes importable, and
// the user's own PYTHONPATH entries keep precedence. Children of the
// program inherit it, which debugpy's subprocess support needs.

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

//go:embed scripts/deps.py
var depsScript string

const (
	depsScriptName = "deps.py"
	// depsTimeout bounds deps.py, which imports pydevd up to a few times.
	depsTimeout = 30 * time.Second
)

// depsEntry caches deps.py's answer for one interpreter and debugpy.
type depsEntry struct {
	paths []string
	err   error
	stamp []fileStamp
}

// borrowedModules returns the modules beside host's debugpy that prog
// needs in order to run it.
// docs/adapter-quirks.md: debugpy-9.
func (f *finder) borrowedModules(ctx context.Context, prog, host *interpreter, s search, scripts string) ([]string, error) {
	key := probeKey(prog.Path, s) + "\x00" + host.DebugpyDir
	f.mu.Lock()
	e := f.deps[key]
	f.mu.Unlock()
	if e != nil {
		valid := true
		for _, st := range e.stamp {
			if stampOf(st.path) != st {
				valid = false
			}
		}
		if valid {
			return e.paths, e.err
		}
	}
	stamp := []fileStamp{stampOf(prog.Path), stampOf(prog.Executable), stampOf(host.DebugpyDir)}
	paths, err := runDeps(ctx, prog, host, s, scripts)
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	f.mu.Lock()
	f.deps[key] = &depsEntry{paths: paths, err: err, stamp: stamp}
	f.mu.Unlock()
	return paths, err
}

func runDeps(ctx context.Context, prog, host *interpreter, s search, scripts string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, depsTimeout)
	defer cancel()
	siteDir := filepath.Dir(host.DebugpyDir)
	cmd := exec.CommandContext(ctx, prog.Executable, filepath.Join(scripts, depsScriptName), siteDir)
	cmd.Dir = s.dir
	// pydevd warns on stderr about frozen modules; this is not a debuggee.
	cmd.Env = mergeEnv(s.environ(), map[string]string{"PYDEVD_DISABLE_FILE_VALIDATION": "1"})
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("checking %s against debugpy in %s: %w", prog.Path, siteDir, ctx.Err())
		}
		return nil, fmt.Errorf("checking %s against debugpy in %s: %v: %s", prog.Path, siteDir, err, firstLine(stderr.String()))
	}
	var res struct {
		Paths []string `json:"paths"`
		Error string   `json:"error"`
	}
	out := bytes.TrimSpace(stdout.Bytes())
	if i := bytes.LastIndexByte(out, '\n'); i >= 0 {
		out = out[i+1:]
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("checking %s against debugpy in %s: unexpected output %q", prog.Path, siteDir, firstLine(stdout.String()))
	}
	if res.Error != "" {
		return nil, fmt.Errorf("%s (Python %s) cannot run the debugpy %s in %s: %s",
			prog.Path, prog.Version, host.Debugpy, siteDir, res.Error)
	}
	return res.Paths, nil
}

// linkDir makes a directory holding only symlinks to debugpy and the
// borrowed modules, for the program's PYTHONPATH. The caller removes it.
func linkDir(debugpyDir string, modules []string) (string, error) {
	dir, err := proc.MkdirTemp("debugpy")
	if err != nil {
		return "", fmt.Errorf("debugpy import directory: %w", err)
	}
	for _, target := range append([]string{debugpyDir}, modules...) {
		if err := os.Symlink(target, filepath.Join(dir, filepath.Base(target))); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("debugpy import directory: %w", err)
		}
	}
	return dir, nil
}

// appendPythonPath adds dir after the program's own PYTHONPATH (from the
// launch environment, else the server's), so the user's entries win.
func appendPythonPath(env map[string]any, dir string) {
	var cur string
	switch v, ok := env["PYTHONPATH"]; {
	case !ok:
		cur = os.Getenv("PYTHONPATH")
	case v != nil:
		cur, _ = v.(string)
	}
	if cur = strings.TrimRight(cur, string(os.PathListSeparator)); cur != "" {
		env["PYTHONPATH"] = cur + string(os.PathListSeparator) + dir
		return
	}
	env["PYTHONPATH"] = dir
}
