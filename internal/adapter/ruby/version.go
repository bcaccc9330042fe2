package ruby

import "github.com/mcp-debugger/mcp-debugger/internal/adapter"

// dialect is how one rdbg release speaks DAP: what this package must send
// it and which of its departures the transport absorbs. It is chosen from
// the version `rdbg --version` reports, never assumed. The thresholds are
// the debug gem releases whose lib/debug/server_dap.rb changed the
// behaviour (the gem's v1.4.0, v1.5.0 and v1.6.0 tags); 1.6.3, Debian's
// today, is measured here (docs/adapter-quirks.md, rdbg-12), 1.4.0 was before.
type dialect struct {
	// name names rdbg in "not supported" answers ("rdbg 1.6.3"), so the
	// agent knows it is this release's limit.
	name string
	// replacesBreakpoints: setBreakpoints clears the file's line
	// breakpoints before setting the new ones, as DAP says
	// (SESSION.clear_line_breakpoints, from 1.5.0). Before, a set only
	// adds, and the transport removes dropped lines itself.
	replacesBreakpoints bool
	// pausesOnAttach: attach pauses a running program (SIGURG, before
	// 1.6.0). From 1.6.0 attach leaves a running program running and
	// reports a stop only for one held at its first line.
	pausesOnAttach bool
}

// unknownDialect is for an rdbg whose version is not known (attaching
// with no rdbg on this machine, or a version we cannot read). It takes the
// paths that work on every release: the transport's own breakpoint
// removal (on a release that replaces sets, it removes what rdbg clears
// anyway) and a pause for stopOnEntry after attaching (a pause that
// reaches a program already paused is ignored: ThreadClient#on_trap).
var unknownDialect = dialect{name: "rdbg"}

// dialectOf is the dialect of the rdbg that reports version v ("1.6.3").
// docs/adapter-quirks.md: rdbg-12.
func dialectOf(v string) dialect {
	r, ok := adapter.ParseRelease(v)
	if !ok {
		return unknownDialect
	}
	return dialect{
		name:                "rdbg " + v,
		replacesBreakpoints: r.AtLeast(1, 5),
		pausesOnAttach:      !r.AtLeast(1, 6),
	}
}
