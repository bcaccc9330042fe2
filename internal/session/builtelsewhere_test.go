package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The roots to map are what is left of both paths once their common tail
// is cut off, whether the build's path is absolute or trimmed.
func TestSplitRoots(t *testing.T) {
	for _, c := range []struct{ file, built, local, remote string }{
		{"/b/src/prog.c", "/a/src/prog.c", "/b", "/a"},
		{"/home/me/loop/main.go", "example.com/loop/main.go", "/home/me", "example.com"},
		{"/home/me/copy/main.go", "example.com/loop/main.go", "/home/me/copy", "example.com/loop"},
		{"/b/prog.c", "/prog.c", "/b", "/"},
	} {
		if local, remote := splitRoots(c.file, c.built); local != c.local || remote != c.remote {
			t.Errorf("splitRoots(%s, %s) = %s, %s; want %s, %s", c.file, c.built, local, remote, c.local, c.remote)
		}
	}
}

// A file the build names as it is needs nothing; one it names elsewhere
// is mapped when its lines of code agree with the binary's, and explained
// when they do not; a file the binary does not name at all (a shared
// library's) is left alone.
func TestMatchBuildPaths(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	same := write("b/prog.c", "int main(void) {\n\treturn 0;\n}\n")
	edited := write("c/util.c", "\n\nint f(void) { return 1; }\n")
	here := write("d/here.c", "int x;\n")
	lib := write("e/lib.c", "int y;\n")
	b := matchBuildPaths([]string{same, edited, here, lib}, map[string][]int{
		"/gone/prog.c": {1, 2, 3},
		"/gone/util.c": {1},
		here:           {1},
		filepath.Join(dir, "e", "..", "d", "here.c"): {1},
	})
	if len(b.mappings) != 1 || b.mappings[0].LocalRoot != filepath.Join(dir, "b") || b.mappings[0].RemoteRoot != "/gone" {
		t.Errorf("mappings = %v, want %s to /gone", b.mappings, filepath.Join(dir, "b"))
	}
	if why := b.unmatched[edited]; !strings.Contains(why, "expects /gone/util.c") || !strings.Contains(why, "line 1, blank in yours") {
		t.Errorf("the edited file's note: %q", why)
	}
	if len(b.unmatched) != 1 {
		t.Errorf("only the edited file is explained: %v", b.unmatched)
	}
}
