package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// observers is what the server keeps for clients that share it over HTTP:
// who owns each debug session, the timeline of tool calls the live page
// shows, and the IDE mirrors. Over stdio there is one client, whose MCP
// session has no id, and none of it restricts anything.
type observers struct {
	mu      sync.Mutex
	owners  map[string]owner // by debug session id
	calls   []ToolCall       // newest last, at most timelineLen
	nextSeq uint64
	changed chan struct{} // closed and replaced on every new call
	mirrors map[string]*exposed
	// Reconnecting (reconnect.go): each client's reconnect key, how long a
	// departed client's sessions wait for adoption, and the pending closes.
	keys        map[string]string // by client
	grace       time.Duration
	graceTimers map[string]*time.Timer // by departed client
	// The sessions a reconnect key holds close after keyIdle without a
	// call presenting it.
	keyIdle  time.Duration
	keyLives map[string]*keyLife // by key
}

// owner is who may drive a debug session over HTTP: the client whose MCP
// session created or adopted it, and any call presenting its key with its
// credential. With neither client nor key it is nobody's (created over
// stdio).
type owner struct {
	client     string // the MCP session id of the client that created or adopted it
	shared     bool
	key        string // the reconnect key that adopts it, and drives it in ReconnectKeyHeader
	credential string // the fingerprint of its creator's Authorization header
	// keyHeld: it lives by its key (created or used with it, or without an
	// MCP session) until no call used it for the idle timeout, not by its
	// client's MCP session.
	keyHeld bool
	// byID: created by a call with neither an MCP session nor a key (a
	// sessionless client), whose only proof is the session's id: 128
	// random bits, answered to the creator and listed to no one else.
	byID bool
}

// ReapedTool names the timeline entry of a debug session closed because
// the client that created it left or was idle too long.
const ReapedTool = "(client gone: session closed)"

// HeldTool names the timeline entry of a debug session whose client left,
// kept open for the reconnect grace period so that the client can adopt it.
const HeldTool = "(client gone: session held for reconnect)"

// timelineLen bounds the tool calls kept for the page.
const timelineLen = 200

// ToolCall is one entry of the timeline: a tool call by an agent, or an
// action a person took on the page.
type ToolCall struct {
	Seq       uint64    `json:"seq"`
	Time      time.Time `json:"time"`
	Client    string    `json:"client,omitempty"`
	Tool      string    `json:"tool"`
	SessionID string    `json:"sessionId,omitempty"`
	Millis    float64   `json:"ms"`
	OK        bool      `json:"ok"`
	Error     string    `json:"error,omitempty"`
}

// installObservers adds the ownership check and the timeline to every
// request, and closes a client's debug sessions when its MCP session ends.
func (s *Server) installObservers() {
	s.obs = &observers{owners: map[string]owner{}, changed: make(chan struct{}), mirrors: map[string]*exposed{},
		keys: map[string]string{}, graceTimers: map[string]*time.Timer{}, keyLives: map[string]*keyLife{}}
	s.mcp.AddReceivingMiddleware(s.observe)
	s.addExposeTools()
}

func (s *Server) observe(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss.ID() != "" {
				// Owned by the MCP session: ends when it does (an HTTP
				// DELETE, the idle timeout, a failed keep-alive), after the
				// reconnect grace period.
				go func() {
					_ = ss.Wait()
					s.clientGone(ss.ID())
				}()
			}
		case "tools/call":
			if call, ok := req.(*mcp.CallToolRequest); ok {
				ctx = withCaller(ctx, call)
				s.claimKey(callerOf(ctx))
				return s.observeCall(ctx, next, method, call)
			}
		}
		return next(ctx, method, req)
	}
}

