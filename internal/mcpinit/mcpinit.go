// Package mcpinit says which MCP messages may come before a session is
// initialized, and how the transports (stdio, Streamable HTTP) refuse the
// others. The go-sdk refuses them too, but with JSON-RPC error code 0,
// which no client recognises, and a message that does not say what to do.
package mcpinit

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Code is the JSON-RPC error code of a call before initialize: -32600,
// invalid request (not valid at this point of the session). Not the -32002
// some servers use for "not initialized": in MCP, -32002 means "resource
// not found", which a client could act on wrongly.
const Code = jsonrpc.CodeInvalidRequest

// Message is the error message for method called before initialize: what
// went wrong and what to send.
func Message(method string) string {
	return fmt.Sprintf(`not initialized: send "initialize" first (then the "notifications/initialized" notification); %q is answered after it`, method)
}

// Error is the JSON-RPC error for method called before initialize.
func Error(method string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: Code, Message: Message(method)}
}

// NeedsNoSession reports whether a request is served without an
// initialized session: initialize itself, and server/discover and any
// request that names its protocol version in _meta, which belong to MCP's
// sessionless protocol (2026-07-28 and later; the SDK serves or refuses
// those itself).
func NeedsNoSession(method string, params json.RawMessage) bool {
	switch method {
	case "initialize", "server/discover":
		return true
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	_, ok := p.Meta[mcp.MetaKeyProtocolVersion]
	return ok
}
