package session

import (
	"debug/dwarf"
	"debug/elf"
	"debug/macho"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// nativeUserFunctions lists the functions of a C, C++ or Rust binary
// whose definitions lie in files under roots, as its DWARF says: each
// subprogram with code (a low pc), named by its linkage (mangled) name
// where it has one — lldb finds a function breakpoint by it, overloads
// and namespaces apart — and by its plain name otherwise (C). lldb-dap
// itself cannot list them: its completions and modules requests name no
// functions.
func nativeUserFunctions(bin string, roots []string) ([]userFunction, error) {
	d, err := binaryDWARF(bin)
	if err != nil {
		return nil, fmt.Errorf("reading the debug information of %s: %w", bin, err)
	}
	var out []userFunction
	seen := map[string]bool{}
	r := d.Reader()
	var files []*dwarf.LineFile
	for {
		e, err := r.Next()
		if err != nil {
			return nil, fmt.Errorf("reading the debug information of %s: %w", bin, err)
		}
		if e == nil {
			return out, nil
		}
		switch e.Tag {
		case dwarf.TagCompileUnit:
			files = nil
			if lr, err := d.LineReader(e); err == nil && lr != nil {
				files = lr.Files()
			}
			continue
		case dwarf.TagSubprogram:
		default:
			continue
		}
		f, ok := subprogram(d, r, e, files)
		if ok && underRoots(f.file, roots) && !seen[f.name] {
			seen[f.name] = true
			out = append(out, f)
		}
	}
}

// subprogram reads a subprogram with code and its parameters; ok is
// false for a declaration, an inlined-only function or one without a
// name. The reader is left past the subprogram's children.
func subprogram(d *dwarf.Data, r *dwarf.Reader, e *dwarf.Entry, files []*dwarf.LineFile) (userFunction, bool) {
	var f userFunction
	params := formalParameters(r, e)
	if _, code := e.Val(dwarf.AttrLowpc).(uint64); !code {
		return f, false
	}
	decl := e
	for _, attr := range []dwarf.Attr{dwarf.AttrSpecification, dwarf.AttrAbstractOrigin} {
		if off, ok := e.Val(attr).(dwarf.Offset); ok {
			if origin, err := entryAt(d, off); err == nil {
				decl = origin
			}
		}
	}
	name, _ := e.Val(dwarf.AttrLinkageName).(string)
	if name == "" {
		name, _ = decl.Val(dwarf.AttrLinkageName).(string)
	}
	if name == "" {
		name, _ = decl.Val(dwarf.AttrName).(string)
	}
	fileIndex, declared := decl.Val(dwarf.AttrDeclFile).(int64)
	if name == "" || !declared || fileIndex < 0 || int(fileIndex) >= len(files) || files[fileIndex] == nil {
		return f, false
	}
	return userFunction{name: name, params: params, file: files[fileIndex].Name}, true
}

// formalParameters are the names of a subprogram's parameters, read
// from its children (the reader ends past them).
func formalParameters(r *dwarf.Reader, e *dwarf.Entry) []string {
	if !e.Children {
		return nil
	}
	var params []string
	for depth := 1; depth > 0; {
		kid, err := r.Next()
		if err != nil || kid == nil {
			return params
		}
		switch {
		case kid.Tag == 0:
			depth--
			continue
		case depth == 1 && kid.Tag == dwarf.TagFormalParameter:
			if n, ok := kid.Val(dwarf.AttrName).(string); ok {
				params = append(params, n)
			}
		}
		if kid.Children {
			depth++
		}
	}
	return params
}

func entryAt(d *dwarf.Data, off dwarf.Offset) (*dwarf.Entry, error) {
	r := d.Reader()
	r.Seek(off)
	return r.Next()
}

// underRoots reports a file inside one of roots (a directory or a file).
func underRoots(file string, roots []string) bool {
	for _, root := range roots {
		rel, err := filepath.Rel(root, file)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// binaryDWARF opens an ELF (Linux) or Mach-O (macOS) binary's DWARF. On
// macOS the DWARF may lie in a .dSYM bundle beside the binary.
func binaryDWARF(bin string) (*dwarf.Data, error) {
	if f, err := elf.Open(bin); err == nil {
		defer f.Close()
		return f.DWARF()
	}
	for _, path := range []string{filepath.Join(bin+".dSYM", "Contents", "Resources", "DWARF", filepath.Base(bin)), bin} {
		if f, err := macho.Open(path); err == nil {
			d, err := f.DWARF()
			f.Close()
			if err == nil {
				return d, nil
			}
		}
	}
	return nil, errors.New("neither an ELF nor a Mach-O binary with DWARF")
}
