package lldb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// projectBuildFiles are the files that say a C or C++ source is built by
// its project, not alone: mcp-debugger compiles only lone files, and
// debugs what a project's own build produced.
var projectBuildFiles = []string{"Makefile", "makefile", "GNUmakefile", "CMakeLists.txt"}

// projectBuildFile is the nearest build file at or above the source's
// directory, up to the project's root (a directory holding .git); "" when
// there is none.
func projectBuildFile(source string) string {
	for d := filepath.Dir(source); ; {
		for _, name := range projectBuildFiles {
			if p := filepath.Join(d, name); isFile(p) {
				return p
			}
		}
		parent := filepath.Dir(d)
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil || parent == d {
			return ""
		}
		d = parent
	}
}

// withProjectHint adds, to the failed build of a lone file that belongs to
// a Makefile or CMake project (typically: undefined references to its
// other files), what to do instead.
func withProjectHint(err error, source string) error {
	var be *adapter.BuildError
	build := projectBuildFile(source)
	if build == "" || !errors.As(err, &be) {
		return err
	}
	return fmt.Errorf("%w\n%s is part of a project built by %s: build it with that (the agent builds, mcp-debugger debugs) and pass the built binary as scriptPath", err, filepath.Base(source), build)
}

// cargoRuntime says which package, binary and workspace cargo built:
// "rust: cargo package app (bin app), workspace /p".
func cargoRuntime(pkg, bin, workspace string) string {
	return fmt.Sprintf("rust: cargo package %s (bin %s), workspace %s", pkg, bin, workspace)
}
