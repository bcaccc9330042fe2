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
	// A source file, a directory, a binary without DWARF or with DWARF
	// this cannot read names no sources: the breakpoints then fare as they
	// would have without this (the adapter says why they did not bind).
	d, err := BinaryDWARF(bin)
	if err != nil {
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

// BinaryDWARF opens an ELF (Linux), PE (Windows) or Mach-O (macOS)
// binary's DWARF. On macOS the DWARF may lie in a .dSYM bundle beside the
// binary.
func BinaryDWARF(bin string) (*dwarf.Data, error) {
	if f, err := elf.Open(bin); err == nil {
		defer f.Close()
		return f.DWARF()
	}
	if f, err := pe.Open(bin); err == nil {
		defer f.Close()
		return f.DWARF()
	}
	for _, p := range []string{filepath.Join(bin+".dSYM", "Contents", "Resources", "DWARF", filepath.Base(bin)), bin} {
		if f, err := macho.Open(p); err == nil {
			d, err := f.DWARF()
			f.Close()
			if err == nil {
				return d, nil
			}
		}
	}
	return nil, errors.New("neither an ELF, a PE nor a Mach-O binary with DWARF")
}
