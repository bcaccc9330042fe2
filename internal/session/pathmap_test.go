package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPathMapLongestRootWinsAtComponentBoundaries(t *testing.T) {
	local := t.TempDir()
	lib := filepath.Join(local, "vendor")
	m := newPathMap([]PathMapping{
		{LocalRoot: local, RemoteRoot: "/app/"},
		{LocalRoot: lib, RemoteRoot: "/opt/lib"},
		{LocalRoot: filepath.Join(local, "deep"), RemoteRoot: "/app/src/deep"},
	})
	for _, c := range []struct{ remote, local string }{
		{"/app/main.py", filepath.Join(local, "main.py")},
		{"/app", local},
		{"/app/src/deep/x.py", filepath.Join(local, "deep", "x.py")},
		{"/opt/lib/m.py", filepath.Join(lib, "m.py")},
	} {
		got, ok := m.toLocal(c.remote)
		if !ok || got != c.local {
			t.Errorf("toLocal(%q) = %q, %v; want %q", c.remote, got, ok, c.local)
		}
		if back := m.toRemote(c.local); back != c.remote {
			t.Errorf("toRemote(%q) = %q; want %q", c.local, back, c.remote)
		}
	}
	for _, outside := range []string{"/apple/main.py", "/opt/library/x.py", "/usr/lib/python3/os.py"} {
		if got, ok := m.toLocal(outside); ok || got != outside {
			t.Errorf("toLocal(%q) = %q, %v: a root matches only whole path components", outside, got, ok)
		}
	}
	if got := m.toRemote(local + "ple/x.py"); got != local+"ple/x.py" {
		t.Errorf("toRemote of a sibling sharing the root's prefix = %q", got)
	}
}

func TestPathMapWindowsRemoteRoots(t *testing.T) {
	local := t.TempDir()
	m := newPathMap([]PathMapping{{LocalRoot: local, RemoteRoot: `C:\app`}})
	if got, ok := m.toLocal(`c:/App/pkg\mod.py`); !ok || got != filepath.Join(local, "pkg", "mod.py") {
		t.Errorf("a Windows root matches either separator and any case: %q %v", got, ok)
	}
	if got := m.toRemote(filepath.Join(local, "pkg", "mod.py")); got != `C:\app\pkg\mod.py` {
		t.Errorf("toRemote into a Windows root = %q", got)
	}
}

func TestCheckPathMappingsWantsAbsoluteRemoteRoots(t *testing.T) {
	for _, bad := range [][]PathMapping{{{LocalRoot: "x", RemoteRoot: "app"}}, {{LocalRoot: "", RemoteRoot: "/app"}}, {{LocalRoot: "x"}}} {
		if err := CheckPathMappings(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	for _, good := range []string{"/app", `C:\app`, "D:/src", `\\host\share`} {
		if err := CheckPathMappings([]PathMapping{{LocalRoot: "x", RemoteRoot: good}}); err != nil {
			t.Errorf("%s refused: %v", good, err)
		}
	}
}

// A launch whose program reports other paths than the agent's (a binary
// built elsewhere): breakpoints go out with the program's paths, frames
// come back with the agent's where it has the file, and stay the
// program's where it has not.
func TestPathMapTranslatesMessagesBothWays(t *testing.T) {
	local := t.TempDir()
	if err := os.WriteFile(filepath.Join(local, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newPathMap([]PathMapping{{LocalRoot: local, RemoteRoot: "/build/src"}})
	out := string(m.translate([]byte(`{"seq":3,"type":"request","command":"setBreakpoints","arguments":{"source":{"path":"`+filepath.Join(local, "main.go")+`"},"breakpoints":[{"line":7}]}}`), true))
	if !strings.Contains(out, `"path":"/build/src/main.go"`) || !strings.Contains(out, `"line":7`) {
		t.Errorf("setBreakpoints going out: %s", out)
	}
	in := string(m.translate([]byte(`{"seq":9,"type":"response","command":"stackTrace","success":true,"body":{"stackFrames":[`+
		`{"id":1,"name":"main.main","line":7,"source":{"path":"/build/src/main.go"}},`+
		`{"id":2,"name":"main.helper","line":3,"source":{"path":"/build/src/gen.go","sourceReference":0}},`+
		`{"id":3,"name":"runtime.main","line":283,"source":{"path":"/usr/local/go/src/runtime/proc.go"}}],"totalFrames":3}}`), false))
	for _, want := range []string{`"path":"` + filepath.Join(local, "main.go") + `"`, `"path":"/build/src/gen.go"`, `"path":"/usr/local/go/src/runtime/proc.go"`} {
		if !strings.Contains(in, want) {
			t.Errorf("stackTrace coming back lacks %s: %s", want, in)
		}
	}
	trace := string(m.translate([]byte(`{"type":"response","command":"exceptionInfo","body":{"details":{"stackTrace":"File \"/build/src/main.go\", line 7"}}}`), false))
	if !strings.Contains(trace, filepath.Join(local, "main.go")) {
		t.Errorf("an exception's stack trace text comes back local: %s", trace)
	}
	plain := []byte(`{"type":"event","event":"output","body":{"output":"hi"}}`)
	if got := m.translate(plain, false); !bytes.Equal(got, plain) {
		t.Errorf("a message without paths changed: %s", got)
	}
}
