package ruby

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/platform/platformtest"
)

// fakeRdbg writes a script that answers `rdbg --version` like rdbg.
func fakeRdbg(t *testing.T, dir, version string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, "rdbg")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho 'rdbg "+version+"'\n"), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// isolated is a finder that sees only env and no gem directory.
func isolated(env map[string]string, globbed ...string) *finder {
	f := newFinder()
	f.machine.Getenv = func(k string) string { return env[k] }
	f.glob = func(string) ([]string, error) { return globbed, nil }
	return f
}

func TestFindOrder(t *testing.T) {
	onPath := fakeRdbg(t, t.TempDir(), "1.0.0", 0o755)
	chosen := fakeRdbg(t, t.TempDir(), "9.9.9", 0o755)
	f := isolated(map[string]string{"PATH": filepath.Dir(onPath)})
	if got, err := f.find(context.Background(), ""); err != nil || got.path != onPath || got.version != "1.0.0" {
		t.Fatalf("PATH: %+v %v", got, err)
	}
	f = isolated(map[string]string{"PATH": filepath.Dir(onPath), rdbgPathEnv: chosen})
	if got, err := f.find(context.Background(), ""); err != nil || got.path != chosen {
		t.Fatalf("RDBG_PATH should win over PATH: %+v %v", got, err)
	}
	explicit := fakeRdbg(t, t.TempDir(), "2.0.0", 0o755)
	if got, err := f.find(context.Background(), explicit); err != nil || got.path != explicit || got.version != "2.0.0" {
		t.Fatalf("executablePath should win: %+v %v", got, err)
	}
	if _, err := isolated(map[string]string{rdbgPathEnv: "/no/such/rdbg"}).find(context.Background(), ""); err == nil || !strings.Contains(err.Error(), rdbgPathEnv) {
		t.Fatalf("a wrong RDBG_PATH must be reported, not replaced: %v", err)
	}
}

func TestFindMissing(t *testing.T) {
	a := &Adapter{finder: isolated(map[string]string{"PATH": t.TempDir()})}
	av := a.Check(context.Background())
	if av.Installed || av.InstallHint != installHint(platform.Linux) || !strings.Contains(av.Reason, "not found") || !av.Attach.Available {
		t.Fatalf("availability without rdbg: %+v", av)
	}
	_, err := a.Launch(context.Background(), adapter.LaunchConfig{Program: "/x.rb"})
	if ue, ok := err.(*adapter.UnavailableError); !ok || !strings.Contains(ue.Error(), "apt-get install -y ruby") {
		t.Fatalf("launch without rdbg: %v", err)
	}
}

