package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/mcp-debugger/mcp-debugger/internal/mcpinit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// sessionHeader names the MCP session a Streamable HTTP request belongs to.
const sessionHeader = "Mcp-Session-Id"

// requireSession answers 400, as the Streamable HTTP transport asks of a
// server that assigns sessions, a POST without an Mcp-Session-Id that is
// not an initialize. The SDK's handler would open a new, uninitialized
// session for it and answer 200 with JSON-RPC error code 0. Bodies that are
// not one JSON-RPC message, and requests the SDK serves without a session,
// go on to the SDK, which answers them.
func requireSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" {
			next.ServeHTTP(w, r)
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
		msg, err := jsonrpc.DecodeMessage(body)
		req, isRequest := msg.(*jsonrpc.Request)
		if err != nil || !isRequest || mcpinit.NeedsNoSession(req.Method, req.Params) {
			next.ServeHTTP(w, r)
			return
		}
		refuseWithoutSession(w, req)
	})
}

// refuseWithoutSession answers req 400 with mcpinit's JSON-RPC error, which
// a client reads whether it looks at the status or the body.
func refuseWithoutSession(w http.ResponseWriter, req *jsonrpc.Request) {
	resp := struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", req.ID.Raw(), mcpinit.Error(req.Method)}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(resp)
}
