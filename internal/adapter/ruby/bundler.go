package ruby

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

const (
	// gemfileEnv names the Gemfile Bundler uses; set by the agent (env),
	// it wins over the Gemfile found beside the program.
	gemfileEnv = "BUNDLE_GEMFILE"
	// bundlerHelper sets the bundle up before the program (ruby -r), as
	// `bundle exec` would. rdbg loads the debug gem by its file path, after
	// the command line's -r (its RUBYOPT comes last), and the gem's
	// compiled half by `require "debug/debug.so"`; Debian's rdbg (run as
	// exe/rdbg, its gem not activated) adds no -I for it, and
	// bundler/setup then hides every gem the Gemfile does not list, debug
	// included: "cannot load such file -- debug/debug.so". So the helper
	// first puts the extension directory of the very gem rdbg runs from
	// (named in RUBY_DEBUG_ADDED_RUBYOPT on 1.6.3, in RUBYOPT itself on
	// 1.4.0, whose rdbg sets it to just its -r) on the load path: a path
	// no loaded gem owns survives Bundler's clean-up.
	bundlerHelper = `# Loaded by mcp-debugger (ruby -r) for a program with a Gemfile.
added = ENV.fetch("RUBY_DEBUG_ADDED_RUBYOPT", "") + " " + ENV.fetch("RUBYOPT", "")
if (lib = added[%r{-r\s*(\S+)/lib/debug/(?:open|start)}, 1])
  spec = Gem::Specification.find { |s| s.full_gem_path == lib }
  $LOAD_PATH.push(spec.extension_dir) if spec && File.directory?(spec.extension_dir)
end
require "bundler/setup"
`
)

// gemfileFor is the Gemfile that governs program: BUNDLE_GEMFILE from the
// agent's env, else the nearest Gemfile in the program's directory or one
// above it, up to the project's root (a directory holding .git); "" when
// there is none.
func gemfileFor(program string, env map[string]string) string {
	if g := env[gemfileEnv]; g != "" {
		return g
	}
	for d := filepath.Dir(program); ; {
		if p := filepath.Join(d, "Gemfile"); fileExists(p) {
			return p
		}
		parent := filepath.Dir(d)
		if parent == d || exists(filepath.Join(d, ".git")) {
			return ""
		}
		d = parent
	}
}

// exists: a worktree's .git is a file, a clone's a directory.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// fileExists reports whether p is a regular file.
func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// withGemfile is env with BUNDLE_GEMFILE set, so that Bundler uses the
// Gemfile found beside the program whatever the cwd.
func withGemfile(env map[string]string, gemfile string) map[string]string {
	out := make(map[string]string, len(env)+1)
	for k, v := range env {
		out[k] = v
	}
	out[gemfileEnv] = gemfile
	return out
}

// rubyVersions caches RUBY_VERSION per ruby binary and its mtime.
var rubyVersions sync.Map

// rubyVersion is what `ruby -e 'print RUBY_VERSION'` prints ("3.1.7"), ""
// when ruby cannot say.
func rubyVersion(ctx context.Context, ruby string) string {
	st, err := os.Stat(ruby)
	if err != nil {
		return ""
	}
	key := fmt.Sprintf("%s\x00%d", ruby, st.ModTime().UnixNano())
	if v, ok := rubyVersions.Load(key); ok {
		return v.(string)
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, ruby, "-e", "print RUBY_VERSION")
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	v := strings.TrimSpace(string(out))
	rubyVersions.Store(key, v)
	return v
}

// runtimeLine says which ruby runs the program, why that one, and whether
// Bundler sets up its gems: "ruby: /usr/bin/ruby 3.1.7 (PATH; with
// Bundler, Gemfile /p/Gemfile)".
func runtimeLine(ruby, why, version, gemfile string) string {
	line := "ruby: " + ruby
	if version != "" {
		line += " " + version
	}
	if gemfile == "" {
		return line + " (" + why + "; no Gemfile)"
	}
	return line + " (" + why + "; with Bundler, Gemfile " + gemfile + ")"
}
