package session

import (
	"bufio"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
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
	// file is its source file; returns the places it returns from (Go).
	file    string
	returns []returnSite
	// entryColumn, for a function lldb stops in before its prologue, is
	// the column of its entry: the recorder steps on until the frame is
	// past it (recorddwarf.go, entryColumn).
	entryColumn int
}

// returnSite is a line a Go function returns from. Delve's DAP server
// shows no return value after a step out, and a step out interrupted by a
// nested call's breakpoint cannot be restarted ("next while nexting"), so
// a Go recording stops at each return statement instead and evaluates its
// results there, when they call nothing (Delve evaluates no calls).
type returnSite struct {
	line    int
	results []string // the result expressions, or a naked return's names
	calls   bool     // a result calls a function: its value is unknown
	// callee is the function a lone result calls (return f(x), with
	// arguments that call nothing): the call returns what that call of
	// it returns.
	callee string
}

// goUserFunctions lists the functions and methods declared in the Go
// packages under roots (not vendor, testdata, hidden directories or
// _test.go files), named as Delve names them: "main.price" in package
// main, "example.com/m/pkg.(*T).M" elsewhere (the import path from the
// nearest go.mod). Generic functions and init are left out: Delve names
// each instantiation apart. With tests, the _test.go files count too and
// package main is named by its import path, as a test binary names it.
func goUserFunctions(roots []string, tests bool) ([]userFunction, error) {
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
			if !strings.HasSuffix(path, ".go") || (!tests && strings.HasSuffix(path, "_test.go")) || seen[path] {
				return nil
			}
			seen[path] = true
			fns, err := goFileFunctions(path, tests)
			out = append(out, fns...)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("listing the Go functions under %s: %w", root, err)
		}
	}
	return out, nil
}

func goFileFunctions(path string, tests bool) ([]userFunction, error) {
	fset := token.NewFileSet()
	src, err := userfile.Read(path)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	pkg := f.Name.Name
	switch {
	case tests && strings.HasSuffix(pkg, "_test"):
		pkg = goImportPath(filepath.Dir(path)) + "_test"
	case tests || pkg != "main":
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
		out = append(out, userFunction{name: name, params: append(params, fieldNames(fd.Type.Params)...), file: path, returns: goReturnSites(fset, src, fd)})
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
	f, _, err := userfile.Open(gomod)
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

// goReturnSites are the return statements of fd (not of the function
// literals in it) and, for a function without results, its closing brace.
func goReturnSites(fset *token.FileSet, src []byte, fd *ast.FuncDecl) []returnSite {
	var sites []returnSite
	named := fieldNames(fd.Type.Results)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			site := returnSite{line: fset.Position(n.Pos()).Line, results: named}
			if len(n.Results) > 0 {
				site.results = nil
				for _, e := range n.Results {
					site.results = append(site.results, string(src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset]))
					site.calls = site.calls || callsAnything(e)
				}
			}
			if len(n.Results) == 1 {
				site.callee = calleeName(n.Results[0])
			}
			sites = append(sites, site)
		}
		return true
	})
	if fd.Type.Results == nil {
		sites = append(sites, returnSite{line: fset.Position(fd.Body.Rbrace).Line})
	}
	return sites
}

// calleeName is the name of the function e calls, when e is one call
// whose function and arguments call nothing else: f(x), r.m(x),
// pkg.F(x); "" otherwise.
func calleeName(e ast.Expr) string {
	call, ok := e.(*ast.CallExpr)
	if !ok || callsAnything(call.Fun) || slices.ContainsFunc(call.Args, callsAnything) {
		return ""
	}
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		return fn.Name
	case *ast.SelectorExpr:
		return fn.Sel.Name
	}
	return ""
}

func callsAnything(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		_, call := n.(*ast.CallExpr)
		found = found || call
		return !found
	})
	return found
}

// recordedTop is a stop's top frame with its function named as a
// recording names it (frameFunction).
func recordedTop(ctx context.Context, r *connection, threadID int) (dap.StackFrame, error) {
	frame, err := topFrame(ctx, r, threadID)
	frame.Name = frameFunction(frame.Name)
	return frame, err
}

// recordedStack is levels frames of a thread's stack from start, their
// functions named as a recording names them: the adapter's names made
// readable (Rust's hash cut off, as every answer shows them), then
// frameFunction.
func recordedStack(ctx context.Context, r *connection, threadID, start, levels int) ([]dap.StackFrame, error) {
	var stack dap.StackTraceResponseBody
	if err := r.call(ctx, "stackTrace", map[string]any{"threadId": threadID, "startFrame": start, "levels": levels}, &stack); err != nil {
		return nil, err
	}
	renameFrames(stack.StackFrames, r.conn.Quirks)
	for i := range stack.StackFrames {
		stack.StackFrames[i].Name = frameFunction(stack.StackFrames[i].Name)
	}
	return stack.StackFrames, nil
}

// frameFunction is the function a frame's name names, without the
// parameter list and qualifiers lldb shows after a C++ function's name
// ("shop::Cart::total() const" → "shop::Cart::total"), so that a frame
// matches the recording's name of its function (nativeUserFunctions),
// whichever overload it is. Go, C and Rust names have no parameter list
// and come back unchanged.
func frameFunction(name string) string {
	head := qualifiers.ReplaceAllString(name, "")
	if !strings.HasSuffix(head, ")") {
		return name
	}
	depth := 0
	for i := len(head) - 1; i > 0; i-- {
		switch head[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return head[:i]
			}
		}
	}
	return name
}

// qualifiers are what lldb writes after a C++ method's parameter list.
var qualifiers = regexp.MustCompile(`(\s*(const|volatile|noexcept|&&|&))+$`)
