package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client over HTTP that reconnects gets a new MCP session, and with it
// a new client id that owns nothing. What proves it is the client that
// created a debug session is the pair given to it alone at creation: the
// credential it connected with (a fingerprint of its Authorization
// header) and a reconnect key, one per client, returned by
// create_debug_session and debug_test. list_debug_sessions {adopt: key}
// moves every debug session with that key and credential to the caller.

// caller identifies the client making a tool call.
type caller struct {
	client     string // its MCP session id; "" over stdio
	credential string // a fingerprint of its Authorization header
}

type callerKey struct{}

// withCaller records in ctx who makes a tool call, for the handlers that
// give or check ownership.
func withCaller(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	var c caller
	if req.Session != nil {
		c.client = req.Session.ID()
	}
	if req.Extra != nil && req.Extra.Header != nil {
		if auth := req.Extra.Header.Get("Authorization"); auth != "" {
			sum := sha256.Sum256([]byte(auth))
			c.credential = hex.EncodeToString(sum[:])
		}
	}
	return context.WithValue(ctx, callerKey{}, c)
}

func callerOf(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

// SetReconnectGrace sets how long the debug sessions of a client whose
// MCP session ended stay open for it to adopt (0 or less: closed at once).
// Call it before serving.
func (s *Server) SetReconnectGrace(d time.Duration) {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	s.obs.grace = d
}

// own makes the caller the owner of a debug session it just created and
// returns its reconnect key ("" over stdio, where nothing is owned).
func (s *Server) own(ctx context.Context, sessionID string) (string, error) {
	c := callerOf(ctx)
	if c.client == "" {
		return "", nil
	}
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	key, ok := s.obs.keys[c.client]
	if !ok {
		var b [24]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", fmt.Errorf("generating a reconnect key: %w", err)
		}
		key = base64.RawURLEncoding.EncodeToString(b[:])
		s.obs.keys[c.client] = key
	}
	s.obs.owners[sessionID] = owner{client: c.client, key: key, credential: c.credential}
	return key, nil
}

// adoptHint is what a client refused an adoption can do.
const adoptHint = "pass the reconnectKey that create_debug_session (or debug_test) returned to you, with the same bearer token you connected with then; " +
	"a departed client's sessions are closed after the server's reconnect grace period"

// adopt moves to the caller every debug session created with key by a
// client that had the caller's credential, and returns their ids and the
// key the caller should keep: its own when it already had one, which the
// adopted sessions then carry, else the adopted key.
func (s *Server) adopt(ctx context.Context, key string) (ids []string, keep string, err error) {
	c := callerOf(ctx)
	if c.client == "" {
		return nil, "", userError("adopt is for clients of `mcp-debugger http`; over stdio every session is already yours", "nothing to adopt over stdio")
	}
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	keep, ok := s.obs.keys[c.client]
	if !ok {
		keep = key
	}
	for id, o := range s.obs.owners {
		// Every record is compared in full: how long the check takes
		// tells nothing about which key or credential came close.
		keyMatch := subtle.ConstantTimeCompare([]byte(o.key), []byte(key))
		credMatch := subtle.ConstantTimeCompare([]byte(o.credential), []byte(c.credential))
		if o.key == "" || keyMatch&credMatch != 1 {
			continue
		}
		if _, err := s.sessions.Get(id); err != nil {
			delete(s.obs.owners, id) // closed since (a debug_test that failed to start)
			continue
		}
		o.client, o.key = c.client, keep
		s.obs.owners[id] = o
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, "", userError(adoptHint, "no open debug session has this reconnect key for your credential")
	}
	s.obs.keys[c.client] = keep
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
		if o.client == client {
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
		if o.client == client {
			ids = append(ids, id)
			delete(s.obs.owners, id)
		}
	}
	s.obs.mu.Unlock()
	for _, id := range ids {
		s.unexpose(id)
		s.stopOutputWatch(id)
		if err := s.sessions.Close(id); err == nil {
			s.log.Info("closed the debug session of a departed client", "session", id, "client", shortID(client))
			s.Record(ToolCall{Time: time.Now(), Client: shortID(client), Tool: ReapedTool, SessionID: id, OK: true})
		}
	}
}

// stopGraceTimers cancels the pending closes, for the server's end, which
// closes every session itself.
func (s *Server) stopGraceTimers() {
	s.obs.mu.Lock()
	defer s.obs.mu.Unlock()
	for _, t := range s.obs.graceTimers {
		t.Stop()
	}
	clear(s.obs.graceTimers)
}