// observeCall adds a tool call to the timeline and forgets a closed
// session's owner. The ownership check is the tool's own (addTool), made
// on the arguments its handler decoded, which the handler notes here:
// the call's arguments are never read a second way.
func (s *Server) observeCall(ctx context.Context, next mcp.MethodHandler, method string, req *mcp.CallToolRequest) (mcp.Result, error) {
	start := time.Now()
	client := ""
	if req.Session != nil {
		client = req.Session.ID()
	}
	decided := &decidedSession{}
	res, err := next(context.WithValue(ctx, decidedKey{}, decided), method, req)
	entry := ToolCall{Time: start, Client: shortID(client), Tool: req.Params.Name, SessionID: decided.id}
	entry.Millis = float64(time.Since(start).Microseconds()) / 1000
	entry.OK = err == nil
	if r, ok := res.(*mcp.CallToolResult); ok && r != nil {
		entry.OK = entry.OK && !r.IsError
		var body struct {
			SessionID string `json:"sessionId"`
			Error     string `json:"error"`
		}
		if raw, ok := r.StructuredContent.(json.RawMessage); ok {
			_ = json.Unmarshal(raw, &body)
		}
		entry.Error = body.Error
		if req.Params.Name == "close_debug_session" && !r.IsError {
			s.obs.mu.Lock()
			delete(s.obs.owners, decided.id)
			s.obs.mu.Unlock()
			s.unexpose(decided.id)
			s.stopOutputWatch(decided.id)
		}
		if (req.Params.Name == "create_debug_session" || req.Params.Name == "debug_test" && decided.id == "") && !r.IsError && body.SessionID != "" {
			entry.SessionID = body.SessionID
		}
	}
	if err != nil {
		entry.Error = err.Error()
	}
	s.Record(entry)
	return res, err
}

// decidedSession is the sessionId a tool's handler decoded from the
// call's arguments, passed back to observeCall through the context.
type decidedSession struct{ id string }

type decidedKey struct{}

// decideOwner notes the session a tool call names and refuses it when
// the caller may not drive it: the one check every tool passes, made on
// the arguments the handler will use.
func (s *Server) decideOwner(ctx context.Context, tool, sessionID string) error {
	if d, ok := ctx.Value(decidedKey{}).(*decidedSession); ok {
		d.id = sessionID
	}
	// Sharing stays the owner's decision, shared or not.
	if err := s.checkOwner(callerOf(ctx), sessionID, tool == "share_debug_session"); err != nil {
		return err
	}
	s.touchHeld(sessionID)
	return nil
}

// foreignHint is what a client refused another's session can do instead.
const foreignHint = "if you created it, send its reconnectKey in the HTTP header " + ReconnectKeyHeader + " with every call " +
	"(or list_debug_sessions {adopt: your reconnectKey} takes it back into your MCP session); " +
	"otherwise create_debug_session makes your own, or its owner can call share_debug_session"

// checkOwner is the one ownership rule, for every path to a session's
// data (tools, resources, the live page): over stdio the one client may
// use everything; over HTTP a caller may use a debug session its MCP
// session created or adopted, one whose reconnect key it presents with
// the creator's credential (the key is given to the creator alone and
// never listed, so a client with the same bearer token but not the key
// is refused), one a sessionless client created that it names with that
// client's credential (the id is then as secret as a key: see listed),
// one nobody owns (created over stdio), and one its owner shared, unless
// ownerOnly. The IDE mirror is reached through expose_session, which
// passes here, and its per-exposure token.
func (s *Server) checkOwner(c caller, sessionID string, ownerOnly bool) error {
	if sessionID == "" || !c.overHTTP {
		return nil
	}
	s.obs.mu.Lock()
	o, ok := s.obs.owners[sessionID]
	s.obs.mu.Unlock()
	nobodys := o.client == "" && o.key == ""
	namedByCreator := o.byID && subtle.ConstantTimeCompare([]byte(o.credential), []byte(c.credential)) == 1
	if !ok || nobodys || c.proves(o) || namedByCreator || (o.shared && !ownerOnly) {
		return nil
	}
	return userError(foreignHint, "debug session %s belongs to another client; only the client that created it can use it", sessionID)
}

