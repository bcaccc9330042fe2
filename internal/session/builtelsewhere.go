package session

// A program built in another directory (CI, a container, a tree moved
// since, trimmed or remapped build paths) names its sources by the paths
// its build saw, and a breakpoint on the agent's copy binds to nothing: the
// program runs to its end. Before a launch, the session reads the paths
// the binary names (adapter.BuildSourceReader) for the files that have
// breakpoints. A file the binary does not name, where it names one of the
// same base name with the same content, gets its root mapped (through the
// same pathMap as the agent's pathMappings), and the answer says so; one
// whose namesake differs keeps its breakpoints unbound, and they say which
// path the binary expects and which pathMappings would map it.
// docs/adapter-quirks.md, lldb-30, delve-26.

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// builtElsewhere is what the session found, before a launch, about where
// the program's build saw the files that have breakpoints.
type builtElsewhere struct {
	// mappings pair the agent's roots with the build's, for files found
	// to be the same.
	mappings []PathMapping
	// notes say, one per mapping, what was mapped and why.
	notes []string
	// unmatched says, per agent's file, why its breakpoints cannot bind:
	// the path the binary expects instead, and how to map it.
	unmatched map[string]string
}

// note is the answer's sentence on the mappings made, "" for none.
func (b *builtElsewhere) note() string {
	if b == nil {
		return ""
	}
	return strings.Join(b.notes, "; ")
}

// findBuildPaths reads the paths program's build wrote for the files that
// have breakpoints (not those under an agent's localRoot: the agent mapped
// them already) and matches them with the agent's files.
func (s *Session) findBuildPaths(program string, explicit []PathMapping) *builtElsewhere {
	reader, ok := s.adapter.(adapter.BuildSourceReader)
	if !ok {
		return nil
	}
	s.mu.Lock()
	var files, names []string
	for _, f := range s.bps.sortedFiles() {
		if slices.ContainsFunc(explicit, func(m PathMapping) bool { _, under := localRest(filepath.Clean(m.LocalRoot), f); return under }) {
			continue
		}
		files = append(files, f)
		names = append(names, filepath.Base(f))
	}
	s.mu.Unlock()
	if len(files) == 0 {
		return nil
	}
	sources, err := reader.BuildSources(program, names)
	if err != nil {
		s.log.Warn("reading the program's source paths", "program", program, "err", err)
		return nil
	}
	return matchBuildPaths(files, sources)
}

// matchBuildPaths matches the agent's files with the build's sources (the
// paths the binary names, with the lines it has code on).
func matchBuildPaths(files []string, sources map[string][]int) *builtElsewhere {
	b := &builtElsewhere{unmatched: map[string]string{}}
	named := map[string]bool{}
	for p := range sources {
		// A build may spell a path with "..", as CMake's do
		// (/proj/build/../src/x.c); the debugger resolves it.
		named[filepath.Clean(filepath.FromSlash(p))] = true
	}
	for _, file := range files {
		if named[filepath.Clean(file)] {
			continue
		}
		if slices.ContainsFunc(b.mappings, func(m PathMapping) bool { _, under := localRest(m.LocalRoot, file); return under }) {
			continue
		}
		candidates := namesakes(file, sources)
		if len(candidates) == 0 {
			// Not the program's own: a shared library's, say, which may
			// load later and bind then.
			continue
		}
		built, same, why := "", false, ""
		for _, c := range candidates {
			if same, why = sameSource(file, c, sources[c]); same {
				built = c
				break
			}
		}
		if built == "" {
			built = candidates[0]
			b.unmatched[file] = unmatchedNote(file, built, why)
			continue
		}
		local, remote := splitRoots(file, built)
		if remote == "" {
			b.unmatched[file] = fmt.Sprintf("the program names this file %s, with no directory to map", built)
			continue
		}
		b.mappings = append(b.mappings, PathMapping{LocalRoot: local, RemoteRoot: remote})
		b.notes = append(b.notes, fmt.Sprintf("the program was built in %s: mapped it to %s, where %s %s", remote, local, filepath.Base(file), why))
	}
	return b
}

// namesakes are the build's paths with file's base name, those sharing
// the longest tail of directories with file first.
func namesakes(file string, sources map[string][]int) []string {
	var out []string
	for p := range sources {
		if path.Base(filepath.ToSlash(p)) == filepath.Base(file) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if d := len(commonTail(file, b)) - len(commonTail(file, a)); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out
}

// commonTail is the path elements file and built end with alike.
func commonTail(file, built string) []string {
	l := strings.Split(filepath.ToSlash(file), "/")
	r := strings.Split(filepath.ToSlash(built), "/")
	n := 0
	for n < len(l) && n < len(r) && l[len(l)-1-n] == r[len(r)-1-n] && l[len(l)-1-n] != "" {
		n++
	}
	return l[len(l)-n:]
}

// splitRoots cuts the common tail off both paths: what is left are the
// roots to map, the agent's and the build's.
func splitRoots(file, built string) (local, remote string) {
	tail := strings.Join(commonTail(file, built), "/")
	local = filepath.Clean(strings.TrimSuffix(filepath.ToSlash(file), "/"+tail))
	remote = strings.TrimSuffix(filepath.ToSlash(built), tail)
	if remote != "/" {
		remote = strings.TrimSuffix(remote, "/")
	}
	return filepath.FromSlash(local), remote
}

// sameSource says whether the agent's file is the source the build saw as
// built, and how that is known (or why not): where built still exists here,
// by content; where it is gone, by the binary's lines of code, each of
// which must be a non-blank line of file.
func sameSource(file, built string, codeLines []int) (bool, string) {
	mine, err := os.ReadFile(file)
	if err != nil {
		return false, fmt.Sprintf("yours cannot be read: %v", err)
	}
	if theirs, err := os.ReadFile(filepath.FromSlash(built)); err == nil && filepath.IsAbs(filepath.FromSlash(built)) {
		// Read relative, built would name a file under the server's
		// working directory, not the build's.
		if bytes.Equal(mine, theirs) {
			return true, "is the same file"
		}
		return false, "the two differ"
	}
	lines := strings.Split(string(mine), "\n")
	for _, l := range codeLines {
		if l > len(lines) {
			return false, fmt.Sprintf("the program has code on line %d, past the end of yours", l)
		}
		if strings.TrimSpace(lines[l-1]) == "" {
			return false, fmt.Sprintf("the program has code on line %d, blank in yours", l)
		}
	}
	return true, "has code on every line the program has"
}

// unmatchedNote says which path the program expects for file, why file
// was not taken for it, and how to map it.
func unmatchedNote(file, built, why string) string {
	local, remote := splitRoots(file, built)
	if !IsRemoteAbs(remote) {
		return fmt.Sprintf("the program names this file %s, a path its build trimmed, and was not mapped: %s", built, why)
	}
	return fmt.Sprintf("the program expects %s, not mapped here because %s; if it is this file, pass pathMappings [{localRoot: %q, remoteRoot: %q}] to start_debugging", built, why, local, remote)
}

// explainUnbound adds to each unbound breakpoint of a file the build does
// not name why it cannot bind (builtElsewhere.unmatched). The caller holds
// s.mu.
func (s *Session) explainUnbound(b *builtElsewhere) {
	if b == nil {
		return
	}
	for file, why := range b.unmatched {
		for _, bp := range s.bps.files[file] {
			if !bp.Verified {
				bp.Message = JoinDistinct(bp.Message, why)
			}
		}
	}
}
