package golang

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

// fakeDlv writes a script that answers `dlv version` like Delve.
func fakeDlv(t *testing.T, dir, version string) string {
	t.Helper()
	p := filepath.Join(dir, "dlv")
	script := "#!/bin/sh\necho 'Delve Debugger'\necho 'Version: " + version + "'\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// isolated is a finder that sees only env and a home without dlv.
func isolated(t *testing.T, env map[string]string) *finder {
	f := newFinder()
	if _, ok := env["HOME"]; !ok {
		env["HOME"] = t.TempDir()
	}
	f.machine.Getenv = func(k string) string { return env[k] }
	return f
}

func TestFindPrefersDLVPath(t *testing.T) {
	onPath := fakeDlv(t, t.TempDir(), "1.0.0")
	chosen := fakeDlv(t, t.TempDir(), "9.9.9")
	f := isolated(t, map[string]string{"PATH": filepath.Dir(onPath), dlvPathEnv: chosen})
	got, err := f.find(context.Background(), "")
	if err != nil || got.path != chosen || got.version != "9.9.9" {
		t.Fatalf("find = %+v, %v; want %s 9.9.9", got, err, chosen)
	}
	explicit := fakeDlv(t, t.TempDir(), "2.0.0")
	if got, err := f.find(context.Background(), explicit); err != nil || got.path != explicit {
		t.Fatalf("executablePath should win: %+v, %v", got, err)
	}
}

func TestFindSearchOrder(t *testing.T) {
	gobin, gopath, onPath := t.TempDir(), t.TempDir(), t.TempDir()
	fakeDlv(t, onPath, "1.0.0")
	os.MkdirAll(filepath.Join(gopath, "bin"), 0o755)
	inGopath := fakeDlv(t, filepath.Join(gopath, "bin"), "1.1.0")
	env := map[string]string{"PATH": onPath, "GOPATH": gopath}
	if got, _ := isolated(t, env).find(context.Background(), ""); got == nil || got.path != inGopath {
		t.Fatalf("$GOPATH/bin should come before PATH: %+v", got)
	}
	env["GOBIN"] = gobin
	inGobin := fakeDlv(t, gobin, "1.2.0")
	if got, _ := isolated(t, env).find(context.Background(), ""); got == nil || got.path != inGobin {
		t.Fatalf("$GOBIN should come first: %+v", got)
	}
}

func TestFindMissing(t *testing.T) {
	a := &Adapter{finder: isolated(t, map[string]string{"PATH": t.TempDir()})}
	av := a.Check(context.Background())
	if av.Installed || av.InstallHint != installHint || !strings.Contains(av.Reason, "not found") || !av.Attach.Available {
		t.Fatalf("availability without dlv: %+v", av)
	}
	_, err := a.Launch(context.Background(), adapter.LaunchConfig{Program: t.TempDir()})
	ue, ok := err.(*adapter.UnavailableError)
	if !ok || !strings.Contains(ue.Error(), "go debugging is not available: dlv (Delve) not found") ||
		!strings.Contains(ue.Error(), "install with: go install github.com/go-delve/delve/cmd/dlv@latest") {
		t.Fatalf("launch without dlv: %v", err)
	}
	bad := isolated(t, map[string]string{dlvPathEnv: "/no/such/dlv"})
	if _, err := bad.find(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "DLV_PATH") {
		t.Fatalf("a wrong DLV_PATH must be reported, not replaced: %v", err)
	}
}

func TestParseVersionAndAddress(t *testing.T) {
	if v := parseVersion("Delve Debugger\nVersion: 1.27.2\nBuild: $Id: x $\n"); v != "1.27.2" {
		t.Errorf("parseVersion = %q", v)
	}
	if a, ok := parseListening("DAP server listening at: 127.0.0.1:40203\n", listeningPrefix); !ok || a != "127.0.0.1:40203" {
		t.Errorf("parseListening = %q %v", a, ok)
	}
	if _, ok := parseListening("Type 'dlv help'\n", listeningPrefix); ok {
		t.Error("parseListening accepted another line")
	}
}

// TestLocatePerOS: where dlv is found on each OS, in order, on a fake
// machine: GOPATH's bin, then go install's default under the home
// directory, then PATH; on Windows only dlv.exe is a program.
func TestLocatePerOS(t *testing.T) {
	for _, c := range []struct {
		name  string
		os    platform.OS
		env   map[string]string
		files []string
		want  string
	}{
		{"linux home", platform.Linux, map[string]string{"HOME": "/home/ann", "PATH": "/usr/bin"},
			[]string{"/home/ann/go/bin/dlv", "/usr/bin/dlv"}, "/home/ann/go/bin/dlv"},
		{"macOS Homebrew on PATH", platform.Darwin, map[string]string{"HOME": "/Users/ann", "PATH": "/opt/homebrew/bin:/usr/bin"},
			[]string{"/opt/homebrew/bin/dlv"}, "/opt/homebrew/bin/dlv"},
		{"windows userprofile", platform.Windows, map[string]string{"USERPROFILE": `C:\Users\ann`, "PATH": `C:\Tools`},
			[]string{`C:\Users\ann\go\bin\dlv.exe`, `C:\Tools\dlv.exe`}, `C:\Users\ann\go\bin\dlv.exe`},
		{"windows gopath list", platform.Windows, map[string]string{"USERPROFILE": `C:\Users\ann`, "GOPATH": `D:\a;E:\b`},
			[]string{`D:\a\bin\dlv`, `E:\b\bin\dlv.exe`, `C:\Users\ann\go\bin\dlv.exe`}, `E:\b\bin\dlv.exe`},
		{"windows PATH", platform.Windows, map[string]string{"USERPROFILE": `C:\Users\ann`, "PATH": `C:\Program Files\Go\bin;C:\Tools`},
			[]string{`C:\Tools\dlv.exe`}, `C:\Tools\dlv.exe`},
	} {
		f := &finder{machine: platformtest.Machine(c.os, c.env, nil, c.files...)}
		got, looked, err := f.locate("")
		if err != nil || got.path != c.want {
			t.Errorf("%s: found %q (%v), want %q; looked in %q", c.name, got.path, err, c.want, looked)
		}
	}
	win := &finder{machine: platformtest.Machine(platform.Windows, map[string]string{dlvPathEnv: `C:\dbg\dlv`}, nil, `C:\dbg\dlv.exe`)}
	if got, _, err := win.locate(""); err != nil || got.path != `C:\dbg\dlv.exe` {
		t.Errorf("DLV_PATH without .exe on Windows: %q %v", got.path, err)
	}
}
