package ruby

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
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
	f.getenv = func(k string) string { return env[k] }
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
	if av.Installed || av.InstallHint != installHint || !strings.Contains(av.Reason, "not found") || !av.Attach.Available {
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
	if v := parseVersion("rdbg 1.4.0\n"); v != "1.4.0" {
		t.Errorf("parseVersion = %q", v)
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
