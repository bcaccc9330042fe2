package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/mcpinit"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionHeader names the MCP session a Streamable HTTP request belongs to.
const sessionHeader = "Mcp-Session-Id"

// protocolVersionHeader names the MCP revision a Streamable HTTP request
// is in.
const protocolVersionHeader = "Mcp-Protocol-Version"

// firstSessionlessRevision is the MCP revision from which a client has no
// MCP session: every request carries its revision and is whole on its
// own. The SDK serves it over HTTP only from a stateless handler.
const firstSessionlessRevision = "2026-07-28"

// mcpFront stands before the SDK's Streamable HTTP handlers. It sends a
// request of the sessionless revisions to the stateless handler
// (sessionless) and the others to the one that keeps MCP sessions (next),
// refuses a malformed reconnect key, and corrects two things the SDK
// does: it refuses a POST without a session that is not an initialize
// (requireSession), and it keeps the answer of a call the client
// cancelled off the call's stream (calls).
type mcpFront struct {
	next        http.Handler
	sessionless http.Handler
	calls       *callRegistry
}

func (f *mcpFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if key := r.Header.Get(server.ReconnectKeyHeader); key != "" {
		if err := server.CheckReconnectKey(key); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
	}
	if r.Method != http.MethodPost {
		f.next.ServeHTTP(w, r)
		return
	}
	if r.Header.Get(protocolVersionHeader) >= firstSessionlessRevision {
		f.sessionless.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "reading the request body failed", http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// What is not one JSON-RPC request or notification (a batch, a bad
	// body) goes to the SDK as it came, which answers it.
	msg, err := jsonrpc.DecodeMessage(body)
	req, isRequest := msg.(*jsonrpc.Request)
	if err != nil || !isRequest {
		f.next.ServeHTTP(w, r)
		return
	}
	if req.Method == "server/discover" || carriesRevision(req.Params) {
		// Sessionless from the start: the SDK's stateful handler would
		// open an MCP session for the discovery and refuse the rest.
		f.sessionless.ServeHTTP(w, r)
		return
	}
	session := r.Header.Get(sessionHeader)
	if session == "" {
		f.requireSession(w, r, req)
		return
	}
	if req.ID.IsValid() {
		key := callKey{session, idKey(req.ID)}
		f.calls.begin(key)
		defer f.calls.end(key)
		w = &cancellableStream{ResponseWriter: w, calls: f.calls, key: key, id: req.ID}
	} else if req.Method == "notifications/cancelled" {
		f.calls.cancel(session, req.Params)
	}
	f.next.ServeHTTP(w, r)
}

// requireSession answers 400, as the Streamable HTTP transport asks of a
// server that assigns sessions, a message without an Mcp-Session-Id that
// is not an initialize. The SDK's handler would open a new, uninitialized
// session for it and answer 200 with JSON-RPC error code 0. The body is
// mcpinit's JSON-RPC error, which a client reads whether it looks at the
// status or the body. What the SDK serves without a session goes on to it.
func (f *mcpFront) requireSession(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request) {
	if mcpinit.NeedsNoSession(req.Method, req.Params) {
		f.next.ServeHTTP(w, r)
		return
	}
	resp := struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", req.ID.Raw(), mcpinit.Error(req.Method)}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(resp)
}

// carriesRevision reports whether a request's parameters name the MCP
// revision in _meta, as a request of a sessionless revision does.
func carriesRevision(params json.RawMessage) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	_, ok := p.Meta[mcp.MetaKeyProtocolVersion]
	return ok
}

// callKey names a call in flight: its MCP session and request id.
type callKey struct{ session, id string }

// idKey tells apart the request ids 1 and "1".
func idKey(id jsonrpc.ID) string { return fmt.Sprintf("%T:%v", id.Raw(), id.Raw()) }

// callRegistry holds the calls whose POST is still open, and whether the
// client cancelled each. An entry lives as long as its POST.
type callRegistry struct {
	mu    sync.Mutex
	calls map[callKey]bool // true once cancelled
}

func (c *callRegistry) begin(key callKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[key] = false
}

func (c *callRegistry) end(key callKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.calls, key)
}

// cancel marks the call a notifications/cancelled names, if it is in
// flight in session. It runs before the SDK sees the notification, so
// the mark is there before the call, cancelled, answers.
func (c *callRegistry) cancel(session string, params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	key := callKey{session, idKey(id)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.calls[key]; ok {
		c.calls[key] = true
	}
}

func (c *callRegistry) cancelled(key callKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[key]
}

// cancellableStream is a call's POST stream that drops the call's answer
// once the client cancelled it: MCP says a cancelled request gets no
// response, and the SDK's server sends one. The SDK writes each event in
// one Write; the stream ends as if the answer had been sent, so the POST
// completes without it.
type cancellableStream struct {
	http.ResponseWriter
	calls *callRegistry
	key   callKey
	id    jsonrpc.ID
}

func (s *cancellableStream) Write(p []byte) (int, error) {
	if s.calls.cancelled(s.key) && answers(p, s.id) {
		return len(p), nil
	}
	return s.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection's writer (the
// SDK flushes every event through one).
func (s *cancellableStream) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// answers reports whether an event written to a call's stream (or, in JSON
// mode, the body) is the response to id.
func answers(p []byte, id jsonrpc.ID) bool {
	data := p
	if i := bytes.Index(p, []byte("data: ")); i >= 0 && (i == 0 || p[i-1] == '\n') {
		data = p[i+len("data: "):]
		if end := bytes.IndexByte(data, '\n'); end >= 0 {
			data = data[:end]
		}
	}
	msg, err := jsonrpc.DecodeMessage(bytes.TrimSpace(data))
	resp, ok := msg.(*jsonrpc.Response)
	return err == nil && ok && resp.ID == id
}
