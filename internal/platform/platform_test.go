package platform_test

import (
	"context"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/platform/platformtest"
)

func TestSamePathPerOS(t *testing.T) {
	for _, c := range []struct {
		os   platform.OS
		a, b string
		same bool
	}{
		{platform.Linux, "/home/a/x.go", "/home/a/./x.go", true},
		{platform.Linux, "/home/a/X.go", "/home/a/x.go", false},
		{platform.Linux, `/home/a\x.go`, "/home/a/x.go", false},
		{platform.Darwin, "/Users/a/Proj/x.go", "/users/a/proj/X.go", true},
		{platform.Darwin, "/Users/a/proj/../x.go", "/Users/a/x.go", true},
		{platform.Darwin, "/Users/a/x.go", "/Users/b/x.go", false},
		{platform.Windows, `C:\Users\a\x.go`, "c:/users/a/X.go", true},
		{platform.Windows, `C:\Users\a\x.go`, `C:\Users\a\sub\..\x.go`, true},
		{platform.Windows, `C:\Users\a\x.go`, `D:\Users\a\x.go`, false},
		{platform.Windows, `\\srv\share\x.js`, "//SRV/share/x.js", true},
	} {
		if got := c.os.SamePath(c.a, c.b); got != c.same {
			t.Errorf("%s: SamePath(%q, %q) = %v, want %v", c.os.Name, c.a, c.b, got, c.same)
		}
	}
}

func TestFileURLBothWays(t *testing.T) {
	for _, c := range []struct {
		os        platform.OS
		path, url string
	}{
		{platform.Linux, "/home/a/my app/x.js", "file:///home/a/my%20app/x.js"},
		{platform.Darwin, "/Users/a/x.js", "file:///Users/a/x.js"},
		{platform.Windows, `C:\Users\a\my app\x.js`, "file:///C:/Users/a/my%20app/x.js"},
		{platform.Windows, `\\srv\share\x.js`, "file://srv/share/x.js"},
	} {
		if got := c.os.FileURL(c.path); got != c.url {
			t.Errorf("%s: FileURL(%q) = %q, want %q", c.os.Name, c.path, got, c.url)
		}
		if got, ok := c.os.PathFromURL(c.url); !ok || got != c.path {
			t.Errorf("%s: PathFromURL(%q) = %q %v, want %q", c.os.Name, c.url, got, ok, c.path)
		}
	}
	if _, ok := platform.Windows.PathFromURL("node:internal/main"); ok {
		t.Error("a node: URL is not a file")
	}
}

func TestJoinAndListPerOS(t *testing.T) {
	if got := platform.Windows.Join(`C:\Users\a`, "go", "bin", "dlv.exe"); got != `C:\Users\a\go\bin\dlv.exe` {
		t.Errorf("Windows Join = %q", got)
	}
	if got := platform.Linux.Join("/home/a", "go", "bin", "dlv"); got != "/home/a/go/bin/dlv" {
		t.Errorf("Linux Join = %q", got)
	}
	if got := platform.Windows.SplitList(`C:\Go\bin;;"C:\Program Files\LLVM\bin"`); len(got) != 2 || got[1] != `C:\Program Files\LLVM\bin` {
		t.Errorf("Windows SplitList = %q", got)
	}
	if !platform.Windows.IsAbs(`c:\x`) || platform.Windows.IsAbs(`x\y`) || !platform.Linux.IsAbs("/x") {
		t.Error("IsAbs")
	}
}

func TestLookPathPerOS(t *testing.T) {
	win := platformtest.Machine(platform.Windows, map[string]string{"PATH": `C:\Tools;C:\Go\bin`, "PATHEXT": ".COM;.EXE;.BAT"}, nil,
		`C:\Go\bin\dlv.exe`, `C:\Tools\dlv`, `C:\Ruby33\bin\rdbg.bat`)
	if got, err := win.LookPath("dlv"); err != nil || got != `C:\Go\bin\dlv.exe` {
		t.Errorf("Windows: dlv = %q %v; an extensionless file is not a program there", got, err)
	}
	if got, err := win.LookPath(`C:\Ruby33\bin\rdbg`); err != nil || got != `C:\Ruby33\bin\rdbg.bat` {
		t.Errorf("Windows: rdbg = %q %v", got, err)
	}
	if got, err := win.LookPath("DLV.EXE"); err != nil || got != `C:\Go\bin\DLV.EXE` {
		t.Errorf("Windows names fold: %q %v", got, err)
	}
	mac := platformtest.Machine(platform.Darwin, map[string]string{"PATH": "/opt/homebrew/bin:/usr/bin"}, map[string]string{"xcrun -f lldb-dap": "/x/lldb-dap"},
		"/usr/bin/dlv.exe", "/usr/bin/dlv")
	if got, err := mac.LookPath("dlv"); err != nil || got != "/usr/bin/dlv" {
		t.Errorf("macOS: dlv = %q %v", got, err)
	}
	if out, err := mac.Run(context.Background(), "xcrun", "-f", "lldb-dap"); err != nil || out != "/x/lldb-dap" {
		t.Errorf("fake command: %q %v", out, err)
	}
}
