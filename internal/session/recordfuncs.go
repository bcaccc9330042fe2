package session

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxRecordedFunctions bounds the function breakpoints a recording sets:
// each is a stop, two requests and a step out per call.
const maxRecordedFunctions = 400

// userFunction is a function of the user's code a recording breaks on.
type userFunction struct {
	// name is the debugger's name for it (Delve's "main.(*Cart).Total").
	name string
	// params are its parameters (a method's receiver first), in
	// declaration order.
	params []string
}

// goUserFunctions lists the functions and methods declared in the Go
// packages under roots (not vendor, testdata, hidden directories or
// _test.go files), named as Delve names them: "main.price" in package
// main, "example.com/m/pkg.(*T).M" elsewhere (the import path from the
// nearest go.mod). Generic functions and init are left out: Delve names
// each instantiation apart.
func goUserFunctions(roots []string) ([]userFunction, error) {
	var out []userFunction
	seen := map[string]bool{}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				name := d.Name()
				if path != root && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || seen[path] {
				return nil
			}
			seen[path] = true
			fns, err := goFileFunctions(path)
			out = append(out, fns...)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("listing the Go functions under %s: %w", root, err)
		}
	}
	return out, nil
}

func goFileFunctions(path string) ([]userFunction, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	pkg := f.Name.Name
	if pkg != "main" {
		pkg = goImportPath(filepath.Dir(path))
	}
	var out []userFunction
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Type.TypeParams != nil || (fd.Recv == nil && fd.Name.Name == "init") {
			continue
		}
		name, generic := delveName(pkg, fd)
		if generic {
			continue
		}
		var params []string
		if fd.Recv != nil {
			params = fieldNames(fd.Recv)
		}
		out = append(out, userFunction{name: name, params: append(params, fieldNames(fd.Type.Params)...)})
	}
	return out, nil
}

// delveName is Delve's name of a declared function; generic reports a
// method of a generic type.
func delveName(pkg string, fd *ast.FuncDecl) (name string, generic bool) {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return pkg + "." + fd.Name.Name, false
	}
	t := fd.Recv.List[0].Type
	pointer := false
	if star, ok := t.(*ast.StarExpr); ok {
		pointer, t = true, star.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return "", true
	}
	if pointer {
		return fmt.Sprintf("%s.(*%s).%s", pkg, id.Name, fd.Name.Name), false
	}
	return fmt.Sprintf("%s.%s.%s", pkg, id.Name, fd.Name.Name), false
}

func fieldNames(fl *ast.FieldList) []string {
	var out []string
	if fl == nil {
		return nil
	}
	for _, f := range fl.List {
		for _, n := range f.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

// goImportPath is the import path of the package in dir: its go.mod's
// module path joined with dir's place under it; the directory's name when
// there is no go.mod.
func goImportPath(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if mod := modulePath(filepath.Join(d, "go.mod")); mod != "" {
			rel, err := filepath.Rel(d, dir)
			if err != nil || rel == "." {
				return mod
			}
			return mod + "/" + filepath.ToSlash(rel)
		}
		if filepath.Dir(d) == d {
			return filepath.Base(dir)
		}
	}
}

func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// userRoots are the directories and files counted as the user's code.
func userRoots(cwd string, include []string) []string {
	roots := slices.Clone(include)
	if cwd != "" {
		roots = append([]string{cwd}, roots...)
	}
	return roots
}
