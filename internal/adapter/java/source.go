package java

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// sourceMap finds the source file of a class: its package directory and
// SourceFile attribute under each source root. Roots are the launch's
// sourcePaths, the working directory and its usual source folders (main
// and test), the program's and class paths' directories, and the root of
// every file a breakpoint was set in. Kotlin does not tie directories to packages: a
// file a breakpoint was set in is known by its package and name wherever
// it is, and a root's own files declaring the package are tried after its
// package directory.
type sourceMap struct {
	mu    sync.Mutex
	roots []string
	found map[string]string // "pkg/dir/File.java" -> path ("" when absent)
	files map[string]string // the same keys, for files breakpoints were set in
}

func newSourceMap(lc *launchConfig) *sourceMap {
	m := &sourceMap{found: map[string]string{}, files: map[string]string{}}
	for _, p := range lc.SourcePaths {
		m.addRoot(p)
	}
	if lc.Cwd != "" {
		for _, sub := range []string{"", "src", "src/main/java", "src/main/kotlin", "src/main/scala", "src/test/java", "src/test/kotlin", "src/test/scala"} {
			m.addRoot(filepath.Join(lc.Cwd, sub))
		}
	}
	if lc.Program != "" {
		m.addRoot(filepath.Dir(lc.Program))
	}
	for _, cp := range lc.ClassPaths {
		m.addRoot(cp)
	}
	return m
}

func (m *sourceMap) addRoot(dir string) {
	if dir == "" {
		return
	}
	dir = filepath.Clean(dir)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.roots {
		if r == dir {
			return
		}
	}
	m.roots = append(m.roots, dir)
	// A new root may hold what was missing.
	for k, v := range m.found {
		if v == "" {
			delete(m.found, k)
		}
	}
}

// addFile adds a source file of a package, and its root.
func (m *sourceMap) addFile(path, pkg string) {
	m.mu.Lock()
	m.files[sourceKey(pkg, filepath.Base(path))] = path
	m.mu.Unlock()
	dir := filepath.Dir(path)
	if pkg != "" {
		rel := filepath.FromSlash(strings.ReplaceAll(pkg, ".", "/"))
		if !strings.HasSuffix(dir, string(filepath.Separator)+rel) {
			m.addRoot(dir)
			return
		}
		dir = strings.TrimSuffix(dir, string(filepath.Separator)+rel)
	}
	m.addRoot(dir)
}

// find returns the path of a class's source, or "".
func (m *sourceMap) find(className, sourceFile string) string {
	if sourceFile == "" {
		return ""
	}
	pkg := ""
	if i := strings.LastIndexByte(className, '.'); i >= 0 {
		pkg = className[:i]
	}
	pkgDir := strings.ReplaceAll(pkg, ".", "/")
	key := sourceKey(pkg, sourceFile)
	m.mu.Lock()
	if p, ok := m.files[key]; ok {
		m.mu.Unlock()
		return p
	}
	if p, ok := m.found[key]; ok {
		m.mu.Unlock()
		return p
	}
	roots := append([]string(nil), m.roots...)
	m.mu.Unlock()
	found := ""
	dirs := []string{filepath.FromSlash(pkgDir)}
	if pkgDir != "" {
		dirs = append(dirs, "")
	}
	for _, d := range dirs {
		for _, r := range roots {
			p := filepath.Join(r, d, sourceFile)
			if st, err := os.Stat(p); err != nil || st.IsDir() {
				continue
			}
			// Outside its package directory, a file must say it is of
			// the package.
			if d == "" && pkg != "" && packageOf(p) != pkg {
				continue
			}
			found = p
			break
		}
		if found != "" {
			break
		}
	}
	m.mu.Lock()
	m.found[key] = found
	m.mu.Unlock()
	return found
}

// sourceKey names a source file by package and file name: "pkg/dir/File.java".
func sourceKey(pkg, file string) string {
	return strings.ReplaceAll(pkg, ".", "/") + "/" + file
}