// proves reports whether c shows, by more than a session's id, that it
// is the owner o: its MCP session, or o's key with o's credential.
func (c caller) proves(o owner) bool {
	return (o.client != "" && o.client == c.client) || c.holdsKey(o)
}

// listed reports whether a caller is shown the debug session id (by
// list_debug_sessions, resources/list, the live page): every session but
// the ones whose id is their owner's proof (byID), which are shown only
// to a caller that proves it is the owner by other means, or once shared.
func (s *Server) listed(c caller, id string) bool {
	if !c.overHTTP {
		return true
	}
	s.obs.mu.Lock()
	o := s.obs.owners[id]
	s.obs.mu.Unlock()
	return !o.byID || o.shared || c.proves(o)
}

// Listed reports whether the HTTP request whose header is header is shown
// the debug session id, by the rule of list_debug_sessions.
func (s *Server) Listed(header http.Header, id string) bool {
	return s.listed(callerOfHeader(header), id)
}

// closeMirrors stops every IDE mirror, for the server's end.
func (s *Server) closeMirrors() {
	s.obs.mu.Lock()
	ids := make([]string, 0, len(s.obs.mirrors))
	for id := range s.obs.mirrors {
		ids = append(ids, id)
	}
	s.obs.mu.Unlock()
	for _, id := range ids {
		s.unexpose(id)
	}
}

// Record adds an entry to the timeline and wakes its watchers.
func (s *Server) Record(c ToolCall) {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	s.obs.nextSeq++
	c.Seq = s.obs.nextSeq
	s.obs.calls = append(s.obs.calls, c)
	if len(s.obs.calls) > timelineLen {
		s.obs.calls = append(s.obs.calls[:0], s.obs.calls[len(s.obs.calls)-timelineLen:]...)
	}
	close(s.obs.changed)
	s.obs.changed = make(chan struct{})
}

// Timeline returns the last n tool calls, oldest first, and a channel
// closed at the next one.
func (s *Server) Timeline(n int) ([]ToolCall, <-chan struct{}) {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	start := max(0, len(s.obs.calls)-n)
	return append([]ToolCall{}, s.obs.calls[start:]...), s.obs.changed
}

// DebugSessions lists every debug session, oldest first.
func (s *Server) DebugSessions() []*session.Session { return s.sessions.List() }

// DebugSession finds a debug session by id.
func (s *Server) DebugSession(id string) (*session.Session, error) { return s.sessions.Get(id) }

// MayUse reports whether the HTTP request whose header is header (its
// Mcp-Session-Id, ReconnectKeyHeader and Authorization) may use the debug
// session id, by the rule every session tool applies: its owner's,
// shared, or owned by no one.
func (s *Server) MayUse(header http.Header, id string) bool {
	return s.checkOwner(callerOfHeader(header), id, false) == nil
}

// callerOfHeader is who makes an HTTP request of its own (the live
// page's data) with header.
func callerOfHeader(header http.Header) caller {
	c := callerFrom(nil, header)
	c.client = header.Get("Mcp-Session-Id")
	return c
}

// Owner says which client (a short form of its MCP session id, or "key "
// and a short fingerprint of the reconnect key that holds it) created a
// debug session, and whether it is shared; "" when anyone may drive it.
func (s *Server) Owner(id string) (client string, shared bool) {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	o := s.obs.owners[id]
	if o.client == "" && o.key != "" {
		sum := sha256.Sum256([]byte(o.key))
		return "key " + hex.EncodeToString(sum[:3]), o.shared
	}
	return shortID(o.client), o.shared
}

// shortID shortens an MCP session id for display; the full id is a
// capability (it addresses the session over HTTP), so it is never shown.
func shortID(id string) string {
	if len(id) > 6 {
		return id[:6]
	}
	return id
}
