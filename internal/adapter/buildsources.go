package adapter

// A binary built in another directory (CI, a container, Bazel, Nix, a
// tree moved since, Go's -trimpath, rustc's --remap-path-prefix) names its
// sources by the paths its build saw: a breakpoint on the agent's copy
// matches none of them, and the program runs to its end. Reading those
// paths from the binary's DWARF lets the engine find the agent's copy among
// them and map the roots.

import (
	"debug/dwarf"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
)

// BuildSourceReader is implemented by adapters whose programs may be
// binaries carrying their build's source paths in their debug
// information (C, C++, Rust, Go).
type BuildSourceReader interface {
	// BuildSources returns, for a program that is such a binary, the
	// source files its debug information names whose base name is one of
	// names, each with the lines its line table has code on, spelled as
	// the build wrote them. It returns nil for a program that is no
	// binary (a source file, a package directory).
	BuildSources(program string, names []string) (map[string][]int, error)
}

// DWARFSources is BuildSources for an ELF, Mach-O (or its .dSYM bundle)
// or PE binary. A path the build wrote relative, with no compilation
// directory to resolve it (Go's -trimpath: "example.com/loop/main.go"),
// stays relative, slash-separated.
func DWARFSources(bin string, names []string) (map[string][]int, error) {
	d := openDWARF(bin)
	if d == nil {
		return nil, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	lines := map[string]map[int]bool{}
	r := d.Reader()
	for {
		cu, err := r.Next()
		if err != nil {
			return nil, fmt.Errorf("reading the debug information of %s: %w", bin, err)
		}
		if cu == nil {
			break
		}
		if cu.Tag != dwarf.TagCompileUnit {
			r.SkipChildren()
			continue
		}
		r.SkipChildren()
		lr, err := d.LineReader(cu)
		if err != nil {
			return nil, fmt.Errorf("reading the line table of %s: %w", bin, err)
		}
		if lr == nil {
			continue
		}
		if !slices.ContainsFunc(lr.Files(), func(f *dwarf.LineFile) bool { return f != nil && want[baseName(f.Name)] }) {
			continue
		}
		var e dwarf.LineEntry
		for {
			if err := lr.Next(&e); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, fmt.Errorf("reading the line table of %s: %w", bin, err)
			}
			if e.File == nil || !want[baseName(e.File.Name)] || e.EndSequence || e.Line <= 0 {
				continue
			}
			if lines[e.File.Name] == nil {
				lines[e.File.Name] = map[int]bool{}
			}
			lines[e.File.Name][e.Line] = true
		}
	}
	out := make(map[string][]int, len(lines))
	for name, set := range lines {
		for l := range set {
			out[name] = append(out[name], l)
		}
		slices.Sort(out[name])
	}
	return out, nil
}

// baseName is the last element of a build's path, whichever separator the
// build's system used.
func baseName(p string) string {
	return path.Base(filepath.ToSlash(p))
}

// openDWARF opens bin's DWARF; nil when bin is no binary this reads (a
// source file, a directory) or has none. On macOS the DWARF may lie in a
// .dSYM bundle beside the binary.
func openDWARF(bin string) *dwarf.Data {
	if f, err := elf.Open(bin); err == nil {
		defer f.Close()
		return dwarfOf(f.DWARF)
	}
	if f, err := pe.Open(bin); err == nil {
		defer f.Close()
		return dwarfOf(f.DWARF)
	}
	for _, p := range []string{filepath.Join(bin+".dSYM", "Contents", "Resources", "DWARF", filepath.Base(bin)), bin} {
		if f, err := macho.Open(p); err == nil {
			defer f.Close()
			return dwarfOf(f.DWARF)
		}
	}
	return nil
}

// dwarfOf reads a binary's DWARF. A binary without any, or with DWARF this
// cannot read, names no sources: the breakpoints then fare as they would
// have without this (the adapter says why they did not bind).
func dwarfOf(read func() (*dwarf.Data, error)) *dwarf.Data {
	d, err := read()
	if err != nil {
		return nil
	}
	return d
}
