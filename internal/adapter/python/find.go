package python

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// probeSource prints what an interpreter offers; it runs on Python 2.7 too.
//
//go:embed scripts/probe.py
var probeSource string

const (
	// probeTimeout bounds one probe: a cold interpreter on a slow disk can
	// take a second or two to start; more than this means it hangs.
	probeTimeout = 15 * time.Second
	// probeParallelism bounds concurrent probes of the machine-wide search.
	probeParallelism = 4
	// pythonPathEnv names the interpreter the user prefers, like the
	// reference implementation's variable of the same name.
	pythonPathEnv = "PYTHON_PATH"
)

// probeEnvKeys are the variables that change what an interpreter imports or
// which interpreter a pyenv shim runs; they are part of the cache key.
var probeEnvKeys = []string{"PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "PYTHONUSERBASE", "PYENV_VERSION", "PATH"}

// interpreter is what one probe learned about a Python executable.
type interpreter struct {
	// Path is the executable as given or found (it may be a pyenv shim).
	Path string
	// Executable is its sys.executable: the real interpreter behind a shim.
	Executable   string
	Major, Minor int
	Version      string
	// Debugpy is debugpy's version, empty when it cannot be imported.
	Debugpy string
	// DebugpyDir is the debugpy package directory.
	DebugpyDir string
	// debugpyElsewhere: DebugpyDir is a directory of the filesystem the
	// interpreter runs in (a chroot or container), not this one's, so its
	// debugpy cannot be lent to another interpreter (importpath.go).
	debugpyElsewhere bool
	// ImportError says why debugpy could not be imported.
	ImportError string
}

func (i *interpreter) hasDebugpy() bool { return i != nil && i.Debugpy != "" }

// atLeast reports whether the interpreter is Python major.minor or later.
func (i *interpreter) atLeast(major, minor int) bool {
	return i.Major > major || (i.Major == major && i.Minor >= minor)
}

// search says where to look for interpreters and how to probe them.
type search struct {
	// explicit is the interpreter the user chose (executablePath).
	explicit string
	// script is the program or test path whose project's environment is
	// looked for; empty looks at none.
	script string
	// dir is the working directory for probes of shims, whose choice of
	// interpreter depends on it (pyenv's .python-version).
	dir string
	// env overrides the server's environment for probes.
	env map[string]string
}

func (s search) getenv(key string) string {
	if v, ok := s.env[key]; ok {
		return v
	}
	return os.Getenv(key)
}

// environ is the server's environment with s.env applied.
func (s search) environ() []string {
	return mergeEnv(os.Environ(), s.env)
}

// candidate is an interpreter to try and where it came from.
type candidate struct {
	path string
	// args come before the interpreter's own (the py launcher's -3).
	args   []string
	origin string
	// named: path is a name the user gave, to look up (PYTHON_PATH).
	named bool
	// missing says why a named interpreter could not be found.
	missing error
}

// tried is one interpreter looked at, for the error that names them all.
type tried struct {
	candidate
	info *interpreter
	err  error
}

func (t tried) String() string {
	name := t.path
	if t.origin != "" {
		name += " (" + t.origin + ")"
	}
	switch {
	case t.missing != nil:
		return name + ": " + t.missing.Error()
	case t.err != nil:
		return name + ": " + t.err.Error()
	case t.info.hasDebugpy() && t.info.debugpyElsewhere:
		return fmt.Sprintf("%s: Python %s, debugpy %s in a filesystem of its own (%s is another directory here)", name, t.info.Version, t.info.Debugpy, t.info.DebugpyDir)
	case t.info.hasDebugpy():
		return fmt.Sprintf("%s: Python %s, debugpy %s", name, t.info.Version, t.info.Debugpy)
	default:
		return fmt.Sprintf("%s: Python %s, %s", name, t.info.Version, t.info.ImportError)
	}
}

// finder finds interpreters and caches what their probes said.
type finder struct {
	mu    sync.Mutex
	cache map[string]*cacheEntry
	deps  map[string]*depsEntry

	// system lists interpreters installed beyond PATH, best first; tests
	// replace it to keep the machine out of their results.
	system func() []string
	// discover lists the interpreters a program may run with, best first
	// (interpreterCandidates); tests replace it likewise.
	discover func(script string, h host) []candidate
	// probes counts probe processes run, so tests can see the cache work.
	probes atomic.Int64
}

func newFinder() *finder {
	return &finder{
		cache:    map[string]*cacheEntry{},
		deps:     map[string]*depsEntry{},
		system:   func() []string { return systemInterpreters(localHost(context.Background(), search{})) },
		discover: interpreterCandidates,
	}
}

// preferred lists, in order, the interpreters that may run the program:
// the explicit choice, then what discovery finds (environment.go). A named
// interpreter (executablePath, PYTHON_PATH) that cannot be found stays in
// the list, saying so.
func (f *finder) preferred(ctx context.Context, s search) []candidate {
	var out []candidate
	if s.explicit != "" {
		out = append(out, resolveNamed(candidate{path: s.explicit, origin: originExplicit}))
	}
	for _, c := range f.discover(s.script, localHost(ctx, s)) {
		if c.named {
			c = resolveNamed(c)
		}
		out = append(out, c)
	}
	return out
}

// resolveNamed looks a named interpreter up as a path or on PATH.
func resolveNamed(c candidate) candidate {
	p, err := exec.LookPath(c.path)
	if err != nil {
		c.missing = errors.New("not found or not executable")
		return c
	}
	c.path = absPath(p)
	return c
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// chosen is the interpreter that runs the program, and why it was chosen.
type chosen struct {
	*interpreter
	origin string
}

// program returns the interpreter that runs the user's program: the first
// of cands (preferred's list), whether or not it has debugpy. A named
// interpreter (executablePath, PYTHON_PATH) that does not exist is an
// error rather than silently replaced.
func (f *finder) program(ctx context.Context, s search, cands []candidate) (*chosen, error) {
	if len(cands) == 0 {
		return nil, nil
	}
	c := cands[0]
	if c.missing != nil {
		return nil, fmt.Errorf("python interpreter %s (%s): %w", c.path, c.origin, c.missing)
	}
	info, err := f.probeCandidate(ctx, c, s)
	if err != nil {
		return nil, fmt.Errorf("python interpreter %s (%s): %w", c.path, c.origin, err)
	}
	return &chosen{interpreter: info, origin: c.origin}, nil
}

// findDebugpy returns the first interpreter, in the order of preferred and
// then machine-wide, that can import debugpy, and every one it looked at.
func (f *finder) findDebugpy(ctx context.Context, s search) (*interpreter, []tried) {
	return f.findDebugpyAmong(ctx, s, f.preferred(ctx, s), false)
}

// findDebugpyAmong is findDebugpy for preferred's list already made (its
// discovery may ask Poetry or Pipenv, which takes a while). With lend, the
// debugpy is for another interpreter: one whose debugpy is in another
// filesystem (debugpyElsewhere) does not count.
func (f *finder) findDebugpyAmong(ctx context.Context, s search, cands []candidate, lend bool) (*interpreter, []tried) {
	usable := func(i *interpreter) bool { return i.hasDebugpy() && !(lend && i.debugpyElsewhere) }
	all := f.probeAll(ctx, cands, s)
	for _, t := range all {
		if usable(t.info) {
			return t.info, all
		}
	}
	seen := map[string]bool{}
	for _, t := range all {
		if inVirtualEnv(t.path) {
			// A venv's python is its base interpreter's binary, which
			// without the venv sees other packages (debugpy among them):
			// the base is still to be tried.
			seen[t.path] = true
			continue
		}
		seen[realPath(t.path)] = true
		if t.info != nil {
			seen[realPath(t.info.Executable)] = true
		}
	}
	var more []candidate
	for _, p := range f.system() {
		if rp := realPath(p); !seen[rp] {
			seen[rp] = true
			more = append(more, candidate{path: p, origin: "found on this machine"})
		}
	}
	rest := f.probeAll(ctx, more, s)
	all = append(all, rest...)
	for _, t := range rest {
		if usable(t.info) {
			return t.info, all
		}
	}
	return nil, all
}

// probeAll probes candidates concurrently, keeping their order.
func (f *finder) probeAll(ctx context.Context, cands []candidate, s search) []tried {
	out := make([]tried, len(cands))
	sem := make(chan struct{}, probeParallelism)
	var wg sync.WaitGroup
	for i, c := range cands {
		out[i].candidate = c
		if c.missing != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i].info, out[i].err = f.probeCandidate(ctx, c, s)
		}()
	}
	wg.Wait()
	return out
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// cacheEntry is a probe's result, valid while none of the files it depends
// on has changed.
type cacheEntry struct {
	info  *interpreter
	err   error
	stamp []fileStamp
}

// fileStamp is what a file looked like when a probe ran.
type fileStamp struct {
	path   string
	exists bool
	mtime  time.Time
	size   int64
}

func stampOf(path string) fileStamp {
	st, err := os.Stat(path)
	if err != nil {
		return fileStamp{path: path}
	}
	return fileStamp{path: path, exists: true, mtime: st.ModTime(), size: st.Size()}
}

func (e *cacheEntry) valid() bool {
	for _, s := range e.stamp {
		if stampOf(s.path) != s {
			return false
		}
	}
	return true
}

// probeKey identifies a probe: the same executable may mean another
// interpreter in another directory (a pyenv shim) or import other things
// under another environment.
func probeKey(path string, s search) string {
	var b strings.Builder
	b.WriteString(path)
	if isScript(path) {
		b.WriteString("\x00" + s.dir)
	}
	for _, k := range probeEnvKeys {
		b.WriteString("\x00" + s.getenv(k))
	}
	return b.String()
}

// isScript reports whether path is a "#!" script, such as a pyenv shim.
// The path may be the agent's executablePath: a FIFO there must not hold
// the call, nor a device be opened (userfile.Open).
func isScript(path string) bool {
	f, _, err := userfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [2]byte
	_, err = io.ReadFull(f, head[:])
	return err == nil && string(head[:]) == "#!"
}

// probeResult is what scripts/probe.py prints.
type probeResult struct {
	Executable string `json:"executable"`
	// ExecutableID is the device and inode of Executable in the probed
	// interpreter's own view of the filesystem.
	ExecutableID []uint64 `json:"executable_id"`
	Version      []int    `json:"version"`
	Watch        []string `json:"watch"`
	Debugpy      string   `json:"debugpy"`
	DebugpyDir   string   `json:"debugpy_dir"`
	DebugpyDirID []uint64 `json:"debugpy_dir_id"`
	Error        string   `json:"error"`
}

// probe runs one short interpreter process, unless an earlier probe of the
// same interpreter is still valid. A negative answer stays valid until a
// directory on the interpreter's import path changes (installing debugpy
// adds a directory there), a positive one until debugpy's directory does.
func (f *finder) probe(ctx context.Context, path string, s search) (*interpreter, error) {
	return f.probeWith(ctx, path, nil, s)
}

// probeCandidate probes a candidate; one that runs through a launcher (py
// -3) is the interpreter the launcher chose from then on.
func (f *finder) probeCandidate(ctx context.Context, c candidate, s search) (*interpreter, error) {
	info, err := f.probeWith(ctx, c.path, c.args, s)
	if err != nil || len(c.args) == 0 {
		return info, err
	}
	resolved := *info
	resolved.Path = info.Executable
	return &resolved, nil
}

func (f *finder) probeWith(ctx context.Context, path string, args []string, s search) (*interpreter, error) {
	key := probeKey(path, s) + "\x00" + strings.Join(args, "\x00")
	f.mu.Lock()
	e := f.cache[key]
	f.mu.Unlock()
	if e != nil && e.valid() {
		return e.info, e.err
	}
	stamp := []fileStamp{stampOf(path)}
	info, res, err := f.runProbe(ctx, path, args, s)
	if err != nil && ctx.Err() != nil {
		return nil, err // not the interpreter's fault: do not remember it
	}
	if info != nil {
		stamp = append(stamp, stampOf(info.Executable))
		if info.hasDebugpy() {
			stamp = append(stamp, stampOf(info.DebugpyDir))
		} else {
			for _, w := range res.Watch {
				stamp = append(stamp, stampOf(w))
			}
		}
	}
	f.mu.Lock()
	f.cache[key] = &cacheEntry{info: info, err: err, stamp: stamp}
	f.mu.Unlock()
	return info, err
}

func (f *finder) runProbe(ctx context.Context, path string, args []string, s search) (*interpreter, *probeResult, error) {
	f.probes.Add(1)
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, append(slices.Clone(args), "-c", probeSource)...)
	cmd.Dir = s.dir
	cmd.Env = s.environ()
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, nil, fmt.Errorf("probing %s: %w", path, ctx.Err())
		}
		return nil, nil, fmt.Errorf("not a working Python interpreter (%v): %s", err, firstLine(stderr.String()))
	}
	var res probeResult
	out := bytes.TrimSpace(stdout.Bytes())
	if i := bytes.LastIndexByte(out, '\n'); i >= 0 {
		out = out[i+1:]
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Version) < 2 {
		return nil, nil, fmt.Errorf("not a Python interpreter: unexpected probe output %q", firstLine(stdout.String()))
	}
	info := &interpreter{
		Path:        path,
		Executable:  res.Executable,
		Major:       res.Version[0],
		Minor:       res.Version[1],
		Version:     joinInts(res.Version, "."),
		Debugpy:     res.Debugpy,
		DebugpyDir:  res.DebugpyDir,
		ImportError: res.Error,
	}
	if info.Executable == "" || !sameFileHere(info.Executable, res.ExecutableID) {
		// The interpreter reported a sys.executable that is not that file
		// here: path is a script that runs it in a chroot or container
		// (docs/adapter-quirks.md, debugpy-15). Everything, the adapter
		// and debugpy's launcher included, must then run through path:
		// the same path here is another interpreter, or none.
		info.Executable = path
	}
	info.debugpyElsewhere = info.DebugpyDir != "" && !sameFileHere(info.DebugpyDir, res.DebugpyDirID)
	return info, &res, nil
}

