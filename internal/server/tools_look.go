package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// lookArgs make start_debugging one call per look at a running program,
// the debugger's answer to "add a print and rerun": no session beforehand,
// the probes given inline, and, when they only print, the program's outcome
// with the values it printed, the session closed by itself.
type lookArgs struct {
	Language string   `json:"language,omitempty" jsonschema:"instead of sessionId: a new session"`
	Probes   []string `json:"probes,omitempty" jsonschema:"FILE:LINE stops there; FILE:LINE print EXPR, … records values at each hit (no stop, no edit); either with if COND after the line"`
	Keep     bool     `json:"keep,omitempty" jsonschema:"keep the session after a printing run ended"`
}

// look is one start_debugging call's probes and the session it made.
type look struct {
	s         *Server
	sessionID string
	created   bool // the call created the session
	prints    bool // some probe prints
	stops     bool // some probe stops
	keep      bool
	// reconnectKey takes a session the call made back after a reconnect.
	reconnectKey string
}

// openLook makes the session the call asked for with language (none when
// it named one with sessionId) and sets its probes. On an error nothing is
// left: a session it made is closed.
func (s *Server) openLook(ctx context.Context, a *startArgs) (_ *look, err error) {
	probes, err := parseProbes(a.Probes)
	if err != nil {
		return nil, err
	}
	lk := &look{s: s, sessionID: a.SessionID, keep: a.Keep}
	switch {
	case a.SessionID != "" && a.Language != "":
		return nil, userError("pass sessionId (an existing session) or language (a new one), not both", "both sessionId and language given")
	case a.SessionID == "" && a.Language == "":
		return nil, userError("pass sessionId from create_debug_session, or language to start a new session in this call", "sessionId or language is required")
	case a.SessionID == "":
		created, err := s.createSession(ctx, &createSessionArgs{Language: a.Language})
		if err != nil {
			return nil, err
		}
		lk.sessionID, lk.created, lk.reconnectKey = created.SessionID, true, created.ReconnectKey
		a.SessionID = created.SessionID
		defer func() {
			if err != nil {
				_ = s.sessions.Close(lk.sessionID)
			}
		}()
	}
	if lk.prints, lk.stops, err = s.setProbes(ctx, lk.sessionID, probes); err != nil {
		return nil, err
	}
	return lk, nil
}

// setProbes sets probes in a session, and says whether some print and
// some stop.
func (s *Server) setProbes(ctx context.Context, sessionID string, probes []probe) (prints, stops bool, err error) {
	for _, p := range probes {
		bp := &setBreakpointArgs{SessionID: sessionID, File: p.File, Line: Int(p.Line), Condition: p.Condition, Collect: p.Print}
		if _, err := s.setBreakpoint(ctx, bp); err != nil {
			return false, false, fmt.Errorf("probe %s:%d: %w", p.File, p.Line, err)
		}
		prints = prints || len(p.Print) > 0
		stops = stops || len(p.Print) == 0
	}
	return prints, stops, nil
}

// printedValues is what a session's print probes recorded, nil when there
// is nothing to show.
func (s *Server) printedValues(ctx context.Context, sessionID string) *getTraceResult {
	trace, err := s.getTrace(ctx, &getTraceArgs{SessionID: sessionID})
	if err != nil || trace.Count == 0 {
		return nil
	}
	return trace
}

// finish completes the call's answer: the session's id when the call made
// it, the values the print probes recorded, and the session closed once a
// run that only printed has ended, unless keep. A failed launch closes a
// session the call made.
func (lk *look) finish(ctx context.Context, res *runResult, err error) (*runResult, error) {
	if err != nil || res == nil {
		if lk.created {
			_ = lk.s.sessions.Close(lk.sessionID)
			var e *session.Error
			if errors.As(err, &e) {
				e.Hint = strings.TrimSuffix(e.Hint, ".") + " (the session this call created is closed)"
			}
		}
		return res, err
	}
	if lk.created {
		res.SessionID, res.ReconnectKey = lk.sessionID, lk.reconnectKey
	}
	if !lk.prints {
		return res, nil
	}
	if trace := lk.s.printedValues(ctx, lk.sessionID); trace != nil {
		res.Trace = trace.Tables
		if trace.More {
			// The rest would be lost with the session: it stays open.
			res.Message += fmt.Sprintf(" More values than shown: get_trace {since: %d} reads on; close_debug_session when done.", trace.NextSince)
			return res, nil
		}
	}
	ended := res.State == session.StateStopped
	if ended && !lk.stops && !lk.keep {
		if cerr := lk.s.sessions.Close(lk.sessionID); cerr == nil {
			res.Message += " The probes' values are in trace; the session is closed (keep: true keeps it)."
			res.SessionID, res.ReconnectKey = "", ""
		}
	}
	return res, nil
}
