package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Who owns a debug session over HTTP. A client with an MCP session owns
// what it creates, for as long as that MCP session lives (then the
// reconnect grace period). Without that MCP session, what proves a call
// comes from the creator is something given to it alone at creation,
// with the credential it connected with (a fingerprint of its
// Authorization header; every client may share one bearer token):
//   - the session's reconnect key, returned by create_debug_session and
//     debug_test and never listed, presented in ReconnectKeyHeader: a
//     client that opens an MCP session per call (MCP Inspector's --cli)
//     keeps its sessions that way;
//   - for a session created with neither an MCP session nor a key (the
//     sessionless 2026-07-28 revision), its id: 128 random bits answered
//     to the creator and listed to no other client (observers.go, listed).
// A session created or used that way lives by its key until closed or
// until no call used it for the idle timeout. list_debug_sessions
// {adopt: key} moves every debug session with that key and credential
// to the caller's MCP session.

// ReconnectKeyHeader is the HTTP header in which a call presents the
// reconnect key of the debug sessions it drives.
const ReconnectKeyHeader = "Mcp-Debugger-Reconnect-Key"

// A key a client chooses itself must be as hard to guess as ours (24
// random bytes, 32 characters): at least 128 bits written in hex.
const (
	minReconnectKeyLen = 32
	maxReconnectKeyLen = 256
)

// CheckReconnectKey says what is wrong with a ReconnectKeyHeader value,
// or nil when it can serve as a key: 32 to 256 visible ASCII characters.
func CheckReconnectKey(key string) error {
	if len(key) < minReconnectKeyLen || len(key) > maxReconnectKeyLen {
		return fmt.Errorf("%s must be %d to %d characters (the reconnectKey an answer gave you, or one of your own such as `openssl rand -hex 16`); it has %d",
			ReconnectKeyHeader, minReconnectKeyLen, maxReconnectKeyLen, len(key))
	}
	for _, r := range key {
		if r <= ' ' || r > '~' {
			return fmt.Errorf("%s must be visible ASCII characters, without spaces", ReconnectKeyHeader)
		}
	}
	return nil
}

// caller identifies the client making a request.
type caller struct {
	overHTTP   bool
	client     string // its MCP session id; "" over stdio and without an MCP session
	key        string // the reconnect key it presented, if any
	credential string // a fingerprint of its Authorization header
}

type callerKey struct{}

// callerFrom is who makes a request over the MCP session client (nil or
// without an id: none) with the HTTP header of the request (nil over
// stdio).
func callerFrom(client mcp.Session, header http.Header) caller {
	var c caller
	if ss, ok := client.(*mcp.ServerSession); ok && ss != nil {
		c.client = ss.ID()
	}
	if header == nil {
		return c
	}
	c.overHTTP = true
	c.key = header.Get(ReconnectKeyHeader)
	if auth := header.Get("Authorization"); auth != "" {
		sum := sha256.Sum256([]byte(auth))
		c.credential = hex.EncodeToString(sum[:])
	}
	return c
}

// callerOfRequest is who makes an MCP request.
func callerOfRequest(req mcp.Request) caller {
	var header http.Header
	if extra := req.GetExtra(); extra != nil {
		header = extra.Header
	}
	return callerFrom(req.GetSession(), header)
}

// withCaller records in ctx who makes a tool call, for the handlers that
// give or check ownership.
func withCaller(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	return context.WithValue(ctx, callerKey{}, callerOfRequest(req))
}