func joinInts(v []int, sep string) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, sep)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		// Python's tracebacks end with the line that says what went wrong.
		s = s[i+1:]
	}
	const limit = 300
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return s
}

var (
	versionedPython = regexp.MustCompile(`python3\.(\d+)$`)
	digits          = regexp.MustCompile(`\d+`)
)

// systemInterpreters lists interpreters installed beyond PATH, newest
// first within each place, in the places each OS's installers use; an MCP
// client started from a desktop (macOS's launchd) may give the server a
// PATH without them.
func systemInterpreters(h host) []string {
	var out []string
	switch h.goos {
	case "windows":
		out = windowsInterpreters(h)
	case "darwin":
		out = append(out, h.rooted("/opt/homebrew/bin/python3"), h.rooted("/usr/local/bin/python3"))
		out = append(out, h.newestFirst(h.rooted("/Library/Frameworks/Python.framework/Versions/*/bin/python3"), 3)...)
		out = append(out, h.userInterpreters()...)
		// Last: without the command line tools, Apple's stub asks to
		// install them.
		out = append(out, h.rooted("/usr/bin/python3"))
	default:
		out = append(out, h.rooted("/usr/bin/python3"), h.rooted("/usr/local/bin/python3"))
		for _, dir := range []string{"/usr/bin", "/usr/local/bin"} {
			out = append(out, h.versionedIn(h.rooted(dir))...)
		}
		out = append(out, h.userInterpreters()...)
		out = append(out, h.rooted("/opt/conda/bin/python3"))
	}
	var exist []string
	for _, p := range out {
		if h.isExecutable(p) {
			exist = append(exist, p)
		}
	}
	return exist
}

