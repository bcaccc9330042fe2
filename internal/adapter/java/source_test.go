package java

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSourceMapFindsKotlinFilesOutsideTheirPackageDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package demo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	greet := write("kt/Greet.kt")
	flat := write("flat/Other.kt")
	java := write("src/com/example/App.java")

	m := newSourceMap(&launchConfig{SourcePaths: []string{filepath.Join(dir, "flat"), filepath.Join(dir, "src")}})
	m.addFile(greet, "demo")
	for _, c := range []struct{ class, file, want string }{
		{"demo.GreetKt", "Greet.kt", greet},   // a breakpoint's file, wherever it is
		{"demo.OtherKt", "Other.kt", flat},    // a root's own file, after its package directory
		{"com.example.App", "App.java", java}, // the package directory under a root
		{"com.example.Gone", "Gone.java", ""}, // nowhere
		{"other.GreetKt", "Greet.kt", ""},     // same name, another package, not under any root
	} {
		if got := m.find(c.class, c.file); got != c.want {
			t.Errorf("find(%s, %s) = %q, want %q", c.class, c.file, got, c.want)
		}
	}
}
