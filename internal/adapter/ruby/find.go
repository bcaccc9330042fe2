package ruby

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

const (
	// rdbgPathEnv names the rdbg the user prefers.
	rdbgPathEnv = "RDBG_PATH"
	// probeTimeout bounds `rdbg --version` and the gem lookup, which take
	// ~100 ms (ruby's start); more means something hangs.
	probeTimeout = 15 * time.Second
	// gemGlob is where Debian's ruby keeps the debug gem, for when asking
	// ruby fails.
	gemGlob = "/usr/lib/ruby/gems/*/gems/debug-*/exe/rdbg"
)

// rdbg is an rdbg script found on this machine, and the ruby that runs it.
type rdbg struct {
	path    string
	ruby    string // empty when rdbg runs by its own #! line
	version string
	// ownRuby is the ruby installed with an rdbg found in a version
	// manager's or Homebrew's gem directory, which is the ruby its gems
	// belong to; empty otherwise.
	ownRuby string
}

// command is how to run rdbg with args.
func (r *rdbg) command(args ...string) []string {
	if r.ruby != "" {
		return append([]string{r.ruby, r.path}, args...)
	}
	return append([]string{r.path}, args...)
}

// finder locates rdbg and remembers what `rdbg --version` said about each
// script until it changes.
type finder struct {
	mu    sync.Mutex
	cache map[string]probed

	// machine is where rdbg is looked for, and glob lists Debian's gem
	// directory; tests replace both to keep this machine out.
	machine platform.Machine
	glob    func(string) ([]string, error)
}

type probed struct {
	mtime   time.Time
	size    int64
	version string
	err     error
}

func newFinder() *finder {
	return &finder{cache: map[string]probed{}, machine: platform.Host(), glob: filepath.Glob}
}

// find returns the rdbg to use: executablePath, else RDBG_PATH (either
// must work: a wrong choice is reported, not replaced), else rdbg on PATH
// (rdbg.bat on Windows, through PATHEXT), else on macOS the gem directories
// of rbenv, asdf and Homebrew's ruby, else the debug gem of the ruby on
// PATH.
func (f *finder) find(ctx context.Context, explicit string) (*rdbg, error) {
	m := f.machine
	ruby, _ := m.LookPath("ruby")
	for _, c := range []struct{ name, origin string }{{explicit, "executablePath"}, {m.Getenv(rdbgPathEnv), rdbgPathEnv}} {
		if c.name == "" {
			continue
		}
		p, err := m.LookPath(c.name)
		if err != nil {
			if p, err = f.existing(c.name); err != nil {
				return nil, fmt.Errorf("rdbg %s (%s): not found", c.name, c.origin)
			}
		}
		return f.probe(ctx, p, ruby, c.origin)
	}
	if p, err := m.LookPath("rdbg"); err == nil {
		return f.probe(ctx, p, ruby, "PATH")
	}
	if g, ok := f.managedGem(); ok {
		r, err := f.probe(ctx, g.rdbg, ruby, g.origin)
		if err == nil {
			r.ownRuby = g.ruby
		}
		return r, err
	}
	if ruby == "" {
		return nil, fmt.Errorf("rdbg not found: no %s, no rdbg and no ruby on PATH", rdbgPathEnv)
	}
	if p := f.gemRdbg(ctx, ruby); p != "" {
		return f.probe(ctx, p, ruby, "the debug gem of "+ruby)
	}
	return nil, fmt.Errorf("rdbg not found: no %s, no rdbg on PATH, and %s has no debug gem", rdbgPathEnv, ruby)
}

// gemBin is an rdbg in a gem directory and the ruby its gems belong to.
type gemBin struct {
	rdbg, ruby, origin string
}

