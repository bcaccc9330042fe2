package java

import (
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// project is the Maven or Gradle project a program belongs to, as its
// build left it on disk: the class path is read from the build's output
// folders, never by running the build tool.
type project struct {
	root string
	// layout is "Maven" or "Gradle".
	layout string
	// build is the command that compiles the project's classes.
	build string
	// sourceRoots, classDirs: main code; testSourceRoots, testClassDirs:
	// the tests'. Class dirs are those the build would write, present or
	// not.
	sourceRoots, classDirs         []string
	testSourceRoots, testClassDirs []string
	// deps are the dependency jars found, and depsFrom where.
	deps     []string
	depsFrom string
}

// buildFiles name a project's root, in the order looked for.
var buildFiles = []struct{ file, layout string }{
	{"pom.xml", "Maven"},
	{"build.gradle", "Gradle"},
	{"build.gradle.kts", "Gradle"},
	{"settings.gradle", "Gradle"},
	{"settings.gradle.kts", "Gradle"},
}

// findProject finds the project holding dir: the nearest directory at or
// above it with a build file; nil when there is none.
func findProject(dir string) *project {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		for _, b := range buildFiles {
			if isFile(filepath.Join(d, b.file)) {
				return newProject(d, b.layout)
			}
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

func newProject(root, layout string) *project {
	p := &project{root: root, layout: layout}
	join := func(rels ...string) []string {
		out := make([]string, len(rels))
		for i, r := range rels {
			out[i] = filepath.Join(root, filepath.FromSlash(r))
		}
		return out
	}
	p.sourceRoots = join("src/main/java", "src/main/kotlin", "src/main/scala")
	p.testSourceRoots = join("src/test/java", "src/test/kotlin", "src/test/scala")
	if layout == "Maven" {
		p.build = "mvn -o -q compile test-compile (and mvn dependency:copy-dependencies for the jars)"
		p.classDirs = join("target/classes")
		p.testClassDirs = join("target/test-classes")
	} else {
		p.build = "gradle classes testClasses"
		p.classDirs = join("build/classes/java/main", "build/classes/kotlin/main", "build/resources/main")
		p.testClassDirs = join("build/classes/java/test", "build/classes/kotlin/test", "build/resources/test")
	}
	p.deps, p.depsFrom = findDependencies(root)
	return p
}

// findDependencies finds the jars a build put where a class path can be
// read from: target/dependency (mvn dependency:copy-dependencies), else a
// .classpath file, either Eclipse's (written by m2e or Gradle's eclipse
// plugin) or a plain class path (mvn dependency:build-classpath
// -Dmdep.outputFile=.classpath).
func findDependencies(root string) ([]string, string) {
	if jars, _ := filepath.Glob(filepath.Join(root, "target", "dependency", "*.jar")); len(jars) > 0 {
		return jars, "target/dependency"
	}
	b, err := os.ReadFile(filepath.Join(root, ".classpath"))
	if err != nil {
		return nil, ""
	}
	var entries []string
	if text := strings.TrimSpace(string(b)); strings.HasPrefix(text, "<") {
		entries = eclipseLibraries(b)
	} else {
		entries = filepath.SplitList(text)
	}
	var jars []string
	for _, e := range entries {
		if !filepath.IsAbs(e) {
			e = filepath.Join(root, e)
		}
		if _, err := os.Stat(e); err == nil {
			jars = append(jars, e)
		}
	}
	return jars, ".classpath"
}

// eclipseLibraries reads the library entries of an Eclipse .classpath.
func eclipseLibraries(b []byte) []string {
	var doc struct {
		Entries []struct {
			Kind string `xml:"kind,attr"`
			Path string `xml:"path,attr"`
		} `xml:"classpathentry"`
	}
	if xml.Unmarshal(b, &doc) != nil {
		return nil
	}
	var libs []string
	for _, e := range doc.Entries {
		if e.Kind == "lib" {
			libs = append(libs, e.Path)
		}
	}
	return libs
}

// classPath is the class path of the main code, or with tests of the
// tests too: the class dirs that exist, then the dependency jars.
func (p *project) classPath(tests bool) []string {
	dirs := p.classDirs
	if tests {
		dirs = append(append([]string(nil), p.testClassDirs...), dirs...)
	}
	var cp []string
	for _, d := range dirs {
		if isDir(d) {
			cp = append(cp, d)
		}
	}
	return append(cp, p.deps...)
}

// sourceRootOf returns the source root holding src and whether it holds
// tests; "" when src is in none.
func (p *project) sourceRootOf(src string) (string, bool) {
	for i, roots := range [][]string{p.sourceRoots, p.testSourceRoots} {
		for _, r := range roots {
			if strings.HasPrefix(src, r+string(filepath.Separator)) {
				return r, i == 1
			}
		}
	}
	return "", false
}

// classOfSource names the class a source file declares by its package
// line and file name ("com.example.App").
func classOfSource(src string) string {
	name := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
	if pkg := packageOf(src); pkg != "" {
		return pkg + "." + name
	}
	return name
}

// builtClass checks that class, compiled from src, is in one of dirs and
// not older than src. It reports whether any of dirs exists (the project
// was built at all); a missing or stale class of a built project is an
// error that says how to build: the agent builds, we debug.
func (p *project) builtClass(src, class string, dirs []string) (bool, error) {
	srcInfo, err := os.Stat(src)
	if err != nil {
		return false, fmt.Errorf("read %s: %w", src, err)
	}
	rel := filepath.FromSlash(strings.ReplaceAll(class, ".", "/")) + ".class"
	built := false
	for _, d := range dirs {
		if !isDir(d) {
			continue
		}
		built = true
		st, err := os.Stat(filepath.Join(d, rel))
		if err != nil {
			continue
		}
		if st.ModTime().Before(srcInfo.ModTime()) {
			return true, fmt.Errorf("%s is older than %s: build the project (%s in %s) and start again",
				filepath.Join(d, rel), src, p.build, p.root)
		}
		return true, nil
	}
	if !built {
		return false, nil
	}
	return true, fmt.Errorf("no %s in %s: build the project (%s in %s) and start again",
		rel, p.showClassPath(dirs), p.build, p.root)
}

// sourcesUnder lists the source files of a source root, for compiling it
// whole (the class a file declares needs its neighbours).
func sourcesUnder(root string) ([]string, error) {
	var srcs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".java") {
			srcs = append(srcs, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the sources under %s: %w", root, err)
	}
	return srcs, nil
}

// rel shows a path relative to the project's root when it is inside.
func (p *project) rel(path string) string {
	if r, err := filepath.Rel(p.root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// showClassPath is a class path as the runtime line shows it: relative to
// the project's root, with several jars of one folder as folder/*.jar.
func (p *project) showClassPath(cp []string) string {
	var parts []string
	for i := 0; i < len(cp); {
		j := i + 1
		dir := filepath.Dir(cp[i])
		for j < len(cp) && strings.HasSuffix(cp[j], ".jar") && filepath.Dir(cp[j]) == dir {
			j++
		}
		if j-i > 1 && strings.HasSuffix(cp[i], ".jar") {
			parts = append(parts, p.rel(filepath.Join(dir, "*.jar")))
		} else {
			j = i + 1
			parts = append(parts, p.rel(cp[i]))
		}
		i = j
	}
	return strings.Join(parts, string(os.PathListSeparator))
}

// dependencyNote says where the dependency jars came from, for the
// runtime line.
func (p *project) dependencyNote() string {
	if p.depsFrom == "" {
		return "no dependency jars found in target/dependency or .classpath"
	}
	return fmt.Sprintf("%d dependency jar(s) from %s", len(p.deps), p.depsFrom)
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
