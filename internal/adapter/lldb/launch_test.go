package lldb

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

func TestLaunchArguments(t *testing.T) {
	cfg := adapter.LaunchConfig{
		Args:        []string{"a", "b"},
		Env:         map[string]string{"B": "2", "A": "1"},
		StopOnEntry: true,
		Extra:       map[string]any{"stopOnEntry": false, "sourceMap": []any{}},
	}
	args := launchArguments(cfg, "/work/bin/prog", []string{"command script import x"}, false)
	want := map[string]any{
		"type": "lldb-dap", "request": "launch", "name": "prog", "program": "/work/bin/prog",
		"args": []string{"a", "b"}, "cwd": "/work/bin", "env": []string{"A=1", "B=2"},
		"stopOnEntry": false, "sourceMap": []any{}, "initCommands": []string{"command script import x", `settings set target.input-path "/dev/null"`},
	}
	if !reflect.DeepEqual(args, want) {
		t.Errorf("launch arguments:\n got %v\nwant %v", args, want)
	}

	// No args and no env still send lists, never null.
	args = launchArguments(adapter.LaunchConfig{Cwd: "/tmp"}, "/p", nil, false)
	if a, _ := args["args"].([]string); a == nil || args["cwd"] != "/tmp" {
		t.Errorf("empty args: %v", args)
	}
	// The one init command for C: the program reads end of file, not a
	// terminal nobody types in.
	if ic, _ := args["initCommands"].([]string); len(ic) != 1 || ic[0] != `settings set target.input-path "/dev/null"` {
		t.Errorf("initCommands for C: %v", args)
	}
	// Given an input file, it reads that one, its path quoted for lldb.
	args = launchArguments(adapter.LaunchConfig{StdinFile: `/in/a "b".txt`}, "/p", nil, false)
	if ic, _ := args["initCommands"].([]string); len(ic) != 1 || ic[0] != `settings set target.input-path "/in/a \"b\".txt"` {
		t.Errorf("initCommands with stdin: %v", args)
	}
}

func TestLaunchArgumentsPanicBreakpointFirst(t *testing.T) {
	cfg := adapter.LaunchConfig{Extra: map[string]any{"preRunCommands": []any{"settings set x y"}}}
	args := launchArguments(cfg, "/p", nil, true)
	want := []any{panicCommand, "settings set x y"}
	if !reflect.DeepEqual(args["preRunCommands"], want) {
		t.Errorf("preRunCommands = %v, want %v", args["preRunCommands"], want)
	}
	args = launchArguments(adapter.LaunchConfig{}, "/p", nil, true)
	if !reflect.DeepEqual(args["preRunCommands"], []any{panicCommand}) {
		t.Errorf("preRunCommands = %v", args["preRunCommands"])
	}
}

func TestClassify(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c := write("a.c", "int main(){}", 0o644)
	cpp := write("b.cpp", "int main(){}", 0o644)
	bin := write("prog", "", 0o755)
	write("crate/Cargo.toml", "[package]\nname = \"crate\"\n", 0o644)
	rs := write("crate/src/main.rs", "fn main(){}", 0o644)
	txt := write("notes.txt", "", 0o644)
	for path, want := range map[string]target{
		c:                             {kind: kindC, path: c},
		cpp:                           {kind: kindCPP, path: cpp},
		bin:                           {kind: kindBinary, path: bin},
		filepath.Join(dir, "crate"):   {kind: kindCargo, path: filepath.Join(dir, "crate")},
		rs:                            {kind: kindCargo, path: filepath.Join(dir, "crate"), source: rs},
		filepath.Join(dir, "crate/x"): {},
	} {
		got, err := classify(path)
		if want.kind == "" {
			if err == nil {
				t.Errorf("classify(%s) = %+v, want an error", path, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("classify(%s) = %+v, %v; want %+v", path, got, err, want)
		}
	}
	if _, err := classify(txt); err == nil || !strings.Contains(err.Error(), "neither") {
		t.Errorf("a text file: %v", err)
	}
	if _, err := classify(dir); err == nil || !strings.Contains(err.Error(), "Cargo.toml") {
		t.Errorf("a directory without Cargo.toml: %v", err)
	}
}

func TestCompileCachedUntilSourceChanges(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("cc not found")
	}
	root := t.TempDir()
	src := filepath.Join(t.TempDir(), "hello.c")
	os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644)
	ctx := context.Background()
	bin, built, err := compile(ctx, platform.Current(), root, "cc", src)
	if err != nil || !built || !adapter.IsExecutable(bin) || !strings.HasPrefix(bin, root) {
		t.Fatalf("first build: %s %v %v", bin, built, err)
	}
	again, built, err := compile(ctx, platform.Current(), root, "cc", src)
	if err != nil || built || again != bin {
		t.Errorf("an unchanged source must not be rebuilt: %s %v %v", again, built, err)
	}
	os.WriteFile(src, []byte("int main(void) { return 1; }\n"), 0o644)
	changed, built, err := compile(ctx, platform.Current(), root, "cc", src)
	if err != nil || !built || changed == bin {
		t.Errorf("an edited source is rebuilt elsewhere: %s %v %v", changed, built, err)
	}
	if p, _ := compiledPath(platform.Current(), root, "c++", src); p == changed {
		t.Errorf("the compiler is part of the key")
	}
}