func callerOf(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

// holdsKey reports whether c presented o's reconnect key with o's
// credential. Both are compared in full: how long the check takes tells
// nothing about which of them came close.
func (c caller) holdsKey(o owner) bool {
	keyMatch := subtle.ConstantTimeCompare([]byte(o.key), []byte(c.key))
	credMatch := subtle.ConstantTimeCompare([]byte(o.credential), []byte(c.credential))
	return c.key != "" && o.key != "" && keyMatch&credMatch == 1
}

// SetReconnectGrace sets how long the debug sessions of a client whose
// MCP session ended stay open for it to adopt (0 or less: closed at once).
// Call it before serving.
func (s *Server) SetReconnectGrace(d time.Duration) {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	s.obs.grace = d
}

// SetKeyIdleTimeout sets how long the debug sessions held by a reconnect
// key (created or used by calls that presented it, or created without an
// MCP session) stay open without a call presenting it (0 or less: until
// closed). Call it before serving.
func (s *Server) SetKeyIdleTimeout(d time.Duration) {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	s.obs.keyIdle = d
}

// newReconnectKey makes a key nobody can guess: 24 random bytes.
func newReconnectKey() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generating a reconnect key: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// own makes the caller the owner of a debug session it just created and
// returns its reconnect key ("" over stdio, where nothing is owned). A
// session created by a call that presented a key is that key's; one
// created in an MCP session is the MCP session's, with the client's one
// key; one created without either gets a key of its own, and its id
// proves ownership too (byID).
func (s *Server) own(ctx context.Context, sessionID string) (string, error) {
	c := callerOf(ctx)
	if !c.overHTTP {
		return "", nil
	}
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	o := owner{client: c.client, key: c.key, credential: c.credential, keyHeld: c.key != "" || c.client == ""}
	if o.key == "" && c.client != "" {
		o.key = s.obs.keys[c.client]
	}
	if o.key == "" {
		key, err := newReconnectKey()
		if err != nil {
			return "", err
		}
		o.key = key
		if o.client != "" {
			s.obs.keys[c.client] = key
		}
	}
	o.byID = c.client == "" && c.key == ""
	s.obs.owners[sessionID] = o
	if o.keyHeld {
		s.touchKeyLocked(o.key)
	}
	return o.key, nil
}

// reconnectKeyAdvice is what create_debug_session's message says of the
// reconnect key it gives c: nothing when c presented it, how to send it
// when c has no MCP session, else how to take the session back after a
// reconnect.
func reconnectKeyAdvice(c caller, key string) string {
	switch {
	case key == "" || c.key != "":
		return ""
	case c.client == "":
		return " Your client has no MCP session: the sessionId, which no other client is shown, is what makes the session yours."
	}
	return " Keep reconnectKey: after a reconnect, list_debug_sessions {adopt: reconnectKey} takes your sessions back " +
		"(a client that opens an MCP session per call sends it in the HTTP header " + ReconnectKeyHeader + " instead)."
}

// claimKey makes the debug sessions whose reconnect key the caller
// presented live by that key: they no longer end with the MCP session
// that created or adopted them (a one-shot client's ends after each call),
// which still owns them, but when no call used them for the idle timeout.
func (s *Server) claimKey(c caller) {
	if c.key == "" {
		return
	}
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	claimed := false
	for id, o := range s.obs.owners {
		if !c.holdsKey(o) {
			continue
		}
		claimed = true
		if !o.keyHeld {
			o.keyHeld = true
			s.obs.owners[id] = o
		}
	}
	if claimed {
		s.touchKeyLocked(c.key)
	}
}

// touchHeld restarts the idle clock of a debug session held by its key
// (or its id), on a call that uses it.
func (s *Server) touchHeld(sessionID string) {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	if o, ok := s.obs.owners[sessionID]; ok && o.keyHeld {
		s.touchKeyLocked(o.key)
	}
}

// keyLife is the idle clock of the debug sessions a reconnect key holds.
type keyLife struct {
	timer *time.Timer
	last  time.Time // when a call last presented the key
}

// touchKeyLocked restarts the idle clock of key's sessions; s.obs.mu is
// held. The timer is never reset here: when it fires it looks at the last
// touch and sleeps again if the key was used since.
func (s *Server) touchKeyLocked(key string) {
	if s.obs.keyIdle <= 0 {
		return
	}
	if life, ok := s.obs.keyLives[key]; ok {
		life.last = time.Now()
		return
	}
	s.obs.keyLives[key] = &keyLife{last: time.Now(), timer: time.AfterFunc(s.obs.keyIdle, func() { s.keyIdleCheck(key) })}
}

// keyIdleCheck closes the debug sessions key holds when no call presented
// it for the idle timeout, and waits again otherwise.
func (s *Server) keyIdleCheck(key string) {
	s.obs.mu.Lock()
	life, ok := s.obs.keyLives[key]
	if !ok {
		s.obs.mu.Unlock()
		return
	}
	if rest := s.obs.keyIdle - time.Since(life.last); rest > 0 {
		life.timer.Reset(rest)
		s.obs.mu.Unlock()
		return
	}
	delete(s.obs.keyLives, key)
	var ids []string
	for id, o := range s.obs.owners {
		if o.keyHeld && o.key == key {
			ids = append(ids, id)
			delete(s.obs.owners, id)
		}
	}
	s.obs.mu.Unlock()
	s.closeDeparted(ids, "", "no call presented its reconnect key for the idle timeout")
}

// adoptHint is what a client refused an adoption can do.
const adoptHint = "pass the reconnectKey that create_debug_session (or debug_test) returned to you, with the same bearer token you connected with then; " +
	"a departed client's sessions are closed after the server's reconnect grace period"

// adopt moves to the caller every debug session created with key by a
// client that had the caller's credential, and returns their ids and the
// key the caller should keep: its own when it already had one, which the
// adopted sessions then carry, else the adopted key. A caller without an
// MCP session adopts them for the key itself: they are then held by it.
func (s *Server) adopt(ctx context.Context, key string) (ids []string, keep string, err error) {
	c := callerOf(ctx)
	if !c.overHTTP {
		return nil, "", userError("adopt is for clients of `mcp-debugger http`; over stdio every session is already yours", "nothing to adopt over stdio")
	}
	holder := caller{key: key, credential: c.credential}
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	keep = key
	if own, ok := s.obs.keys[c.client]; ok && c.client != "" {
		keep = own
	}
	for id, o := range s.obs.owners {
		if !holder.holdsKey(o) {
			continue
		}
		if _, err := s.sessions.Get(id); err != nil {
			delete(s.obs.owners, id) // closed since (a debug_test that failed to start)
			continue
		}
		// Adopted into an MCP session, it lives as long as that; adopted
		// without one, by its key.
		o.client, o.key, o.keyHeld = c.client, keep, c.client == ""
		s.obs.owners[id] = o
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, "", userError(adoptHint, "no open debug session has this reconnect key for your credential")
	}
	if c.client != "" {
		s.obs.keys[c.client] = keep
	} else {
		s.touchKeyLocked(keep)
	}
	slices.Sort(ids)
	return ids, keep, nil
}

// clientGone handles the end of a client's MCP session: its debug sessions
// are held for the reconnect grace period, then closed unless adopted, so
// that no adapter or program outlives the agent that started it.
func (s *Server) clientGone(client string) {
	s.obs.mu.Lock()
	delete(s.obs.keys, client)
	grace := s.obs.grace
	var held []string
	for id, o := range s.obs.owners {
		if o.client == client && !o.keyHeld {
			held = append(held, id)
		}
	}
	if grace > 0 && len(held) > 0 {
		s.obs.graceTimers[client] = time.AfterFunc(grace, func() { s.closeOwnedBy(client) })
	}
	s.obs.mu.Unlock()
	if grace <= 0 {
		s.closeOwnedBy(client)
		return
	}
	for _, id := range held {
		s.log.Info("holding the debug session of a departed client for adoption", "session", id, "client", shortID(client), "grace", grace)
		s.Record(ToolCall{Time: time.Now(), Client: shortID(client), Tool: HeldTool, SessionID: id, OK: true})
	}
}

// closeOwnedBy closes the debug sessions a departed client still owns.
func (s *Server) closeOwnedBy(client string) {
	s.obs.mu.Lock()
	delete(s.obs.graceTimers, client)
	var ids []string
	for id, o := range s.obs.owners {
		if o.client == client && !o.keyHeld {
			ids = append(ids, id)
			delete(s.obs.owners, id)
		}
	}
	s.obs.mu.Unlock()
	s.closeDeparted(ids, client, "its client is gone")
}

// closeDeparted closes debug sessions nobody will come back for, with
// their programs, and says so in the log and on the timeline.
func (s *Server) closeDeparted(ids []string, client, why string) {
	for _, id := range ids {
		s.unexpose(id)
		s.stopOutputWatch(id)
		if err := s.sessions.Close(id); err == nil {
			s.log.Info("closed a debug session: "+why, "session", id, "client", shortID(client))
			s.Record(ToolCall{Time: time.Now(), Client: shortID(client), Tool: ReapedTool, SessionID: id, OK: true})
		}
	}
}

// stopGraceTimers cancels the pending closes (grace periods and idle
// keys), for the server's end, which
// closes every session itself.
func (s *Server) stopGraceTimers() {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	for _, t := range s.obs.graceTimers {
		t.Stop()
	}
	clear(s.obs.graceTimers)
	for _, life := range s.obs.keyLives {
		life.timer.Stop()
	}
	clear(s.obs.keyLives)
}
