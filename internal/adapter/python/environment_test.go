package python

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeFS is a file system of the given files (every one executable); the
// directories above them exist too.
type fakeFS map[string]string

type fakeInfo struct {
	name string
	dir  bool
}

func (i fakeInfo) Name() string       { return i.name }
func (i fakeInfo) Size() int64        { return 0 }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.dir }
func (i fakeInfo) Sys() any           { return nil }
func (i fakeInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o755
}

func (f fakeFS) stat(path string) (fs.FileInfo, error) {
	if _, ok := f[path]; ok {
		return fakeInfo{name: filepath.Base(path)}, nil
	}
	for p := range f {
		if strings.HasPrefix(p, path+string(filepath.Separator)) {
			return fakeInfo{name: filepath.Base(path), dir: true}, nil
		}
	}
	return nil, fs.ErrNotExist
}

func (f fakeFS) read(path string) ([]byte, error) {
	if s, ok := f[path]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

func (f fakeFS) glob(pattern string) ([]string, error) {
	var out []string
	for p := range f {
		if ok, _ := filepath.Match(pattern, p); ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

// fakeHost is a machine of the given OS, files, environment and project
// tools' answers (by tool name).
func fakeHost(goos string, files fakeFS, env, tools map[string]string) host {
	return host{
		goos:   goos,
		getenv: func(k string) string { return env[k] },
		stat:   files.stat,
		read:   files.read,
		glob:   files.glob,
		tool:   func(_, name string, _ ...string) string { return tools[name] },
		home:   "/home/u",
	}
}

func describe(cands []candidate) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = strings.TrimSpace(c.path+" "+strings.Join(c.args, " ")) + " (" + c.origin + ")"
	}
	return out
}

// TestInterpreterCandidatesOrder: executablePath aside, the activated
// venv, then the project's venv up to its root, then what the project's
// tools record, the active conda environment, PYTHON_PATH, and PATH.
func TestInterpreterCandidatesOrder(t *testing.T) {
	onPath := fakeFS{"/usr/bin/python3": "", "/usr/bin/python": ""}
	with := func(extra fakeFS) fakeFS {
		out := fakeFS{}
		for _, m := range []fakeFS{onPath, extra} {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	pathOnly := []string{"/usr/bin/python3 (python3 on PATH)", "/usr/bin/python (python on PATH)"}
	tests := []struct {
		name   string
		goos   string
		script string
		files  fakeFS
		env    map[string]string
		tools  map[string]string
		want   []string
	}{{
		name: "no environment: PATH", script: "/p/app.py",
		files: with(fakeFS{"/p/app.py": "", "/p/.git/HEAD": ""}),
		want:  pathOnly,
	}, {
		name: "the project's .venv, found from a script below the root", script: "/p/src/pkg/app.py",
		files: with(fakeFS{"/p/pyproject.toml": "", "/p/.venv/pyvenv.cfg": "", "/p/.venv/bin/python": ""}),
		want:  append([]string{"/p/.venv/bin/python (project venv)"}, pathOnly...),
	}, {
		name: "venv and env names; a folder without pyvenv.cfg is no venv", script: "/p/app.py",
		files: with(fakeFS{"/p/setup.cfg": "", "/p/venv/bin/python": "", "/p/env/pyvenv.cfg": "", "/p/env/bin/python": ""}),
		want:  append([]string{"/p/env/bin/python (project venv)"}, pathOnly...),
	}, {
		name: "a venv with only bin/python3", script: "/p/app.py",
		files: with(fakeFS{"/p/.git/HEAD": "", "/p/.venv/pyvenv.cfg": "", "/p/.venv/bin/python3": ""}),
		want:  append([]string{"/p/.venv/bin/python3 (project venv)"}, pathOnly...),
	}, {
		name: "VIRTUAL_ENV before the project's venv", script: "/p/app.py",
		files: with(fakeFS{"/p/.git/HEAD": "", "/p/.venv/pyvenv.cfg": "", "/p/.venv/bin/python": "", "/v/bin/python": ""}),
		env:   map[string]string{"VIRTUAL_ENV": "/v"},
		want:  append([]string{"/v/bin/python (VIRTUAL_ENV)", "/p/.venv/bin/python (project venv)"}, pathOnly...),
	}, {
		name: "a VIRTUAL_ENV without an interpreter is passed over", script: "/p/app.py",
		files: with(fakeFS{"/p/.git/HEAD": ""}),
		env:   map[string]string{"VIRTUAL_ENV": "/gone"},
		want:  pathOnly,
	}, {
		name: "no venv above the project root", script: "/w/p/app.py",
		files: with(fakeFS{"/w/p/.git/HEAD": "", "/w/.venv/pyvenv.cfg": "", "/w/.venv/bin/python": ""}),
		want:  pathOnly,
	}, {
		name: "without a project root, only the script's directory", script: "/w/sub/app.py",
		files: with(fakeFS{"/w/.venv/pyvenv.cfg": "", "/w/.venv/bin/python": "", "/w/sub/app.py": ""}),
		want:  pathOnly,
	}, {
		name: "the home directory is no project root", script: "/home/u/scratch/app.py",
		files: with(fakeFS{"/home/u/.git/HEAD": "", "/home/u/.venv/pyvenv.cfg": "", "/home/u/.venv/bin/python": ""}),
		want:  pathOnly,
	}, {
		name: "a directory as the script (debug_test of a folder)", script: "/p/tests",
		files: with(fakeFS{"/p/tests/test_a.py": "", "/p/.git/HEAD": "", "/p/.venv/pyvenv.cfg": "", "/p/.venv/bin/python": ""}),
		want:  append([]string{"/p/.venv/bin/python (project venv)"}, pathOnly...),
	}, {
		name: "uv's UV_PROJECT_ENVIRONMENT, relative to the root", script: "/p/app.py",
		files: with(fakeFS{"/p/pyproject.toml": "", "/p/uv.lock": "", "/p/build/env/bin/python": ""}),
		env:   map[string]string{"UV_PROJECT_ENVIRONMENT": "build/env"},
		want:  append([]string{"/p/build/env/bin/python (uv project environment, UV_PROJECT_ENVIRONMENT)"}, pathOnly...),
	}, {
		name: "uv's UV_PROJECT_ENVIRONMENT before a stale .venv", script: "/p/app.py",
		files: with(fakeFS{"/p/uv.lock": "", "/p/.venv/pyvenv.cfg": "", "/p/.venv/bin/python": "", "/u/env/bin/python": ""}),
		env:   map[string]string{"UV_PROJECT_ENVIRONMENT": "/u/env"},
		want:  append([]string{"/u/env/bin/python (uv project environment, UV_PROJECT_ENVIRONMENT)", "/p/.venv/bin/python (project venv)"}, pathOnly...),
	}, {
		name: "Poetry's in-project .venv: poetry is not asked", script: "/p/app.py",
		files: with(fakeFS{"/p/poetry.lock": "", "/p/.venv/pyvenv.cfg": "", "/p/.venv/bin/python": "", "/c/v/bin/python": ""}),
		tools: map[string]string{"poetry": "/c/v"},
		want:  append([]string{"/p/.venv/bin/python (project venv)"}, pathOnly...),
	}, {
		name: "Poetry's environment outside the project, from poetry env info", script: "/p/app.py",
		files: with(fakeFS{"/p/pyproject.toml": "[tool.poetry]\nname = \"p\"\n", "/c/pypoetry/virtualenvs/p-x-py3.12/bin/python": ""}),
		tools: map[string]string{"poetry": "/c/pypoetry/virtualenvs/p-x-py3.12"},
		want:  append([]string{"/c/pypoetry/virtualenvs/p-x-py3.12/bin/python (Poetry environment)"}, pathOnly...),
	}, {
		name: "no Poetry project, no question to poetry", script: "/p/app.py",
		files: with(fakeFS{"/p/pyproject.toml": "[project]\n", "/c/v/bin/python": ""}),
		tools: map[string]string{"poetry": "/c/v"},
		want:  pathOnly,
	}, {
		name: "Pipenv's environment, from pipenv --venv", script: "/p/app.py",
		files: with(fakeFS{"/p/.git/HEAD": "", "/p/Pipfile": "", "/home/u/.local/share/virtualenvs/p-a1/bin/python": ""}),
		tools: map[string]string{"pipenv": "/home/u/.local/share/virtualenvs/p-a1"},
		want:  append([]string{"/home/u/.local/share/virtualenvs/p-a1/bin/python (Pipenv environment)"}, pathOnly...),
	}, {
		name: "conda's environment named by environment.yml", script: "/p/app.py",
		files: with(fakeFS{"/p/.git/HEAD": "", "/p/environment.yml": "name: ml\ndependencies:\n  - numpy\n",
			"/opt/mc/envs/ml/conda-meta/history": "", "/opt/mc/envs/ml/bin/python": ""}),
		env:  map[string]string{"CONDA_EXE": "/opt/mc/bin/conda"},
		want: append([]string{"/opt/mc/envs/ml/bin/python (conda environment of environment.yml)"}, pathOnly...),
	}, {
		name: "the active conda environment after the project's, PYTHON_PATH after both", script: "/p/app.py",
		files: with(fakeFS{"/p/.git/HEAD": "", "/p/.venv/pyvenv.cfg": "", "/p/.venv/bin/python": "", "/opt/mc/envs/x/bin/python": ""}),
		env:   map[string]string{"CONDA_PREFIX": "/opt/mc/envs/x", "PYTHON_PATH": "python3.12"},
		want: append([]string{"/p/.venv/bin/python (project venv)", "/opt/mc/envs/x/bin/python (active conda environment, CONDA_PREFIX)",
			"python3.12 (PYTHON_PATH)"}, pathOnly...),
	}, {
		name: "Windows: Scripts\\python.exe, the py launcher, then python.exe", goos: "windows", script: "/p/app.py",
		files: fakeFS{"/p/.git/HEAD": "", "/p/.venv/pyvenv.cfg": "", "/p/.venv/Scripts/python.exe": "", "/p/.venv/bin/python": "",
			"/win/py.exe": "", "/py312/python.exe": ""},
		env: map[string]string{"PATH": "/py312;/win"},
		want: []string{"/p/.venv/Scripts/python.exe (project venv)", "/win/py.exe -3 (py -3 launcher on PATH)",
			"/py312/python.exe (python.exe on PATH)"},
	}, {
		name: "Windows: a conda environment's python.exe is at its top", goos: "windows", script: "/p/app.py",
		files: fakeFS{"/p/.git/HEAD": "", "/c/envs/x/python.exe": ""},
		env:   map[string]string{"CONDA_PREFIX": "/c/envs/x"},
		want:  []string{"/c/envs/x/python.exe (active conda environment, CONDA_PREFIX)"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			goos := tc.goos
			env := map[string]string{"PATH": "/usr/bin"}
			if goos == "" {
				goos = "linux"
			} else {
				env = map[string]string{}
			}
			for k, v := range tc.env {
				env[k] = v
			}
			got := describe(interpreterCandidates(tc.script, fakeHost(goos, tc.files, env, tc.tools)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("candidates:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestSystemInterpretersPerOS: beyond PATH, each OS's install places,
// newest first within one.
func TestSystemInterpretersPerOS(t *testing.T) {
	tests := []struct {
		goos  string
		files fakeFS
		env   map[string]string
		want  []string
	}{{
		goos: "darwin",
		files: fakeFS{"/r/usr/bin/python3": "", "/r/opt/homebrew/bin/python3": "", "/r/usr/local/bin/python3": "",
			"/r/Library/Frameworks/Python.framework/Versions/3.9/bin/python3":  "",
			"/r/Library/Frameworks/Python.framework/Versions/3.12/bin/python3": "",
			"/home/u/.pyenv/shims/python3":                                     "", "/home/u/.pyenv/versions/3.10.4/bin/python3": ""},
		want: []string{"/r/opt/homebrew/bin/python3", "/r/usr/local/bin/python3",
			"/r/Library/Frameworks/Python.framework/Versions/3.12/bin/python3",
			"/r/Library/Frameworks/Python.framework/Versions/3.9/bin/python3",
			"/home/u/.pyenv/shims/python3", "/home/u/.pyenv/versions/3.10.4/bin/python3", "/r/usr/bin/python3"},
	}, {
		goos: "windows",
		files: fakeFS{"/l/Programs/Python/Python39/python.exe": "", "/l/Programs/Python/Python312/python.exe": "",
			"/pf/Python311/python.exe": "", "/home/u/miniconda3/python.exe": ""},
		env: map[string]string{"LOCALAPPDATA": "/l", "ProgramFiles": "/pf"},
		want: []string{"/l/Programs/Python/Python312/python.exe", "/l/Programs/Python/Python39/python.exe",
			"/pf/Python311/python.exe", "/home/u/miniconda3/python.exe"},
	}, {
		goos: "linux",
		files: fakeFS{"/r/usr/bin/python3": "", "/r/usr/bin/python3.9": "", "/r/usr/bin/python3.11": "", "/r/usr/bin/python3.11-config": "",
			"/home/u/.local/share/uv/python/cpython-3.9.1-linux-x86_64-gnu/bin/python3":  "",
			"/home/u/.local/share/uv/python/cpython-3.13.0-linux-x86_64-gnu/bin/python3": ""},
		want: []string{"/r/usr/bin/python3", "/r/usr/bin/python3.11", "/r/usr/bin/python3.9",
			"/home/u/.local/share/uv/python/cpython-3.13.0-linux-x86_64-gnu/bin/python3",
			"/home/u/.local/share/uv/python/cpython-3.9.1-linux-x86_64-gnu/bin/python3"},
	}}
	for _, tc := range tests {
		t.Run(tc.goos, func(t *testing.T) {
			h := fakeHost(tc.goos, tc.files, tc.env, nil)
			h.root = "/r"
			if got := systemInterpreters(h); !slices.Equal(got, tc.want) {
				t.Errorf("systemInterpreters:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestInstallHintPerOS: doctor's install command is the OS's own.
func TestInstallHintPerOS(t *testing.T) {
	tests := []struct {
		goos string
		apt  bool
		py   string
		want []string
	}{
		{"linux", true, "", []string{"apt-get install -y python3 python3-debugpy"}},
		{"linux", true, "/p/.venv/bin/python", []string{"apt-get install -y python3-debugpy", "/p/.venv/bin/python -m pip install debugpy"}},
		{"darwin", false, "", []string{"brew install python"}},
		{"darwin", false, "/opt/homebrew/bin/python3", []string{"/opt/homebrew/bin/python3 -m pip install debugpy", "python3 -m venv"}},
		{"windows", false, "", []string{"winget install Python.Python.3", "py -3 -m pip install debugpy"}},
		{"windows", false, `C:\Python312\python.exe`, []string{`C:\Python312\python.exe -m pip install debugpy`}},
	}
	for _, tc := range tests {
		got := installHintFor(tc.goos, tc.apt, tc.py)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("installHintFor(%s, apt=%v, %q) = %q, lacks %q", tc.goos, tc.apt, tc.py, got, w)
			}
		}
	}
}
