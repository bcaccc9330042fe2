package java

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// sourceMap finds the source file of a class: its package directory and
// SourceFile attribute under each source root. Roots are the launch's
// sourcePaths, the working directory and its usual source folders, the
// program's and class paths' directories, and the root of every file a
// breakpoint was set in.
type sourceMap struct {
	mu    sync.Mutex
	roots []string
	found map[string]string // "pkg/dir/File.java" -> path ("" when absent)
}

func newSourceMap(lc *launchConfig) *sourceMap {
	m := &sourceMap{found: map[string]string{}}
	for _, p := range lc.SourcePaths {
		m.addRoot(p)
	}
	if lc.Cwd != "" {
		for _, sub := range []string{"", "src", "src/main/java", "src/main/kotlin", "src/main/scala"} {
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

// addFile adds the root of a source file of a package.
func (m *sourceMap) addFile(path, pkg string) {
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
	pkgDir := ""
	if i := strings.LastIndexByte(className, '.'); i >= 0 {
		pkgDir = strings.ReplaceAll(className[:i], ".", "/")
	}
	key := pkgDir + "/" + sourceFile
	m.mu.Lock()
	if p, ok := m.found[key]; ok {
		m.mu.Unlock()
		return p
	}
	roots := append([]string(nil), m.roots...)
	m.mu.Unlock()
	found := ""
	for _, r := range roots {
		p := filepath.Join(r, filepath.FromSlash(pkgDir), sourceFile)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			found = p
			break
		}
	}
	m.mu.Lock()
	m.found[key] = found
	m.mu.Unlock()
	return found
}
