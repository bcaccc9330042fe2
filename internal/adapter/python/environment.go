package python

// Which interpreter runs the user's program.
//
// Agents debug programs inside real projects, whose dependencies live in the
// project's environment; the first python3 on PATH then fails with an
// ImportError. So the interpreter is, in order: the user's executablePath;
// the activated virtualenv ($VIRTUAL_ENV); uv's UV_PROJECT_ENVIRONMENT; a
// virtualenv of the project (.venv, venv or env holding pyvenv.cfg) in the
// script's directory or a parent up to the project root; without one, the
// environment Poetry, Pipenv or conda record for the project; the active
// conda environment; PYTHON_PATH; python3 (Windows: the py -3 launcher,
// python.exe) on PATH. debugpy is then made importable for it without
// installing anything into it (importpath.go).

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// toolTimeout bounds one question to a project tool (poetry env info),
// which may have to start a Python of its own.
const toolTimeout = 10 * time.Second

// Origins say why an interpreter was chosen; the agent reads them in the
// start and test answers' runtime line.
const (
	originExplicit   = "executablePath"
	originVirtualEnv = "VIRTUAL_ENV"
	originProject    = "project venv"
	originUV         = "uv project environment, UV_PROJECT_ENVIRONMENT"
	originPoetry     = "Poetry environment"
	originPipenv     = "Pipenv environment"
	originCondaYML   = "conda environment of environment.yml"
	originConda      = "active conda environment, CONDA_PREFIX"
	originPyLauncher = "py -3 launcher on PATH"
)

// projectRootMarkers end the walk up from the script: a project's venv is
// never above its root.
var projectRootMarkers = []string{"pyproject.toml", "setup.cfg", "setup.py", ".git"}

// venvNames are the directory names a project's virtualenv goes by.
var venvNames = []string{".venv", "venv", "env"}

// host is what discovery may look at: the operating system whose layout
// applies, its environment, and its files. Tests give another OS and a fake
// file system.
type host struct {
	goos   string
	getenv func(string) string
	stat   func(string) (fs.FileInfo, error)
	read   func(string) ([]byte, error)
	glob   func(pattern string) ([]string, error)
	// tool runs a project tool's command in dir and returns its first line
	// of output, "" when the tool is absent or fails.
	tool func(dir string, name string, args ...string) string
	home string
	// root prefixes the OS's fixed install places (/usr/bin); "" here.
	root string
}

// goos is the OS whose layout discovery uses on this machine.
var goos = runtime.GOOS

// localHost is this machine, with s.env over the server's environment.
func localHost(ctx context.Context, s search) host {
	home, _ := os.UserHomeDir()
	return host{
		goos:   goos,
		getenv: s.getenv,
		stat:   os.Stat,
		read:   os.ReadFile,
		glob:   filepath.Glob,
		tool:   func(dir, name string, args ...string) string { return runTool(ctx, s, dir, name, args...) },
		home:   home,
	}
}

// runTool asks a project tool where its environment is.
func runTool(ctx context.Context, s search, dir, name string, args ...string) string {
	path, err := adapter.LookPath(name, s.getenv("PATH"))
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = s.environ()
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(line)
}

// interpreterCandidates lists, best first, the interpreters that may run a
// program at script (a file or a directory) without an executablePath.
func interpreterCandidates(script string, h host) []candidate {
	var out []candidate
	add := func(path, origin string) {
		if path != "" && h.isExecutable(path) {
			out = append(out, candidate{path: path, origin: origin})
		}
	}
	if v := h.getenv("VIRTUAL_ENV"); v != "" {
		add(h.venvPython(v), originVirtualEnv)
	}
	out = append(out, h.projectCandidates(script)...)
	if v := h.getenv("CONDA_PREFIX"); v != "" {
		add(h.condaPython(v), originConda)
	}
	if v := h.getenv(pythonPathEnv); v != "" {
		out = append(out, candidate{path: v, origin: pythonPathEnv, named: true})
	}
	return append(out, h.onPath()...)
}

