package lldb

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/platform/platformtest"
)

// fakeDAP writes an executable that prints a version banner like
// lldb-dap's and counts its runs in a file beside it.
func fakeDAP(t *testing.T, dir, name, version string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	script := "#!/bin/sh\necho x >> " + p + ".runs\necho 'lldb-dap: Debian LLVM version " + version + "'\necho 'liblldb: lldb version " + version + "'\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func testFinder(env map[string]string, llvm ...string) *finder {
	f := newFinder()
	f.machine.Getenv = func(k string) string { return env[k] }
	f.llvmDirs = func() []string { return llvm }
	return f
}

func TestFindPrefersHighestVersioned(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	fakeDAP(t, bin, "lldb-dap-18", "18.1.0")
	fakeDAP(t, bin, "lldb-vscode-30", "30.0.0")
	want := fakeDAP(t, bin, "lldb-dap-22", "22.1.8")
	llvm := filepath.Join(root, "llvm-20", "bin")
	fakeDAP(t, llvm, "lldb-dap", "20.1.0")
	f := testFinder(map[string]string{"PATH": bin}, llvm)
	got, err := f.find(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if got.path != want || got.version != "22.1.8" {
		t.Errorf("found %+v, want %s 22.1.8", got, want)
	}

	// lldb-vscode only when no lldb-dap exists at all.
	os.Remove(want)
	os.Remove(filepath.Join(bin, "lldb-dap-18"))
	os.Remove(filepath.Join(llvm, "lldb-dap"))
	got, err = f.find(context.Background(), "")
	if err != nil || filepath.Base(got.path) != "lldb-vscode-30" {
		t.Errorf("lldb-vscode fallback: %+v %v", got, err)
	}
}

func TestFindLLVMDirAndUnversioned(t *testing.T) {
	root := t.TempDir()
	llvm := filepath.Join(root, "llvm-21", "bin")
	want := fakeDAP(t, llvm, "lldb-dap", "21.0.0")
	f := testFinder(map[string]string{"PATH": filepath.Join(root, "empty")}, filepath.Join(root, "llvm-19", "bin"), llvm)
	got, err := f.find(context.Background(), "")
	if err != nil || got.path != want {
		t.Fatalf("from /usr/lib/llvm-NN/bin: %+v %v", got, err)
	}
	bin := filepath.Join(root, "bin")
	plain := fakeDAP(t, bin, "lldb-dap", "23.0.0")
	fakeDAP(t, bin, "lldb-dap-24", "24.0.0")
	f = testFinder(map[string]string{"PATH": bin}, llvm)
	if got, err := f.find(context.Background(), ""); err != nil || got.path != plain {
		t.Errorf("lldb-dap on PATH comes before lldb-dap-NN: %+v %v", got, err)
	}
}

func TestFindExplicitAndEnv(t *testing.T) {
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	fakeDAP(t, bin, "lldb-dap-22", "22.1.8")
	mine := fakeDAP(t, filepath.Join(root, "mine"), "my-lldb-dap", "19.1.0")
	env := fakeDAP(t, filepath.Join(root, "env"), "env-lldb-dap", "20.1.0")
	f := testFinder(map[string]string{"PATH": bin, lldbDAPPathEnv: env})
	if got, err := f.find(context.Background(), mine); err != nil || got.path != mine || got.version != "19.1.0" {
		t.Errorf("executablePath: %+v %v", got, err)
	}
	if got, err := f.find(context.Background(), ""); err != nil || got.path != env {
		t.Errorf("%s: %+v %v", lldbDAPPathEnv, got, err)
	}
	// A wrong name is reported, not replaced by another lldb-dap.
	_, err := f.find(context.Background(), filepath.Join(root, "nope"))
	if err == nil || !strings.Contains(err.Error(), "executablePath") {
		t.Errorf("missing executablePath: %v", err)
	}
}

// TestFindLLDBDAP19WithoutVersionFlag: lldb-dap 19 prints nothing for
// --version; it is recognised by its --help and versioned by the lldb
// beside its real path (/usr/bin/lldb-dap-19 links into
// /usr/lib/llvm-19/bin).
func TestFindLLDBDAP19WithoutVersionFlag(t *testing.T) {
	root := t.TempDir()
	llvm := filepath.Join(root, "llvm-19", "bin")
	write := func(path, script string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(llvm, "lldb-dap"), `[ "$1" = --help ] && echo 'OVERVIEW: LLDB DAP'; exit 0`+"\n")
	write(filepath.Join(llvm, "lldb"), "echo 'lldb version 19.1.7'\n")
	bin := filepath.Join(root, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(bin, "lldb-dap-19")
	if err := os.Symlink(filepath.Join(llvm, "lldb-dap"), link); err != nil {
		t.Fatal(err)
	}
	f := testFinder(map[string]string{"PATH": bin})
	if got, err := f.find(context.Background(), ""); err != nil || got.path != link || got.version != "19.1.7" {
		t.Errorf("lldb-dap-19: %+v %v", got, err)
	}

	// Silent on both flags: not lldb-dap.
	other := filepath.Join(root, "other", "lldb-dap")
	write(other, "exit 0\n")
	if _, err := f.find(context.Background(), other); err == nil || !strings.Contains(err.Error(), "not lldb-dap") {
		t.Errorf("a silent binary should not pass for lldb-dap: %v", err)
	}
}

func TestFindMissingAndCheck(t *testing.T) {
	f := testFinder(map[string]string{"PATH": t.TempDir()})
	a := &Adapter{lang: languages[0], finder: f}
	av := a.Check(context.Background())
	if av.Installed || av.InstallHint != installHint(platform.Linux) || !strings.Contains(av.Reason, "lldb-dap not found") {
		t.Errorf("missing lldb-dap: %+v", av)
	}
	if av.Launch.Available || av.Attach.Available {
		t.Errorf("no mode is available without lldb-dap: %+v", av)
	}
}

func TestVersionProbeCached(t *testing.T) {
	bin := t.TempDir()
	p := fakeDAP(t, bin, "lldb-dap-22", "22.1.8")
	f := testFinder(map[string]string{"PATH": bin})
	a := &Adapter{lang: languages[2], finder: f}
	for range 3 {
		if av := a.Check(context.Background()); !av.Installed || av.Version != "22.1.8" || av.Path != p {
			t.Fatalf("check: %+v", av)
		}
	}
	runs, _ := os.ReadFile(p + ".runs")
	if n := strings.Count(string(runs), "x"); n != 1 {
		t.Errorf("lldb-dap --version ran %d times, want once", n)
	}
}

func TestParseVersion(t *testing.T) {
	for out, want := range map[string]string{
		"lldb-dap: Debian LLVM version 22.1.8\n  Optimized build.\nliblldb: lldb version 22.1.8\n": "22.1.8",
		"lldb version 18.1.3": "18.1.3",
		"usage: something":    "",
	} {
		if got := parseVersion(out); got != want {
			t.Errorf("parseVersion(%q) = %q, want %q", out, got, want)
		}
	}
}

func TestLanguagesRegistered(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range languages {
		for _, id := range append([]string{l.ID}, l.Aliases...) {
			if seen[id] {
				t.Errorf("id %q used twice", id)
			}
			seen[id] = true
		}
	}
	for _, id := range []string{"c", "cpp", "c++", "cxx", "rust"} {
		if !seen[id] {
			t.Errorf("language id %q missing", id)
		}
	}
}

func TestLookupAliases(t *testing.T) {
	for alias, want := range map[string]string{"c": "c", "cpp": "cpp", "C++": "cpp", "cxx": "cpp", "rust": "rust"} {
		a, ok := adapter.Lookup(alias)
		if !ok || a.Language().ID != want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", alias, a, ok, want)
		}
	}
}

// TestLocatePerOS: which lldb-dap binaries each OS offers, best first, on a
// fake machine: PATH, then Xcode's and Homebrew's on macOS, LLVM's
// installer's on Windows, then Debian's versioned ones on Linux.
func TestLocatePerOS(t *testing.T) {
	xcode := "/Applications/Xcode.app/Contents/Developer/usr/bin/lldb-dap"
	for _, c := range []struct {
		name     string
		os       platform.OS
		env      map[string]string
		commands map[string]string
		files    []string
		want     []string
	}{
		{"linux", platform.Linux, map[string]string{"PATH": "/usr/bin"}, nil,
			[]string{"/usr/bin/lldb-dap-19", "/usr/bin/lldb-dap-22"},
			[]string{"/usr/bin/lldb-dap-22", "/usr/bin/lldb-dap-19"}},
		{"macOS xcrun and Homebrew", platform.Darwin, map[string]string{"PATH": "/usr/bin:/opt/homebrew/bin"},
			map[string]string{"xcrun -f lldb-dap": xcode},
			[]string{xcode, "/opt/homebrew/opt/llvm/bin/lldb-dap", "/usr/local/opt/llvm/bin/lldb-dap"},
			[]string{xcode, "/opt/homebrew/opt/llvm/bin/lldb-dap", "/usr/local/opt/llvm/bin/lldb-dap"}},
		{"macOS PATH first, no Xcode", platform.Darwin, map[string]string{"PATH": "/Users/a/bin"}, nil,
			[]string{"/Users/a/bin/lldb-dap", "/usr/local/opt/llvm/bin/lldb-dap"},
			[]string{"/Users/a/bin/lldb-dap", "/usr/local/opt/llvm/bin/lldb-dap"}},
		{"windows", platform.Windows, map[string]string{"PATH": `C:\Tools`, "ProgramFiles": `D:\Apps`}, nil,
			[]string{`C:\Tools\lldb-dap`, `D:\Apps\LLVM\bin\lldb-dap.exe`, `C:\Program Files\LLVM\bin\lldb-dap.exe`},
			[]string{`D:\Apps\LLVM\bin\lldb-dap.exe`}},
		{"windows PATH and default Program Files", platform.Windows, map[string]string{"PATH": `C:\Tools`}, nil,
			[]string{`C:\Tools\lldb-dap.exe`, `C:\Program Files\LLVM\bin\lldb-dap.exe`},
			[]string{`C:\Tools\lldb-dap.exe`, `C:\Program Files\LLVM\bin\lldb-dap.exe`}},
	} {
		f := &finder{machine: platformtest.Machine(c.os, c.env, c.commands, c.files...)}
		f.llvmDirs = f.systemLLVMDirs
		if got := f.locate(context.Background()); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: located %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSystemLLVMDirsOnLinuxOnly: /usr/lib/llvm-NN/bin is Debian's layout;
// a Mac with such a directory does not look there.
func TestSystemLLVMDirsOnLinuxOnly(t *testing.T) {
	files := []string{"/usr/lib/llvm-21/bin/lldb-dap"}
	linux := &finder{machine: platformtest.Machine(platform.Linux, nil, nil, files...)}
	linux.llvmDirs = linux.systemLLVMDirs
	if got := linux.locate(context.Background()); len(got) != 1 || got[0] != files[0] {
		t.Errorf("linux: %q", got)
	}
	mac := &finder{machine: platformtest.Machine(platform.Darwin, nil, nil, files...)}
	if dirs := mac.systemLLVMDirs(); len(dirs) != 0 {
		t.Errorf("macOS: %q", dirs)
	}
}

func TestInstallHintPerOS(t *testing.T) {
	for o, want := range map[*platform.OS]string{
		&platform.Linux:   "apt-get install -y lldb-22",
		&platform.Darwin:  "brew install llvm",
		&platform.Windows: "winget install LLVM.LLVM",
	} {
		a := &Adapter{lang: languages[0], finder: &finder{machine: platformtest.Machine(*o, nil, nil)}}
		a.finder.llvmDirs = a.finder.systemLLVMDirs
		if av := a.Check(context.Background()); av.Installed || !strings.HasPrefix(av.InstallHint, want) {
			t.Errorf("%s: hint %q, want %q", o.Name, av.InstallHint, want)
		}
	}
}

// TestCompilerAndOutputPerOS: a lone C file builds with cc, or clang where
// only LLVM's names exist (macOS, Windows), into a .exe on Windows.
func TestCompilerAndOutputPerOS(t *testing.T) {
	for _, c := range []struct {
		os         platform.OS
		path       string
		files      []string
		kind, want string
	}{
		{platform.Linux, "/usr/bin", nil, kindC, "cc"},
		{platform.Darwin, "/usr/bin", []string{"/usr/bin/cc", "/usr/bin/clang"}, kindC, "cc"},
		{platform.Darwin, "/opt/homebrew/opt/llvm/bin", []string{"/opt/homebrew/opt/llvm/bin/clang"}, kindC, "clang"},
		{platform.Windows, `C:\LLVM\bin`, []string{`C:\LLVM\bin\clang++.exe`}, kindCPP, "clang++"},
	} {
		m := platformtest.Machine(c.os, map[string]string{"PATH": c.path}, nil, c.files...)
		if got := compilerFor(m, c.kind); got != c.want {
			t.Errorf("%s %s: compiler %q, want %q", c.os.Name, c.kind, got, c.want)
		}
	}
	src := filepath.Join(t.TempDir(), "prog.c")
	if err := os.WriteFile(src, []byte("int main(void){return 0;}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	win, _ := compiledPath(platform.Windows, t.TempDir(), "clang", src)
	unix, _ := compiledPath(platform.Linux, t.TempDir(), "cc", src)
	if filepath.Base(win) != "prog.exe" || filepath.Base(unix) != "prog" {
		t.Errorf("outputs: %q, %q", win, unix)
	}
}
