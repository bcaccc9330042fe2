package session

import (
	"debug/dwarf"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// nativeUserFunctions lists the functions of a C, C++ or Rust binary
// whose definitions lie in files under roots, as its DWARF says: each
// subprogram with code (a low pc) that the compiler did not make up (no
// implicit constructors or destructors), named by its qualified name —
// "shop::Cart::total", "record_cart::cart::total", "price" in C — which is
// the name lldb breaks on after the function's prologue (by its mangled
// name it stops before, where the arguments are not stored yet) and, with
// the parameter list cut off (frameFunction), the name of its frames.
// Overloads share their name, and one breakpoint. lldb-dap itself cannot
// list them: its completions and modules requests name no functions.
func nativeUserFunctions(bin string, roots []string) ([]userFunction, error) {
	d, err := adapter.BinaryDWARF(bin)
	if err != nil {
		return nil, fmt.Errorf("reading the debug information of %s: %w", bin, err)
	}
	defs, err := subprograms(d)
	if err != nil {
		return nil, fmt.Errorf("reading the debug information of %s: %w", bin, err)
	}
	var out []userFunction
	seen := map[string]bool{}
	for _, def := range defs {
		if !underRoots(def.file, roots) || seen[def.name] {
			continue
		}
		seen[def.name] = true
		out = append(out, userFunction{name: def.name, params: def.params, file: def.file, entryColumn: entryColumn(d, def)})
	}
	return out, nil
}

// entryColumn is, for a function lldb breaks on before its prologue, the
// column of its entry in the line table, 0 for any other. lldb takes the
// prologue to end where the line table first moves to another line (or
// at a row marked prologue_end, which clang and rustc emit and GCC does
// not): for a function GCC compiled whose body starts on the line of its
// entry ("void add(const Item &it) { items.push_back(it); }"), that is
// after the body, so lldb stops at the entry, where the arguments are not
// stored yet. The body's first row is on the same line at another column;
// the recorder steps to it (bpRecorder.call).
func entryColumn(d *dwarf.Data, def definition) int {
	lr, err := d.LineReader(def.unit)
	if err != nil || lr == nil {
		return 0
	}
	var entry, body dwarf.LineEntry
	if lr.SeekPC(def.lowPC, &entry) != nil || entry.Address != def.lowPC || entry.PrologueEnd {
		return 0
	}
	for lr.Next(&body) == nil && !body.EndSequence {
		if body.Address == entry.Address {
			continue
		}
		if body.Line == entry.Line && body.Column != entry.Column && !body.PrologueEnd {
			return entry.Column
		}
		return 0
	}
	return 0
}

// definition is a subprogram with code, with its qualified name and its
// source file.
type definition struct {
	name, file string
	params     []string
	// decl is the entry that names it: itself, the declaration it
	// specifies or its abstract origin.
	decl dwarf.Offset
	// unit is its compile unit, whose line table holds its rows from
	// lowPC, its first instruction.
	unit  *dwarf.Entry
	lowPC uint64
}

// declared is what a subprogram entry says of itself: a definition outside
// its class says it only through the declaration inside the class.
type declared struct {
	name, file string
	artificial bool
}

// subprograms walks the DWARF once and returns the definitions with code,
// each named by its qualified name (its namespaces, classes and structs,
// then its name). A definition outside its class names the declaration
// inside it, which may come later: names are looked up once the walk is
// done.
func subprograms(d *dwarf.Data) ([]definition, error) {
	var defs []definition
	entries := map[dwarf.Offset]declared{}
	var files []*dwarf.LineFile
	var unit *dwarf.Entry
	// scope holds, per open entry with children, its name part ("" for
	// entries that add none, such as a compile unit).
	var scope []string
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return nil, err
		}
		if e == nil {
			return resolve(defs, entries), nil
		}
		if e.Tag == 0 {
			if len(scope) > 0 {
				scope = scope[:len(scope)-1]
			}
			continue
		}
		name, _ := e.Val(dwarf.AttrName).(string)
		switch e.Tag {
		case dwarf.TagCompileUnit:
			unit, files = e, nil
			if lr, err := d.LineReader(e); err == nil && lr != nil {
				files = lr.Files()
			}
			name = ""
		case dwarf.TagNamespace:
			if name == "" {
				name = "(anonymous namespace)"
			}
		case dwarf.TagClassType, dwarf.TagStructType, dwarf.TagUnionType:
		case dwarf.TagSubprogram:
			var entry declared
			if name != "" {
				entry.name = qualify(scope, name)
			}
			entry.artificial, _ = e.Val(dwarf.AttrArtificial).(bool)
			if i, ok := e.Val(dwarf.AttrDeclFile).(int64); ok && i >= 0 && int(i) < len(files) && files[i] != nil {
				entry.file = files[i].Name
			}
			entries[e.Offset] = entry
			if low, code := e.Val(dwarf.AttrLowpc).(uint64); code {
				def := definition{decl: e.Offset, file: entry.file, unit: unit, lowPC: low}
				for _, attr := range []dwarf.Attr{dwarf.AttrSpecification, dwarf.AttrAbstractOrigin} {
					if off, ok := e.Val(attr).(dwarf.Offset); ok {
						def.decl = off
					}
				}
				def.params = formalParameters(r, e)
				defs = append(defs, def)
				continue
			}
		default:
			name = ""
		}
		if e.Children {
			scope = append(scope, name)
		}
	}
}

// resolve names each definition by the entry that declares it, takes that
// entry's file where the definition names none, and leaves out what the
// compiler made up and what has no name or file.
func resolve(defs []definition, entries map[dwarf.Offset]declared) []definition {
	kept := defs[:0]
	for _, def := range defs {
		decl := entries[def.decl]
		def.name = decl.name
		if def.file == "" {
			def.file = decl.file
		}
		if def.name != "" && def.file != "" && !decl.artificial {
			kept = append(kept, def)
		}
	}
	return kept
}

// qualify joins a name to the names of the scopes it is declared in.
func qualify(scope []string, name string) string {
	var b strings.Builder
	for _, part := range scope {
		if part != "" {
			b.WriteString(part)
			b.WriteString("::")
		}
	}
	b.WriteString(name)
	return b.String()
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
