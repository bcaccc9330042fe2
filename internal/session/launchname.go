package session

import (
	"maps"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// ProgramInLaunchArgs names the program that launch arguments give in
// place of a file (adapter.LaunchArgsNamer): the session's adapter
// configuration with each map given over it, the later over the earlier.
// It is "" when they name none, or the adapter launches files only.
func (s *Session) ProgramInLaunchArgs(args ...map[string]any) string {
	n, ok := s.adapter.(adapter.LaunchArgsNamer)
	if !ok {
		return ""
	}
	all := maps.Clone(s.opts.AdapterConfig)
	if all == nil {
		all = map[string]any{}
	}
	for _, m := range args {
		maps.Copy(all, m)
	}
	return n.ProgramInLaunchArgs(all)
}
