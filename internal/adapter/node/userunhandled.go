package node

import (
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// userUnhandled is the exception filter that also stops on caught
// exceptions thrown by the user's code: how a test runner's caught failed
// assertion becomes a stop (debug_test). V8 does not say who will catch
// an exception, so the adapter takes every one and keeps those thrown in
// the user's code, or in node:assert called from it; Node's own and the
// packages' exceptions pass. One the user's own code catches further up
// is kept too: telling that apart would need the catch prediction V8 keeps
// to itself.
const userUnhandled = "userUnhandled"

// userUnhandledBlackbox are the blackbox patterns under userUnhandled:
// V8 drops a caught exception whose top frame is blackboxed, so
// node:assert, where failed assertions are thrown, is left out.
var userUnhandledBlackbox = []string{"^node:(?!assert)", "/node_modules/"}

// exceptionMode is the exception filter in force.
func (s *server) exceptionMode() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.excState
}

// thrownByUserCode reports whether an exception pause is in the user's
// code, or in an assertion the user's code called.
// docs/adapter-quirks.md: node-18.
func (s *server) thrownByUserCode(p cdp.Paused) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range p.CallFrames {
		if !s.isAssertLocked(f.Location.ScriptID) {
			return !s.isInternalLocked(f.Location.ScriptID)
		}
	}
	return false
}

// isAssertLocked reports whether a script is Node's assert module.
func (s *server) isAssertLocked(scriptID string) bool {
	sc := s.scripts[scriptID]
	return sc != nil && (sc.url == "node:assert" || strings.HasPrefix(sc.url, "node:assert/") || strings.HasPrefix(sc.url, "node:internal/assert"))
}
