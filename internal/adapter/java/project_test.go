package java

import (
	"os"
	"path/filepath"
	"testing"
)

// The runtime line shows a project's class path relative to its root,
// with a folder of several jars as folder/*.jar.
func TestShowClassPathGroupsAFolderOfJars(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"pom.xml", "target/dependency/a.jar", "target/dependency/b.jar"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "target", "classes"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := findProject(filepath.Join(root, "target"))
	if p == nil || p.layout != "Maven" {
		t.Fatalf("the pom.xml above makes a Maven project: %+v", p)
	}
	cp := append(p.classPath(false), "/usr/share/java/x.jar")
	if got, want := p.showClassPath(cp), "target/classes:target/dependency/*.jar:/usr/share/java/x.jar"; got != want {
		t.Errorf("showClassPath = %q, want %q", got, want)
	}
}