func TestGemScriptRunsThroughRuby(t *testing.T) {
	bin := t.TempDir()
	// A "ruby" that fails the gem query (so the glob is used) and runs
	// the script it is given.
	ruby := filepath.Join(bin, "ruby")
	if err := os.WriteFile(ruby, []byte("#!/bin/sh\n[ \"$1\" = -e ] && exit 1\nexec /bin/sh \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gem := fakeRdbg(t, t.TempDir(), "1.4.0", 0o644)
	f := isolated(map[string]string{"PATH": bin}, gem)
	got, err := f.find(context.Background(), "")
	if err != nil || got.path != gem || got.ruby != ruby || got.version != "1.4.0" {
		t.Fatalf("gem rdbg: %+v %v", got, err)
	}
	cmd := launchCommand(got, ruby, []string{"/cache/sync.rb", "/p/setup.rb"}, "/p/prog.rb", []string{"a b", "c"})
	want := []string{ruby, gem, "--open", "--host", "127.0.0.1", "--port", "0", "-c", "--", ruby, "-r", "/cache/sync.rb", "-r", "/p/setup.rb", "/p/prog.rb", "a b", "c"}
	if !slices.Equal(cmd, want) {
		t.Fatalf("command %q\nwant    %q", cmd, want)
	}
}

func TestDryRun(t *testing.T) {
	bin := t.TempDir()
	fakeRdbg(t, bin, "1.4.0", 0o755)
	os.WriteFile(filepath.Join(bin, "ruby"), []byte("#!/bin/sh\n"), 0o755)
	a := &Adapter{finder: isolated(map[string]string{"PATH": bin})}
	conn, err := a.Launch(context.Background(), adapter.LaunchConfig{Program: "/p/prog.rb", Args: []string{"x"}, DryRun: true})
	if err != nil || conn.Transport != nil || conn.Request != "launch" || conn.Arguments["cwd"] != "/p" {
		t.Fatalf("dry run: %+v %v", conn, err)
	}
	if c := conn.Command; c[len(c)-2] != "/p/prog.rb" || c[len(c)-1] != "x" {
		t.Fatalf("dry-run command %q", c)
	}
}

func TestParse(t *testing.T) {
	for out, want := range map[string]string{"rdbg 1.4.0\n": "1.4.0", "rdbg 1.6.3\n": "1.6.3"} {
		if v := parseVersion(out); v != want {
			t.Errorf("parseVersion(%q) = %q", out, v)
		}
	}
	if a, ok := parseAddress("DEBUGGER: Debugger can attach via TCP/IP (127.0.0.1:40203)\n"); !ok || a != "127.0.0.1:40203" {
		t.Errorf("parseAddress = %q %v", a, ok)
	}
	if _, ok := parseAddress("DEBUGGER: Connected.\n"); ok {
		t.Error("parseAddress accepted another line")
	}
	e := deleteExpression(`/a/it's.rb`, []int{4, 12})
	if !strings.Contains(e, `File.realpath('/a/it\'s.rb')`) || !strings.Contains(e, "[4, 12]") {
		t.Errorf("deleteExpression = %s", e)
	}
}

func TestSplitFrame(t *testing.T) {
	msg := "Content-Length: 2\r\n\r\n{}"
	if _, _, ok := splitFrame([]byte(msg[:len(msg)-1])); ok {
		t.Fatal("a partial frame was split")
	}
	frame, body, ok := splitFrame([]byte(msg + "Content"))
	if !ok || string(frame) != msg || string(body) != "{}" {
		t.Fatalf("splitFrame = %q %q %v", frame, body, ok)
	}
}

func TestDialect(t *testing.T) {
	for _, c := range []struct {
		version string
		want    dialect
	}{
		{"1.4.0", dialect{name: "rdbg 1.4.0", pausesOnAttach: true}},
		{"1.3.4", dialect{name: "rdbg 1.3.4", pausesOnAttach: true}},
		{"1.5.0", dialect{name: "rdbg 1.5.0", replacesBreakpoints: true, pausesOnAttach: true}},
		{"1.6.0", dialect{name: "rdbg 1.6.0", replacesBreakpoints: true}},
		{"1.6.3", dialect{name: "rdbg 1.6.3", replacesBreakpoints: true}},
		{"1.10.0", dialect{name: "rdbg 1.10.0", replacesBreakpoints: true}},
		{"1.7.0.beta1", dialect{name: "rdbg 1.7.0.beta1", replacesBreakpoints: true}},
		{"2.0", dialect{name: "rdbg 2.0", replacesBreakpoints: true}},
		{"0.2.1", dialect{name: "rdbg 0.2.1", pausesOnAttach: true}},
		{"", unknownDialect},
		{"dev", unknownDialect},
		{"1", unknownDialect},
		{"1.x.0", unknownDialect},
	} {
		if got := dialectOf(c.version); got != c.want {
			t.Errorf("dialectOf(%q) = %+v, want %+v", c.version, got, c.want)
		}
	}
}

// The dialect of an attach is that of the rdbg found here; stopOnEntry
// pauses only where attaching does not.
func TestAttachDialect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	for _, c := range []struct {
		version     string // "" for no rdbg here
		stopOnEntry bool
		why         string
		replaces    bool
		pause       bool
	}{
		{"1.4.0", true, "rdbg 1.4.0", false, false},
		{"1.6.3", true, "rdbg 1.6.3", true, true},
		{"1.6.3", false, "rdbg 1.6.3", true, false},
		{"", true, "rdbg", false, true},
	} {
		bin := t.TempDir()
		if c.version != "" {
			fakeRdbg(t, bin, c.version, 0o755)
		}
		a := &Adapter{finder: isolated(map[string]string{"PATH": bin})}
		conn, err := a.Attach(context.Background(), adapter.AttachConfig{Port: port, StopOnEntry: c.stopOnEntry})
		if err != nil {
			t.Fatalf("%s: %v", c.version, err)
		}
		t.Cleanup(conn.Cleanup)
		tr := conn.Transport.(*transport)
		if conn.Quirks.UnsupportedWhy != c.why || tr.dialect.replacesBreakpoints != c.replaces || tr.pauseAfterConfiguration != c.pause {
			t.Errorf("%q stopOnEntry=%v: why %q, replaces %v, pause %v", c.version, c.stopOnEntry, conn.Quirks.UnsupportedWhy, tr.dialect.replacesBreakpoints, tr.pauseAfterConfiguration)
		}
		if conn.Arguments["localfs"] != true {
			t.Errorf("attach arguments %v", conn.Arguments)
		}
	}
}

// localfs is sent unless the agent maps paths itself: rdbg reads
// localfsMap only when localfs is not set.
func TestLaunchMapsPaths(t *testing.T) {
	bin := t.TempDir()
	fakeRdbg(t, bin, "1.6.3", 0o755)
	os.WriteFile(filepath.Join(bin, "ruby"), []byte("#!/bin/sh\n"), 0o755)
	a := &Adapter{finder: isolated(map[string]string{"PATH": bin})}
	for _, c := range []struct {
		extra map[string]any
		want  map[string]any
	}{
		{nil, map[string]any{"localfs": true}},
		{map[string]any{"localfsMap": "/app:/src"}, map[string]any{"localfsMap": "/app:/src"}},
		{map[string]any{"localfs": false}, map[string]any{"localfs": false}},
	} {
		conn, err := a.Launch(context.Background(), adapter.LaunchConfig{Program: "/p/prog.rb", Extra: c.extra, DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"localfs", "localfsMap"} {
			if conn.Arguments[k] != c.want[k] {
				t.Errorf("extra %v: launch %s = %v, want %v", c.extra, k, conn.Arguments[k], c.want[k])
			}
		}
	}
}

// rdbg's address and "wait for debugger connection" lines come in either
// order (1.6.3): the address is handed out once both are seen, and the
// program's own lines go on.
func TestSplitStderrWaitsForAddressAndWaiting(t *testing.T) {
	const (
		addr    = "DEBUGGER: Debugger can attach via TCP/IP (127.0.0.1:40203)\n"
		waiting = "DEBUGGER: wait for debugger connection...\n"
		program = "a line of the program\n"
		ran     = "DEBUGGER: " + runtimeMarker + "3.3.8 /usr/bin/ruby\n"
	)
	for name, c := range map[string]struct {
		lines   []string
		want    string
		wantRan ranRuby
	}{
		"address first":   {[]string{addr, program, waiting}, "127.0.0.1:40203", ranRuby{}},
		"waiting first":   {[]string{waiting, program, addr}, "127.0.0.1:40203", ranRuby{}},
		"never waits":     {[]string{addr, program}, "", ranRuby{}},
		"ruby says which": {[]string{ran, program, addr, waiting}, "127.0.0.1:40203", ranRuby{"3.3.8", "/usr/bin/ruby"}},
		// A program printing the marker after the start is not believed.
		"program says it later": {[]string{addr, waiting, "DEBUGGER: " + runtimeMarker + "9.9 /x\n", program}, "127.0.0.1:40203", ranRuby{}},
	} {
		t.Run(name, func(t *testing.T) {
			pr, pw := io.Pipe()
			addrc := make(chan string, 1)
			in := io.NopCloser(strings.NewReader(strings.Join(c.lines, "")))
			var got ranRuby
			// Ends at the end of in, closing pw, which ends ReadAll.
			go splitStderr(in, pw, addrc, &got, &debuggerLines{}, slog.New(slog.DiscardHandler))
			out, err := io.ReadAll(pr)
			if err != nil || string(out) != program {
				t.Fatalf("program output %q %v", out, err)
			}
			gotAddr := ""
			select {
			case gotAddr = <-addrc:
			default:
			}
			if gotAddr != c.want {
				t.Fatalf("address %q, want %q", gotAddr, c.want)
			}
			if got != c.wantRan {
				t.Fatalf("the ruby that runs the program: %+v, want %+v", got, c.wantRan)
			}
		})
	}
}

// TestManagedGemPerOS: on macOS an rdbg in rbenv's or asdf's shims or in
// Homebrew's gem directories is found when PATH has none, and the program
// runs with the ruby installed beside it; Linux and Windows do not look
// there.
func TestManagedGemPerOS(t *testing.T) {
	for _, c := range []struct {
		name            string
		os              platform.OS
		env             map[string]string
		files           []string
		rdbg, ruby, why string
	}{
		{"rbenv", platform.Darwin, map[string]string{"HOME": "/Users/ann"},
			[]string{"/Users/ann/.rbenv/shims/rdbg", "/Users/ann/.rbenv/shims/ruby", "/Users/ann/.asdf/shims/rdbg"},
			"/Users/ann/.rbenv/shims/rdbg", "/Users/ann/.rbenv/shims/ruby", "rbenv's shims"},
		{"asdf root from env", platform.Darwin, map[string]string{"HOME": "/Users/ann", "ASDF_DATA_DIR": "/data/asdf"},
			[]string{"/data/asdf/shims/rdbg", "/data/asdf/shims/ruby"},
			"/data/asdf/shims/rdbg", "/data/asdf/shims/ruby", "asdf's shims"},
		{"Homebrew newest gems", platform.Darwin, map[string]string{"HOME": "/Users/ann"},
			[]string{"/opt/homebrew/lib/ruby/gems/3.3.0/bin/rdbg", "/opt/homebrew/lib/ruby/gems/3.4.0/bin/rdbg", "/opt/homebrew/opt/ruby/bin/ruby"},
			"/opt/homebrew/lib/ruby/gems/3.4.0/bin/rdbg", "/opt/homebrew/opt/ruby/bin/ruby", "Homebrew's ruby gems"},
		{"Intel Homebrew", platform.Darwin, nil,
			[]string{"/usr/local/lib/ruby/gems/3.3.0/bin/rdbg", "/usr/local/opt/ruby/bin/ruby"},
			"/usr/local/lib/ruby/gems/3.3.0/bin/rdbg", "/usr/local/opt/ruby/bin/ruby", "Homebrew's ruby gems"},
		{"linux leaves rbenv to PATH", platform.Linux, map[string]string{"HOME": "/home/ann"},
			[]string{"/home/ann/.rbenv/shims/rdbg"}, "", "", ""},
		{"windows", platform.Windows, map[string]string{"USERPROFILE": `C:\Users\ann`},
			[]string{`C:\Users\ann\.rbenv\shims\rdbg`}, "", "", ""},
	} {
		f := newFinder()
		f.machine = platformtest.Machine(c.os, c.env, nil, c.files...)
		g, ok := f.managedGem()
		if ok != (c.rdbg != "") || g.rdbg != c.rdbg || g.ruby != c.ruby || g.origin != c.why {
			t.Errorf("%s: %+v %v, want %s with %s (%s)", c.name, g, ok, c.rdbg, c.ruby, c.why)
			continue
		}
		if ok {
			ruby, why, err := programRuby(f.machine, &rdbg{path: g.rdbg, ownRuby: g.ruby})
			if err != nil || ruby != c.ruby || !strings.HasPrefix(why, "installed with") {
				t.Errorf("%s: program ruby %q (%s) %v", c.name, ruby, why, err)
			}
		}
	}
}

// TestRdbgBatOnWindows: RubyInstaller's gem executables are rdbg.bat,
// which PATHEXT makes the rdbg on PATH; a bare rdbg script is not a
// program there.
func TestRdbgBatOnWindows(t *testing.T) {
	m := platformtest.Machine(platform.Windows, map[string]string{"PATH": `C:\Ruby33-x64\bin`}, nil,
		`C:\Ruby33-x64\bin\rdbg`, `C:\Ruby33-x64\bin\rdbg.bat`, `C:\Ruby33-x64\bin\ruby.exe`)
	if p, err := m.LookPath("rdbg"); err != nil || p != `C:\Ruby33-x64\bin\rdbg.bat` {
		t.Errorf("rdbg on PATH: %q %v", p, err)
	}
	if m.IsExecutable(`C:\Ruby33-x64\bin\rdbg`) {
		t.Error("an extensionless script is not a Windows program: it must run through ruby")
	}
}

func TestInstallHintPerOS(t *testing.T) {
	for _, c := range []struct {
		os   platform.OS
		want string
	}{{platform.Linux, "apt-get install -y ruby"}, {platform.Darwin, "brew install ruby"}, {platform.Windows, "winget install RubyInstallerTeam"}} {
		f := newFinder()
		f.machine = platformtest.Machine(c.os, nil, nil)
		f.glob = func(string) ([]string, error) { return nil, nil }
		if av := (&Adapter{finder: f}).Check(context.Background()); av.Installed || !strings.HasPrefix(av.InstallHint, c.want) {
			t.Errorf("%s: %+v", c.os.Name, av)
		}
	}
}

// Attached with path mappings, rdbg is told the remote roots only (so that
// it serves files outside them); the agent's own mapping arguments, and a
// root its list cannot hold, keep what mapPaths decides.
func TestAttachTellsRdbgTheRemoteRoots(t *testing.T) {
	for _, c := range []struct {
		extra    map[string]any
		mappings []adapter.PathMapping
		want     map[string]any
	}{
		{nil, []adapter.PathMapping{{LocalRoot: "/src", RemoteRoot: "/app"}, {LocalRoot: "/lib", RemoteRoot: "/opt/lib"}}, map[string]any{"localfsMap": "/app:/app,/opt/lib:/opt/lib"}},
		{nil, nil, map[string]any{"localfs": true}},
		{map[string]any{"localfsMap": "/app:/src"}, []adapter.PathMapping{{LocalRoot: "/src", RemoteRoot: "/app"}}, map[string]any{"localfsMap": "/app:/src"}},
		{nil, []adapter.PathMapping{{LocalRoot: "/src", RemoteRoot: `C:\app`}}, map[string]any{"localfs": true}},
	} {
		args := map[string]any{}
		maps.Copy(args, c.extra)
		mapRemoteRoots(args, c.mappings)
		mapPaths(args)
		for _, k := range []string{"localfs", "localfsMap"} {
			if args[k] != c.want[k] {
				t.Errorf("mappings %v, extra %v: %s = %v, want %v", c.mappings, c.extra, k, args[k], c.want[k])
			}
		}
	}
}

// rdbg 1.9's REPL banner is its own chatter; a console line of anything
// else, and the program's own words, are kept.
func TestIsNoise(t *testing.T) {
	banner := "Ruby REPL: You can run any Ruby expression here.\nNote that output to the STDOUT/ERR printed on the TERMINAL.\n"
	for _, c := range []struct {
		category, text string
		noise          bool
	}{
		{"console", banner, true},
		{"stdout", banner, false},
		{"console", "undefined local variable or method `x'\n", false},
		{"stdout", "round 1\n", false},
	} {
		if got := isNoise(c.category, c.text); got != c.noise {
			t.Errorf("isNoise(%q, %q) = %v, want %v", c.category, c.text, got, c.noise)
		}
	}
}