// projectCandidates are the environments of the project script belongs
// to: uv's UV_PROJECT_ENVIRONMENT, which uv uses instead of .venv; its
// virtualenvs from the script's directory up to the project root; else
// those its other tools record (Poetry and Pipenv use an in-project .venv
// when there is one, so they are not asked then).
func (h host) projectCandidates(script string) []candidate {
	if script == "" {
		return nil
	}
	dir := h.startDir(script)
	root := h.projectRoot(dir)
	base := root
	if base == "" {
		base = dir
	}
	out := h.uvEnvironment(base)
	venvs := h.projectVenvs(dir, root)
	if len(venvs) > 0 {
		return append(out, venvs...)
	}
	return append(out, h.toolEnvironments(base)...)
}

// projectVenvs are the virtualenvs in dir and its parents up to root
// (only dir when there is no root), nearest first.
func (h host) projectVenvs(dir, root string) []candidate {
	var out []candidate
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range venvNames {
			venv := filepath.Join(d, name)
			if h.exists(filepath.Join(venv, "pyvenv.cfg")) {
				if p := h.venvPython(venv); h.isExecutable(p) {
					out = append(out, candidate{path: p, origin: originProject})
				}
			}
		}
		if d == root || d == filepath.Dir(d) || root == "" {
			return out
		}
	}
}

// startDir is the directory the walk up starts from.
func (h host) startDir(script string) string {
	abs := absPath(script)
	if st, err := h.stat(abs); err == nil && st.IsDir() {
		return abs
	}
	return filepath.Dir(abs)
}

// projectRoot is the nearest directory at or above dir holding a project
// marker, below the home directory; "" when there is none. The home
// directory itself is no project: its .git or setup.cfg is the user's own.
func (h host) projectRoot(dir string) string {
	for d := dir; d != filepath.Dir(d) && d != h.home; d = filepath.Dir(d) {
		for _, m := range projectRootMarkers {
			if h.exists(filepath.Join(d, m)) {
				return d
			}
		}
	}
	return ""
}

// uvEnvironment is the environment a uv project (uv.lock) names in
// UV_PROJECT_ENVIRONMENT, relative to its root; uv's default is .venv.
func (h host) uvEnvironment(root string) []candidate {
	env := h.getenv("UV_PROJECT_ENVIRONMENT")
	if env == "" || !h.exists(filepath.Join(root, "uv.lock")) {
		return nil
	}
	if !filepath.IsAbs(env) {
		env = filepath.Join(root, env)
	}
	if p := h.venvPython(env); h.isExecutable(p) {
		return []candidate{{path: p, origin: originUV}}
	}
	return nil
}

// toolEnvironments are the environments project tools record for root,
// where their marker files say the project uses them: Poetry's and
// Pipenv's outside the project (their commands say where), conda's named
// by environment.yml.
func (h host) toolEnvironments(root string) []candidate {
	var out []candidate
	add := func(env, origin string) {
		if env == "" {
			return
		}
		if p := h.venvPython(env); h.isExecutable(p) {
			out = append(out, candidate{path: p, origin: origin})
		}
	}
	if h.exists(filepath.Join(root, "poetry.lock")) || h.fileContains(filepath.Join(root, "pyproject.toml"), "[tool.poetry]") {
		add(h.tool(root, "poetry", "env", "info", "--path"), originPoetry)
	}
	if h.exists(filepath.Join(root, "Pipfile")) {
		add(h.tool(root, "pipenv", "--venv"), originPipenv)
	}
	for _, name := range []string{"environment.yml", "environment.yaml"} {
		if env := h.condaEnvNamed(h.yamlName(filepath.Join(root, name))); env != "" {
			if p := h.condaPython(env); h.isExecutable(p) {
				out = append(out, candidate{path: p, origin: originCondaYML})
			}
			break
		}
	}
	return out
}