// userInterpreters are those in a Unix user's home: pyenv's (its shim
// first, which honours .python-version), uv's and conda's.
func (h host) userInterpreters() []string {
	var out []string
	pyenvRoot := h.getenv("PYENV_ROOT")
	if pyenvRoot == "" && h.home != "" {
		pyenvRoot = filepath.Join(h.home, ".pyenv")
	}
	if pyenvRoot != "" {
		out = append(out, filepath.Join(pyenvRoot, "shims", "python3"))
		out = append(out, h.newestFirst(filepath.Join(pyenvRoot, "versions", "*", "bin", "python3"), 3)...)
	}
	if h.home != "" {
		out = append(out, h.newestFirst(filepath.Join(h.home, ".local", "share", "uv", "python", "*", "bin", "python3"), 3)...)
		for _, d := range condaDirs {
			out = append(out, filepath.Join(h.home, d, "bin", "python3"))
		}
	}
	return out
}

// condaDirs are the directory names conda's installers use in a home.
var condaDirs = []string{"miniforge3", "mambaforge", "miniconda3", "anaconda3"}

// windowsInterpreters: python.org's per-user and all-users installs,
// pyenv-win's, and conda's.
func windowsInterpreters(h host) []string {
	var out []string
	if d := h.getenv("LOCALAPPDATA"); d != "" {
		out = append(out, h.newestFirst(filepath.Join(d, "Programs", "Python", "Python3*", "python.exe"), 2)...)
	}
	if d := h.getenv("ProgramFiles"); d != "" {
		out = append(out, h.newestFirst(filepath.Join(d, "Python3*", "python.exe"), 2)...)
	}
	if h.home != "" {
		out = append(out, h.newestFirst(filepath.Join(h.home, ".pyenv", "pyenv-win", "versions", "*", "python.exe"), 2)...)
		for _, d := range condaDirs {
			out = append(out, filepath.Join(h.home, d, "python.exe"))
		}
	}
	return out
}

