package session

// A wrong mapping: breakpoints go out with paths the program never loaded,
// and stay unbound. The answer says which path was sent and names a few
// the program did load, so that the agent can fix pathMappings.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-dap"
)

// loadedExamples is how many loaded paths the note names.
const loadedExamples = 3

// UnmappedNote explains the unbound breakpoints in file (every file when
// empty) whose paths went through a path mapping: the program's path each
// was sent as, and paths the program did load. Empty without mappings or
// unbound breakpoints.
func (s *Session) UnmappedNote(ctx context.Context, file string) string {
	s.mu.Lock()
	r := s.r
	s.mu.Unlock()
	if r == nil || r.paths == nil || r.conn.MapsPaths || r.ended() {
		return ""
	}
	lines, _ := s.Breakpoints(file)
	var sent []string
	for _, bp := range lines {
		if remote := r.paths.toRemote(bp.File); !bp.Verified && remote != bp.File && !slices.Contains(sent, remote) {
			sent = append(sent, remote)
		}
	}
	if len(sent) == 0 {
		return ""
	}
	note := fmt.Sprintf("breakpoints sent as %s matched nothing the program loaded: check pathMappings", strings.Join(sent, ", "))
	if loaded := r.loadedPaths(ctx, loadedExamples); len(loaded) > 0 {
		note += "; it loaded " + strings.Join(loaded, ", ")
	}
	return note
}

// loadedPaths names up to n files the program has loaded: those of the
// current stop's frames (the program's own code, most likely), then what
// the adapter lists with loadedSources or modules where it can.
func (r *connection) loadedPaths(ctx context.Context, n int) []string {
	var paths []string
	add := func(p string) {
		if p != "" && IsRemoteAbs(p) && !slices.Contains(paths, p) && len(paths) < n {
			paths = append(paths, p)
		}
	}
	r.s.mu.Lock()
	st := r.s.stop
	r.s.mu.Unlock()
	if st != nil {
		select {
		case <-st.ready:
			for _, f := range st.frames {
				if f.Source != nil && f.PresentationHint != "subtle" && f.PresentationHint != "deemphasize" {
					add(f.Source.Path)
				}
			}
		default:
		}
	}
	if len(paths) < n && r.caps.SupportsLoadedSourcesRequest {
		var body dap.LoadedSourcesResponseBody
		if err := r.call(ctx, "loadedSources", map[string]any{}, &body); err == nil {
			for _, src := range body.Sources {
				add(src.Path)
			}
		}
	}
	if len(paths) < n && r.caps.SupportsModulesRequest {
		var body dap.ModulesResponseBody
		if err := r.call(ctx, "modules", map[string]any{"startModule": 0, "moduleCount": 50}, &body); err == nil {
			for _, m := range body.Modules {
				add(m.Path)
			}
		}
	}
	return paths
}
