package server

import (
	"path/filepath"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// pathShower is an answer that writes the paths it shows relative to the
// server's working directory. Answers that stop somewhere carry the stop's
// file in every call; under the directory the agent works in (its relative
// paths resolve there too), the relative path says the same in fewer bytes.
type pathShower interface {
	showPathsFrom(base string)
}

// relativeUnder is path relative to base when path is inside base, and
// path unchanged otherwise (another tree, another drive, or no base).
func relativeUnder(base, path string) string {
	if base == "" || path == "" || !filepath.IsAbs(path) {
		return path
	}
	rel, err := filepath.Rel(base, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return path
	}
	return rel
}

// locationFrom is l with its file relative to base, as a copy: the
// session may hold l.
func locationFrom(base string, l *session.Location) *session.Location {
	if l == nil {
		return nil
	}
	shown := *l
	shown.File = relativeUnder(base, l.File)
	return &shown
}

func (res *runResult) showPathsFrom(base string) {
	res.Location = locationFrom(base, res.Location)
	if res.Data != nil {
		res.Data.Location = locationFrom(base, res.Data.Location)
	}
}

func (res *breakOnChangeResult) showPathsFrom(base string) {
	res.runResult.showPathsFrom(base)
	res.ChangedBy = locationFrom(base, res.ChangedBy)
}
