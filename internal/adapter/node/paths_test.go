package node

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/platform/platformtest"
)

// TestURLRegexPerOS: the pattern a breakpoint binds by matches the URL
// Node reports for the file in any case where the file system folds it
// (the agent's path and Node's differ in a drive letter's or a folder's
// case), and only the exact path on Linux.
func TestURLRegexPerOS(t *testing.T) {
	for _, c := range []struct {
		os            platform.OS
		path          string
		match, differ []string
	}{
		{platform.Linux, "/proj/app.js", []string{"file:///proj/app.js", "/proj/app.js"}, []string{"file:///PROJ/app.js", "file:///proj/app.jsx"}},
		{platform.Darwin, "/Users/ann/Proj/app.js", []string{"file:///Users/ann/Proj/app.js", "file:///users/ann/proj/App.js"}, []string{"file:///Users/ann/Proj/app.jsx"}},
		{platform.Windows, `C:\Users\ann\app.js`, []string{"file:///C:/Users/ann/app.js", "file:///c:/users/ann/app.js", `c:\users\ann\app.js`}, []string{"file:///D:/Users/ann/app.js", "/Users/ann/app.js"}},
	} {
		re := regexp.MustCompile(urlRegex(c.os, c.path))
		for _, u := range c.match {
			if !re.MatchString(u) {
				t.Errorf("%s: %s does not match %q", c.os.Name, re, u)
			}
		}
		for _, u := range c.differ {
			if re.MatchString(u) {
				t.Errorf("%s: %s matches %q", c.os.Name, re, u)
			}
		}
	}
}

// TestScriptPathsPerOS: a script's file: URL becomes the OS's path, and a
// source map's source is the breakpoint's file by the OS's comparison.
func TestScriptPathsPerOS(t *testing.T) {
	if p, ok := filePath(platform.Windows, "file:///C:/proj/dist/app.js"); !ok || p != `C:\proj\dist\app.js` {
		t.Errorf("Windows script path %q %v", p, ok)
	}
	if p, ok := filePath(platform.Linux, "file:///proj/dist/app.js"); !ok || p != "/proj/dist/app.js" {
		t.Errorf("Linux script path %q %v", p, ok)
	}
	srv := &server{os: platform.Windows}
	if !srv.os.IsAbs(`C:\proj\app.js`) || srv.os.IsAbs("node:internal/main") {
		t.Error("a bare Windows path is a script's path; an internal name is not")
	}
	sm := `{"version":3,"sources":["file:///Users/ann/Src/app.ts"],"mappings":"AAAA"}`
	for _, c := range []struct {
		os   platform.OS
		want int
	}{{platform.Darwin, 0}, {platform.Linux, -1}} {
		m, err := parseSourceMap(c.os, []byte(sm), "/Users/ann/dist")
		if err != nil {
			t.Fatal(err)
		}
		if got := m.sourceIndex("/Users/ann/src/app.ts"); got != c.want {
			t.Errorf("%s: source index %d, want %d", c.os.Name, got, c.want)
		}
	}
}

// TestFindNodePerOS: where node is found on each OS and what the launch
// says of it.
func TestFindNodePerOS(t *testing.T) {
	for _, c := range []struct {
		os    platform.OS
		env   map[string]string
		files []string
		want  string
	}{
		{platform.Linux, map[string]string{"PATH": "/usr/bin"}, []string{"/usr/bin/node"}, "node: /usr/bin/node (PATH)"},
		{platform.Darwin, map[string]string{"PATH": "/usr/bin"}, []string{"/opt/homebrew/bin/node"}, "node: /opt/homebrew/bin/node (installed, not on PATH)"},
		{platform.Windows, map[string]string{"PATH": `C:\Windows`}, []string{`C:\Program Files\nodejs\node.exe`}, `node: C:\Program Files\nodejs\node.exe (installed, not on PATH)`},
		{platform.Windows, map[string]string{"PATH": `C:\nvm4w\nodejs`}, []string{`C:\nvm4w\nodejs\node.exe`}, `node: C:\nvm4w\nodejs\node.exe (PATH)`},
	} {
		got, err := findNode(platformtest.Machine(c.os, c.env, nil, c.files...), "")
		if err != nil || got.line() != c.want {
			t.Errorf("%s: %q %v, want %q", c.os.Name, got.line(), err, c.want)
		}
	}
	if _, err := findNode(platformtest.Machine(platform.Linux, map[string]string{"PATH": "/usr/bin"}, nil, "/usr/local/bin/node"), ""); err == nil {
		t.Error("Linux finds node on PATH only, as before")
	}
}

func TestInstallHintPerOS(t *testing.T) {
	for _, c := range []struct {
		os   platform.OS
		want string
	}{{platform.Linux, "apt-get install nodejs"}, {platform.Darwin, "brew install node"}, {platform.Windows, "winget install OpenJS.NodeJS"}} {
		a := &Adapter{machine: platformtest.Machine(c.os, nil, nil)}
		if av := a.Check(context.Background()); av.Installed || !strings.HasPrefix(av.InstallHint, c.want) {
			t.Errorf("%s: %+v", c.os.Name, av)
		}
	}
}
