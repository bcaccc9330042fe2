package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Integration tests: programs that belong to a project (a Bundler bundle,
// a Go module or workspace, a Cargo workspace, a Makefile) run the way the
// project says, and the answers name the runtime chosen and why.

// projectCopy copies the project testdata/<rel> into a temporary
// directory, so that what its tools write (Gemfile.lock, target/, built
// binaries) stays out of the repository.
func projectCopy(t *testing.T, rel string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(rel))
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(repoRoot(t), "testdata", rel))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// wantRuntime checks that an answer's runtime line names every part of want.
func wantRuntime(t *testing.T, runtime string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(runtime, w) {
			t.Fatalf("runtime %q does not say %q", runtime, w)
		}
	}
}

// TestRubyGemfileRunsUnderBundler: a program beside a Gemfile runs with
// its bundle set up, so a gem only the bundle provides (a path: gem) is
// loaded, breakpoints hit, locals read, and the answer says Bundler.
func TestRubyGemfileRunsUnderBundler(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y ruby-bundler", "bundle")
	h := newHarness(t)
	id := h.sessionFor("ruby")
	dir := projectCopy(t, "ruby/bundled")
	src := filepath.Join(dir, "app.rb")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 5})

	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": src})
	wantStop(t, snap, "breakpoint", 5)
	if l := snap.vars("locals"); l["message"] != `"hello, ada"` {
		t.Fatalf("locals: %v", l)
	}
	wantRuntime(t, snap.obj("data").str("runtime"), "ruby: ", "Bundler", filepath.Join(dir, "Gemfile"))
	gem := h.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": `Gem.loaded_specs["greeter"].full_gem_path`})
	if want := `"` + filepath.Join(dir, "vendor", "greeter") + `"`; gem.str("result") != want {
		t.Fatalf("the bundle's gem: %v, want %s", gem, want)
	}
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("the program should end (exit 0): %v", end)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(out, "hello, ada\n") {
		t.Fatalf("program output: %q", out)
	}
}

// TestRubyGemfileWithAMissingGemFailsWithBundlersMessage: a Gemfile naming
// a gem that is not installed fails the launch with Bundler's own words.
func TestRubyGemfileWithAMissingGemFailsWithBundlersMessage(t *testing.T) {
	testenv.RequireTool(t, "apt-get install -y ruby-bundler", "bundle")
	h := newHarness(t)
	id := h.sessionFor("ruby")
	dir := projectCopy(t, "ruby/bundled")
	gemfile := "source \"https://rubygems.org\"\ngem \"mcp_debugger_absent_gem\"\n"
	if err := os.WriteFile(filepath.Join(dir, "Gemfile"), []byte(gemfile), 0o644); err != nil {
		t.Fatal(err)
	}
	h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(dir, "app.rb")},
		"Could not find gem 'mcp_debugger_absent_gem'")
}

// TestRubyWithoutGemfileSaysSo: a lone script runs with plain ruby, and the
// answer says there was no Gemfile.
func TestRubyWithoutGemfileSaysSo(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	snap := h.stopAt(id, src, 12, src)
	wantRuntime(t, snap.obj("data").str("runtime"), "ruby: ", "; no Gemfile)")
}

