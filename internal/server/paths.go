package server

import (
	"path/filepath"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// pathShower is an answer whose locations are shown as shownLocation
// says. Answers that stop somewhere carry the stop's file in every call;
// under the directory the agent works in (its relative paths resolve
// there too), the relative path says the same in fewer bytes.
type pathShower interface {
	showPathsFrom(base string)
}

// relativeUnder is path relative to base when path is inside base, and
// path unchanged otherwise (another tree, another drive, or no base).
func relativeUnder(base, path string) string {
	if base == "" || path == "" || !filepath.IsAbs(path) {
		return path
	}
	if rel, err := filepath.Rel(base, path); err == nil && rel != "." && filepath.IsLocal(rel) {
		return rel
	}
	return path
}

// shownLocation is l as an answer shows it, a copy (the session may hold
// l): its file relative to base, and no column where it is the line's
// first (debugpy reports 1 for every stop), which says nothing the line
// number does not.
func shownLocation(base string, l *session.Location) *session.Location {
	if l == nil {
		return nil
	}
	shown := *l
	shown.File = relativeUnder(base, l.File)
	if shown.Column <= 1 {
		shown.Column = 0
	}
	return &shown
}

func (res *runResult) showPathsFrom(base string) {
	res.Location = shownLocation(base, res.Location)
	if res.Data != nil {
		res.Data.Location = shownLocation(base, res.Data.Location)
	}
}

func (res *breakOnChangeResult) showPathsFrom(base string) {
	res.runResult.showPathsFrom(base)
	res.ChangedBy = shownLocation(base, res.ChangedBy)
}
