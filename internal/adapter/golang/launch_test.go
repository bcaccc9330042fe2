package golang

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// tree makes a module with a package, a test file and an executable.
func tree(t *testing.T) (root string) {
	root = t.TempDir()
	files := map[string]string{
		"go.mod":              "module example.com/m\n",
		"cmd/app/main.go":     "package main\n\nfunc weigh(x int) int { return x }\n\nfunc main() {}\n",
		"cmd/app/app_test.go": "package main\n\nfunc helper() {}\n",
		"lib/a.go":            "package lib\n\nfunc Dup() {}\n",
		"lib/b.go":            "package lib\n\ntype T struct{}\n\nfunc (T) Dup() {}\n\nfunc Twice() {}\n",
		"lib/c.go":            "package lib\n\nfunc init() {}\n\nfunc init() {}\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "app.bin"), []byte("\x7fELF"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestModeOf(t *testing.T) {
	root := tree(t)
	app := filepath.Join(root, "cmd", "app")
	for _, c := range []struct{ path, mode, program string }{
		{app, modeDebug, app},
		{filepath.Join(app, "main.go"), modeDebug, app},
		{filepath.Join(app, "app_test.go"), modeTest, app},
		{filepath.Join(root, "app.bin"), modeExec, filepath.Join(root, "app.bin")},
	} {
		mode, program, err := modeOf(c.path)
		if err != nil || mode != c.mode || program != c.program {
			t.Errorf("modeOf(%s) = %s %s %v; want %s %s", c.path, mode, program, err, c.mode, c.program)
		}
	}
	if _, _, err := modeOf(filepath.Join(root, "go.mod")); err == nil {
		t.Error("go.mod is not a program")
	}
	if d := moduleDir(filepath.Join(app, "main.go")); d != root {
		t.Errorf("moduleDir = %s, want %s", d, root)
	}
	lone := t.TempDir()
	if d := moduleDir(lone); d != lone {
		t.Errorf("moduleDir outside a module = %s", d)
	}
}

func TestLaunchArguments(t *testing.T) {
	root := tree(t)
	app := filepath.Join(root, "cmd", "app")
	cfg := adapter.LaunchConfig{Program: app, Args: []string{"-v"}, Env: map[string]string{"K": "V"}, StopOnEntry: true}
	args := launchArguments(cfg, modeDebug, app, "/tmp/x/debug.bin")
	if args["mode"] != modeDebug || args["program"] != app || args["outputMode"] != "remote" || args["output"] != "/tmp/x/debug.bin" ||
		args["cwd"] != app || args["stopOnEntry"] != true || args["env"].(map[string]any)["K"] != "V" {
		t.Errorf("debug arguments: %v", args)
	}
	exec := launchArguments(adapter.LaunchConfig{}, modeExec, filepath.Join(root, "app.bin"), "/tmp/x/debug.bin")
	if _, set := exec["output"]; set {
		t.Errorf("exec mode builds nothing: %v", exec)
	}
	cfg.Extra = map[string]any{"mode": "test", "program": filepath.Join(app, "app_test.go"), "buildFlags": "-tags=x", "outputMode": "local"}
	over := launchArguments(cfg, modeDebug, app, "/tmp/x/debug.bin")
	if over["mode"] != "test" || over["program"] != app || over["buildFlags"] != "-tags=x" || over["outputMode"] != "local" || over["output"] != "/tmp/x/debug.bin" {
		t.Errorf("dapLaunchArgs should override: %v", over)
	}
}

func TestDryRunStartsNothing(t *testing.T) {
	root := tree(t)
	a := &Adapter{finder: isolated(t, map[string]string{dlvPathEnv: fakeDlv(t, t.TempDir(), "1.27.2")})}
	conn, err := a.Launch(context.Background(), adapter.LaunchConfig{Program: filepath.Join(root, "cmd", "app", "app_test.go"), DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := conn.Arguments["output"].(string)
	if conn.Transport != nil || conn.Arguments["mode"] != modeTest || !strings.HasPrefix(out, os.TempDir()) || strings.Contains(out, "__debug_bin") {
		t.Errorf("dry run: %+v", conn)
	}
	if _, err := os.Stat(filepath.Dir(out)); err == nil {
		t.Errorf("dry run created %s", filepath.Dir(out))
	}
	if len(conn.Command) != 4 || conn.Command[1] != "dap" || conn.Command[2] != "--listen=127.0.0.1:0" || conn.Command[3] != "--check-go-version=false" {
		t.Errorf("command: %v", conn.Command)
	}
}

func TestFunctionNamer(t *testing.T) {
	root := tree(t)
	app := filepath.Join(root, "cmd", "app")
	name := functionNamer(modeDebug, app)
	for in, want := range map[string]string{
		"weigh":      "main.weigh",
		"main.weigh": "main.weigh",
		"helper":     "helper", // only in a test file: not part of a debug build
		"missing":    "missing",
	} {
		if got := name(in); got != want {
			t.Errorf("debug: %q → %q, want %q", in, got, want)
		}
	}
	if got := functionNamer(modeTest, filepath.Join(app, "app_test.go"))("helper"); got != "main.helper" {
		t.Errorf("test mode sees test files: %q", got)
	}
	lib := functionNamer(modeDebug, filepath.Join(root, "lib"))
	if got := lib("Dup"); got != "lib.Dup" {
		t.Errorf("a method of the same name does not make a function ambiguous: %q", got)
	}
	if got := lib("init"); got != "init" {
		t.Errorf("an ambiguous name goes as given: %q", got)
	}
	if functionNamer(modeExec, filepath.Join(root, "app.bin")) != nil {
		t.Error("exec mode has no sources to read")
	}
}

// TestModeOfScriptExcludedFromItsPackage: a //go:build ignore file is a
// program of its own, built alone, not its directory's package.
func TestModeOfScriptExcludedFromItsPackage(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":  "module example.com/gen\n\ngo 1.21\n",
		"main.go": "package main\n\nfunc main() {}\n",
		"gen.go":  "//go:build ignore\n\npackage main\n\nfunc main() {}\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gen := filepath.Join(dir, "gen.go")
	if _, program, err := modeOf(gen); err != nil || program != gen {
		t.Errorf("modeOf(gen.go) = %s %v, want the file itself", program, err)
	}
	if _, program, err := modeOf(filepath.Join(dir, "main.go")); err != nil || program != dir {
		t.Errorf("modeOf(main.go) = %s %v, want its package %s", program, err, dir)
	}
}

// TestModeOfFileOutsideAModule: the go command builds no directory outside
// a module ("go.mod file not found"), so a lone main.go is built alone.
func TestModeOfFileOutsideAModule(t *testing.T) {
	main := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(main, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, program, err := modeOf(main); err != nil || program != main {
		t.Errorf("modeOf(main.go outside a module) = %s %v, want the file itself", program, err)
	}
}

// Delve's "Building …" line before the launch is dropped, once: the same
// line printed later is the program's own.
func TestWithoutBuildLine(t *testing.T) {
	for _, c := range []struct {
		mode, program string
		events        [][2]string // category, text
		want          []bool
	}{
		{modeDebug, "/src/app", [][2]string{{"stdout", "Building /src/app\n"}, {"stdout", "Building /src/app\n"}}, []bool{true, false}},
		{modeTest, "/src/pkg", [][2]string{{"stdout", "Building tests of /src/pkg\n"}, {"stdout", "ok\n"}}, []bool{true, false}},
		{modeDebug, "/src/app", [][2]string{{"stdout", "Building /src/other\n"}, {"console", "Type 'dlv help' for list of commands.\n"}}, []bool{false, true}},
	} {
		isNoise := withoutBuildLine(isNoise, c.mode, c.program)
		for i, ev := range c.events {
			if got := isNoise(ev[0], ev[1]); got != c.want[i] {
				t.Errorf("%s %s: event %d %q: noise %v, want %v", c.mode, c.program, i, ev[1], got, c.want[i])
			}
		}
	}
}

// A test name as `go test -v` prints it, a subtest's included, and a
// regular expression, both select what they name.
func TestRunPattern(t *testing.T) {
	for _, c := range []struct {
		name  string
		match []string // full test names, levels joined by "/"
		miss  []string
	}{
		{"TestSum", []string{"TestSum"}, []string{"TestSumAll", "XTestSum"}},
		{"TestSum/array_with_size_11_(whole)", []string{"TestSum/array_with_size_11_(whole)"}, []string{"TestSum/single_element"}},
		{"TestSum/array with size 11 (whole)", []string{"TestSum/array_with_size_11_(whole)"}, nil},
		{"TestA|TestB", []string{"TestA", "TestB"}, []string{"TestC"}},
	} {
		levels := strings.Split(runPattern(c.name), "/")
		matches := func(full string) bool {
			parts := strings.Split(full, "/")
			for i, p := range parts {
				if i < len(levels) && !regexp.MustCompile(levels[i]).MatchString(p) {
					return false
				}
			}
			return true
		}
		for _, m := range c.match {
			if !matches(m) {
				t.Errorf("runPattern(%q) = %q does not select %q", c.name, runPattern(c.name), m)
			}
		}
		for _, m := range c.miss {
			if matches(m) {
				t.Errorf("runPattern(%q) = %q selects %q", c.name, runPattern(c.name), m)
			}
		}
	}
}