func TestCompileErrorVerbatim(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("cc not found")
	}
	src := filepath.Join(t.TempDir(), "bad.c")
	os.WriteFile(src, []byte("int main(void) {\n\treturn nope;\n}\n"), 0o644)
	root := t.TempDir()
	_, _, err := compile(context.Background(), platform.Current(), root, "cc", src)
	if err == nil || !strings.Contains(err.Error(), "bad.c:2:16: error:") || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("compiler output verbatim: %v", err)
	}
	// Nothing half-built is left to be taken for a good build.
	left, _ := filepath.Glob(filepath.Join(root, "*", "*"))
	if len(left) != 0 {
		t.Errorf("left in the cache: %v", left)
	}
}

func TestPickBin(t *testing.T) {
	meta := func(defaultRun string, bins ...string) *cargoPackage {
		m := cargoMetadata{Packages: []cargoPackage{{Name: "pkg", ManifestPath: "/w/pkg/Cargo.toml", DefaultRun: defaultRun}}}
		for _, b := range bins {
			m.Packages[0].Targets = append(m.Packages[0].Targets, struct {
				Name    string   `json:"name"`
				Kind    []string `json:"kind"`
				SrcPath string   `json:"src_path"`
			}{Name: b, Kind: []string{"bin"}, SrcPath: "/w/pkg/src/bin/" + b + ".rs"})
		}
		pkg, err := packageAt(m, "/w/pkg")
		if err != nil {
			t.Fatal(err)
		}
		return pkg
	}
	if b, err := pickBin(meta("", "one"), target{path: "/w/pkg"}); err != nil || b != "one" {
		t.Errorf("single bin: %s %v", b, err)
	}
	if b, err := pickBin(meta("", "one", "two"), target{path: "/w/pkg", source: "/w/pkg/src/bin/two.rs"}); err != nil || b != "two" {
		t.Errorf("bin by source file: %s %v", b, err)
	}
	if b, err := pickBin(meta("two", "one", "two"), target{path: "/w/pkg"}); err != nil || b != "two" {
		t.Errorf("default-run: %s %v", b, err)
	}
	if _, err := pickBin(meta("", "one", "two"), target{path: "/w/pkg"}); err == nil || !strings.Contains(err.Error(), "one, two") {
		t.Errorf("ambiguous: %v", err)
	}
	if _, err := pickBin(meta(""), target{path: "/w/pkg"}); err == nil {
		t.Errorf("no bin target should fail")
	}
	if _, err := packageAt(cargoMetadata{Packages: []cargoPackage{{Name: "pkg", ManifestPath: "/w/pkg/Cargo.toml"}}}, "/w/other"); err == nil {
		t.Errorf("a directory with no package of the metadata should fail")
	}
}

func TestGuessCargoBinary(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CARGO_TARGET_DIR", "")
	os.WriteFile(filepath.Join(dir, "Cargo.toml"), []byte("[package]\nname = \"demo\"\nversion = \"0.1.0\"\n\n[dependencies]\nname = \"x\"\n"), 0o644)
	if got, err := guessCargoBinary(dir); err != nil || got != filepath.Join(dir, "target", "debug", "demo") {
		t.Errorf("package name: %s %v", got, err)
	}
	os.WriteFile(filepath.Join(dir, "Cargo.toml"), []byte("[package]\nname = \"demo\"\n\n[[bin]]\nname = \"tool\"\npath = \"src/main.rs\"\n"), 0o644)
	if got, err := guessCargoBinary(dir); err != nil || filepath.Base(got) != "tool" {
		t.Errorf("[[bin]] name: %s %v", got, err)
	}
}

func TestDryRunBuildsNothing(t *testing.T) {
	bin := t.TempDir()
	fakeDAP(t, bin, "lldb-dap-22", "22.1.8")
	a := &Adapter{lang: languages[0], finder: testFinder(map[string]string{"PATH": bin})}
	src := filepath.Join(t.TempDir(), "never.c")
	os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644)
	conn, err := a.Launch(context.Background(), adapter.LaunchConfig{Program: src, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	prog, _ := conn.Arguments["program"].(string)
	if conn.Transport != nil || conn.Request != "launch" || !strings.Contains(prog, filepath.Join("mcp-debugger", "native")) {
		t.Errorf("dry run: %+v", conn)
	}
	if _, err := os.Stat(prog); err == nil {
		t.Errorf("a dry run must not compile: %s exists", prog)
	}
}

// The test's own frame is a Rust source file of the workspace, never the
// test binary's "<binary>`<function>" that lldb-dap 21 names a frame
// without line information by.
func TestIsTestSource(t *testing.T) {
	o := platform.Linux
	for path, want := range map[string]bool{
		"/w/src/lib.rs": true,
		"/w/target/debug/deps/rustfail-9e8e1380bffa3fc3`std::panicking::panic_handler::{closure#0}": false,
		"/w": false,
		"/rustc/abc/library/std/src/panicking.rs": false,
		"/w/src/data.txt":                         false,
	} {
		if got := isTestSource(o, "/w", path); got != want {
			t.Errorf("isTestSource(%q) = %v, want %v", path, got, want)
		}
	}
}