// An rdbg that runs the program with another ruby than the one found
// here (a wrapper into a chroot or container does): the runtime line names
// the ruby the program really ran with, as that ruby says, not the one a
// probe of this machine's ruby would name.
func TestRubyRuntimeLineNamesTheRubyThatRan(t *testing.T) {
	av := testenv.RequireAdapter(t, "ruby")
	ruby := testenv.RequireTool(t, "apt-get install -y ruby", "ruby")
	dir := t.TempDir()
	// The other ruby: this one, made to say it is 9.9.9.
	fake := filepath.Join(dir, "fake.rb")
	other := filepath.Join(dir, "other-ruby")
	wrapper := filepath.Join(dir, "rdbg")
	for path, text := range map[string]string{
		fake:  "Object.send(:remove_const, :RUBY_VERSION)\nRUBY_VERSION = \"9.9.9\"\n",
		other: "#!/bin/sh\nexec " + ruby + " -W0 -r " + fake + " \"$@\"\n",
		// rdbg's arguments end "-c -- RUBY ...": RUBY becomes the other one.
		wrapper: "#!/bin/sh\nn=$#; i=0\nfor a; do i=$((i+1)); if [ \"$prev\" = -- ] && [ \"$prev2\" = -c ]; then a=" + other + "; fi\n  prev2=$prev; prev=$a; set -- \"$@\" \"$a\"; done\nshift $n\nexec " + strings.Join(rdbgCommand(t, ruby, av.Path), " ") + " \"$@\"\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("RDBG_PATH", wrapper)
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	snap := h.stopAt(id, src, 12, src)
	wantRuntime(t, snap.obj("data").str("runtime"), "ruby: ", " 9.9.9 (")
}

// TestGoFileOfAModuleSubpackageBuildsItsPackage: main.go of cmd/app, two
// levels under its go.mod, with a second file in its package: the whole
// package is built in its module, and the answer names the module.
func TestGoFileOfAModuleSubpackageBuildsItsPackage(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	root := goProgram(t, "modproj")
	src := filepath.Join(root, "cmd", "app", "main.go")
	snap := h.stopAt(id, src, 12, src)
	if l := snap.vars("locals"); l["total"] != "7" {
		t.Fatalf("locals: %v", l)
	}
	wantRuntime(t, snap.obj("data").str("runtime"), "go: module example.com/shop at "+root+" (go.mod)", ", go1.")
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("the program should end (exit 0): %v", end)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(out, "total 7\n") {
		t.Fatalf("program output: %q", out)
	}
}

// TestGoWorkspaceModuleSeesItsWorkspace: a module of a go.work workspace
// imports another of its modules (no replace, no require): it builds, a
// breakpoint in the other module hits, and the answer names the go.work.
func TestGoWorkspaceModuleSeesItsWorkspace(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("go")
	root := goProgram(t, "workspace")
	snap := h.stopAt(id, filepath.Join(root, "lib", "lib.go"), 8, filepath.Join(root, "app", "main.go"))
	if l := snap.vars("locals"); l["s"] != `"hi"` {
		t.Fatalf("locals in lib.Shout: %v", l)
	}
	wantRuntime(t, snap.obj("data").str("runtime"), "go: module example.com/app at "+filepath.Join(root, "app"), "workspace "+filepath.Join(root, "go.work"))
}

// TestRustWorkspaceMemberIsBuiltAndRun: main.rs of one member of a Cargo
// workspace that has two binaries: that member is built and run, a
// breakpoint in another member (its library) hits, and the answer names
// the package and the workspace.
func TestRustWorkspaceMemberIsBuiltAndRun(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	root := projectCopy(t, "native/rustws")
	snap := h.stopAt(id, filepath.Join(root, "crates", "util", "src", "lib.rs"), 6, filepath.Join(root, "crates", "app", "src", "main.rs"))
	if l := snap.vars("locals"); l["total"] != "7" {
		t.Fatalf("locals in util::sum: %v", l)
	}
	wantRuntime(t, snap.obj("data").str("runtime"), "rust: cargo package app (bin app), workspace "+root)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	end := h.ok("continue_execution", map[string]any{"sessionId": id})
	if end.str("state") != "stopped" || end.num("exitCode") != 0 {
		t.Fatalf("the program should end (exit 0): %v", end)
	}
	if out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries"); !strings.Contains(out, "app total 7") || strings.Contains(out, "tool ran") {
		t.Fatalf("program output (app's, not tool's): %q", out)
	}
}

// TestNativeMakefileProjectDebugsTheBuiltBinary: a two-file C project
// built by its own Makefile (the agent builds, we debug): a breakpoint in
// the second file hits, and the answer says the binary runs as given.
func TestNativeMakefileProjectDebugsTheBuiltBinary(t *testing.T) {
	make := testenv.RequireTool(t, "apt-get install -y make", "make")
	h := newHarness(t)
	id := h.sessionFor("c")
	root := projectCopy(t, "native/makeproj")
	if out, err := exec.Command(make, "-C", root).CombinedOutput(); err != nil {
		t.Fatalf("make: %v\n%s", err, out)
	}
	bin := filepath.Join(root, "shop")
	snap := h.stopAt(id, filepath.Join(root, "price.c"), 5, bin)
	if l := snap.vars("locals"); l["n"] != "2" {
		t.Fatalf("locals in total: %v", l)
	}
	wantRuntime(t, snap.obj("data").str("runtime"), "c: the binary "+bin+" as given")
}

// TestNativeFileOfAMakefileProjectSaysToBuildIt: a source file of a
// Makefile project does not link alone; the error says to build with the
// project's Makefile and pass the binary.
func TestNativeFileOfAMakefileProjectSaysToBuildIt(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	root := projectCopy(t, "native/makeproj")
	h.fail("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(root, "main.c")},
		"built by "+filepath.Join(root, "Makefile"))
}

// TestDebugTestAnswersNameTheRuntime: debug_test's answer says what ran
// the tests, for Go (the module), Ruby (the ruby, no Gemfile) and Rust
// (the cargo package and its workspace).
func TestDebugTestAnswersNameTheRuntime(t *testing.T) {
	for _, c := range []struct {
		language, path string
		want           []string
	}{
		{"go", goProgram(t, "failing", "cart_test.go"), []string{"go: module ", "at " + goProgram(t, "failing") + " (go.mod)"}},
		{"ruby", rubyProgram(t, "test_cart.rb"), []string{"ruby: ", "; no Gemfile)"}},
		{"rust", nativeProgram(t, "rustfail", "src", "lib.rs"), []string{"rust: cargo test, package rustfail, workspace " + nativeProgram(t, "rustfail")}},
	} {
		t.Run(c.language, func(t *testing.T) {
			if c.language == "rust" {
				testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
			}
			h := newHarness(t)
			h.sessionFor(c.language)
			res := h.ok("debug_test", map[string]any{"language": c.language, "path": c.path})
			wantRuntime(t, res.obj("test").str("runtime"), c.want...)
		})
	}
}