// managedGem finds rdbg where macOS's usual rubies keep gem executables
// when their directory is not on PATH (an agent's environment often lacks
// the shell's init): rbenv's and asdf's shims, then Homebrew's gem bin
// directories (Apple silicon, then Intel; newest ruby first).
func (f *finder) managedGem() (gemBin, bool) {
	m := f.machine
	if m.OS.Name != platform.Darwin.Name {
		return gemBin{}, false
	}
	home := m.Home()
	for _, mgr := range []struct{ name, rootEnv, defaultRoot string }{
		{"rbenv", "RBENV_ROOT", ".rbenv"},
		{"asdf", "ASDF_DATA_DIR", ".asdf"},
	} {
		root := m.Getenv(mgr.rootEnv)
		if root == "" && home != "" {
			root = m.OS.Join(home, mgr.defaultRoot)
		}
		if root == "" {
			continue
		}
		shims := m.OS.Join(root, "shims")
		if p := m.OS.Join(shims, "rdbg"); m.IsExecutable(p) {
			return gemBin{p, m.OS.Join(shims, "ruby"), mgr.name + "'s shims"}, true
		}
	}
	for _, prefix := range []string{"/opt/homebrew", "/usr/local"} {
		gems := m.OS.Join(prefix, "lib", "ruby", "gems")
		entries, _ := m.Files.ReadDir(gems)
		for i := len(entries) - 1; i >= 0; i-- {
			if p := m.OS.Join(gems, entries[i].Name(), "bin", "rdbg"); m.IsFile(p) {
				return gemBin{p, m.OS.Join(prefix, "opt", "ruby", "bin", "ruby"), "Homebrew's ruby gems"}, true
			}
		}
	}
	return gemBin{}, false
}

// gemRdbg asks ruby where its debug gem is, falling back to Debian's
// directory (newest version first).
func (f *finder) gemRdbg(ctx context.Context, ruby string) string {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	out, err := f.machine.Run(ctx, ruby, "-e", `print Gem::Specification.find_by_name("debug").gem_dir`)
	if err == nil {
		if p := f.machine.OS.Join(out, "exe", "rdbg"); f.machine.IsFile(p) {
			return p
		}
	}
	matches, _ := f.glob(gemGlob)
	sort.Sort(sort.Reverse(sort.StringSlice(matches)))
	if len(matches) > 0 {
		return matches[0]
	}
	return ""
}

// probe returns rdbg at p with its version; a script that is not
// executable (a gem's exe/rdbg may not be) runs through ruby.
func (f *finder) probe(ctx context.Context, p, ruby, origin string) (*rdbg, error) {
	r := &rdbg{path: p}
	if !f.machine.IsExecutable(p) {
		if ruby == "" {
			return nil, fmt.Errorf("rdbg %s (%s) is not executable and there is no ruby on PATH to run it", p, origin)
		}
		r.ruby = ruby
	}
	v, err := f.version(ctx, r)
	if err != nil {
		return nil, fmt.Errorf("rdbg %s (%s): %w", p, origin, err)
	}
	r.version = v
	return r, nil
}

// version runs `rdbg --version` unless the script is unchanged since the
// last time.
func (f *finder) version(ctx context.Context, r *rdbg) (string, error) {
	st, err := os.Stat(r.path)
	if err != nil {
		return "", err
	}
	f.mu.Lock()
	c, ok := f.cache[r.path]
	f.mu.Unlock()
	if ok && c.mtime.Equal(st.ModTime()) && c.size == st.Size() {
		return c.version, c.err
	}
	v, err := runVersion(ctx, r)
	if err != nil && ctx.Err() != nil {
		return "", err // the caller gave up: not the script's fault
	}
	f.mu.Lock()
	f.cache[r.path] = probed{mtime: st.ModTime(), size: st.Size(), version: v, err: err}
	f.mu.Unlock()
	return v, err
}

func runVersion(ctx context.Context, r *rdbg) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	argv := r.command("--version")
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("`rdbg --version` failed (%v): %s", err, strings.TrimSpace(out.String()))
	}
	v := parseVersion(out.String())
	if v == "" {
		return "", errors.New("not rdbg: `rdbg --version` printed no version")
	}
	return v, nil
}

// parseVersion reads "rdbg 1.4.0".
func parseVersion(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "rdbg "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// existing accepts a named script that exists without being executable.
func (f *finder) existing(name string) (string, error) {
	if !f.machine.IsFile(name) {
		return "", exec.ErrNotFound
	}
	return f.machine.Files.Abs(name)
}