// condaEnvNamed finds the conda environment called name among the conda
// installations this host has: the one conda itself ($CONDA_EXE) belongs
// to, the active one's, and the usual install places.
func (h host) condaEnvNamed(name string) string {
	if name == "" {
		return ""
	}
	var roots []string
	if exe := h.getenv("CONDA_EXE"); exe != "" {
		// CONDA_EXE is <root>/bin/conda, or <root>\Scripts\conda.exe.
		roots = append(roots, filepath.Dir(filepath.Dir(exe)))
	}
	if prefix := h.getenv("CONDA_PREFIX"); prefix != "" {
		if filepath.Base(filepath.Dir(prefix)) == "envs" {
			prefix = filepath.Dir(filepath.Dir(prefix))
		}
		roots = append(roots, prefix)
	}
	for _, d := range condaDirs {
		roots = append(roots, filepath.Join(h.home, d))
	}
	if h.goos != "windows" {
		roots = append(roots, "/opt/conda")
	}
	for _, r := range roots {
		env := filepath.Join(r, "envs", name)
		if h.exists(filepath.Join(env, "conda-meta")) {
			return env
		}
	}
	return ""
}

// yamlName reads the top-level "name:" of a conda environment file.
func (h host) yamlName(path string) string {
	data, err := h.read(path)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "name:"); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

func (h host) fileContains(path, text string) bool {
	data, err := h.read(path)
	return err == nil && bytes.Contains(data, []byte(text))
}

// onPath are the interpreters PATH offers: on Windows the py launcher
// (asked for Python 3) and python.exe, elsewhere python3 and python.
func (h host) onPath() []candidate {
	pathVar := h.getenv("PATH")
	var out []candidate
	if h.goos == "windows" {
		if p := h.lookPath("py.exe", pathVar); p != "" {
			out = append(out, candidate{path: p, args: []string{"-3"}, origin: originPyLauncher})
		}
		if p := h.lookPath("python.exe", pathVar); p != "" {
			out = append(out, candidate{path: p, origin: "python.exe on PATH"})
		}
		return out
	}
	for _, name := range []string{"python3", "python"} {
		if p := h.lookPath(name, pathVar); p != "" {
			out = append(out, candidate{path: p, origin: name + " on PATH"})
		}
	}
	return out
}

// lookPath finds an executable file called name in a PATH value.
func (h host) lookPath(name, pathVar string) string {
	sep := ":"
	if h.goos == "windows" {
		sep = ";"
	}
	for _, dir := range strings.Split(pathVar, sep) {
		if dir == "" {
			continue
		}
		if p := filepath.Join(dir, name); h.isExecutable(p) {
			return absPath(p)
		}
	}
	return ""
}

// venvPython is a virtualenv's interpreter: Scripts\python.exe on
// Windows, bin/python elsewhere (bin/python3 when a tool made only that).
func (h host) venvPython(venv string) string {
	if h.goos == "windows" {
		return filepath.Join(venv, "Scripts", "python.exe")
	}
	p := filepath.Join(venv, "bin", "python")
	if !h.exists(p) && h.exists(p+"3") {
		return p + "3"
	}
	return p
}

// condaPython is a conda environment's interpreter, which on Windows sits
// at the environment's top rather than in Scripts.
func (h host) condaPython(env string) string {
	if h.goos == "windows" {
		return filepath.Join(env, "python.exe")
	}
	return filepath.Join(env, "bin", "python")
}

func (h host) exists(path string) bool {
	_, err := h.stat(path)
	return err == nil
}

// isExecutable: a regular file (or a link to one), with an execute bit
// where the OS has them.
func (h host) isExecutable(path string) bool {
	st, err := h.stat(path)
	if err != nil || st.IsDir() {
		return false
	}
	return h.goos == "windows" || st.Mode()&0o111 != 0
}