// rooted puts an absolute Unix path under the host's root ("" for this
// machine's), where tests build a fake one.
func (h host) rooted(path string) string {
	return filepath.Join(h.root, filepath.FromSlash(path))
}

// versionedIn lists dir/python3.N, highest N first.
func (h host) versionedIn(dir string) []string {
	matches, _ := h.glob(filepath.Join(dir, "python3.*"))
	type v struct {
		path  string
		minor int
	}
	var vs []v
	for _, p := range matches {
		if m := versionedPython.FindStringSubmatch(filepath.Base(p)); m != nil {
			n, _ := strconv.Atoi(m[1])
			vs = append(vs, v{p, n})
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].minor > vs[j].minor })
	out := make([]string, len(vs))
	for i, x := range vs {
		out[i] = x.path
	}
	return out
}

// newestFirst globs pattern and sorts by the version in path element
// depth (counted from the end), so pyenv's 3.13.0 comes before 3.9.18.
func (h host) newestFirst(pattern string, depth int) []string {
	matches, _ := h.glob(pattern)
	key := func(p string) []int {
		parts := strings.Split(p, string(filepath.Separator))
		if len(parts) < depth {
			return nil
		}
		var nums []int
		for _, f := range digits.FindAllString(parts[len(parts)-depth], 3) {
			n, _ := strconv.Atoi(f)
			nums = append(nums, n)
		}
		return nums
	}
	sort.SliceStable(matches, func(i, j int) bool {
		a, b := key(matches[i]), key(matches[j])
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] > b[k]
			}
		}
		return len(a) > len(b)
	})
	return matches
}

// mergeEnv applies overrides to a KEY=VALUE list.
func mergeEnv(base []string, overrides map[string]string) []string {
	if len(overrides) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(overrides))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := overrides[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range overrides {
		out = append(out, k+"="+v)
	}
	return out
}

// inVirtualEnv says whether the interpreter at path (unresolved: a venv's
// python is a link to its base's) is a virtual environment's: its
// bin/python sits beside the venv's pyvenv.cfg.
func inVirtualEnv(path string) bool {
	_, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(path)), "pyvenv.cfg"))
	return err == nil
}
