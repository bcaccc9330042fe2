package golang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// functionNamer qualifies a plain function name ("weigh") with its package
// ("main.weigh"), which Delve's function breakpoints need, when exactly one
// top-level function of the debugged package has that name. Other names
// (already qualified, methods, ambiguous or unknown ones) go to Delve as
// given, so its own error reaches the agent.
// docs/adapter-quirks.md: delve-10.
func functionNamer(mode, program string) func(string) string {
	if mode == modeExec {
		return nil
	}
	dir := packageDir(program)
	withTests := mode == modeTest
	return func(name string) string {
		if name == "" || strings.ContainsAny(name, ".:/ ") {
			return name
		}
		pkg, ok := findFunc(dir, name, withTests)
		if !ok {
			return name
		}
		return pkg + "." + name
	}
}

// findFunc parses the package's files (read each time: the agent may edit
// them) and returns its package name if exactly one top-level function is
// called name.
func findFunc(dir, name string, withTests bool) (string, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	fset := token.NewFileSet()
	pkg, count := "", 0
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || (!withTests && strings.HasSuffix(n, "_test.go")) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
				pkg = f.Name.Name
				count++
			}
		}
	}
	return pkg, count == 1
}

// FunctionNameWarning warns that Delve binds only package-qualified names:
// a bare one is qualified here when the program is a package or source
// file declaring it once, but a built binary's gets to Delve as written.
func (a *Adapter) FunctionNameWarning(name string) string {
	if name == "" || strings.ContainsAny(name, ".:/ ") {
		return ""
	}
	return fmt.Sprintf("Delve needs a package-qualified name, e.g. 'main.%s'; a bare one is qualified here only for a Go package or source file declaring it once", name)
}
