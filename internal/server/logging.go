package server

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// refuseLogging answers logging/setLevel as a method the server does not
// have: it sends no log messages and does not advertise logging, so a
// client that sets a level anyway learns that nothing will come, instead
// of a success the SDK would answer on its own.
func (s *Server) refuseLogging() {
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "logging/setLevel" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
					Message: "logging/setLevel: this server sends no log messages (logging is not among its capabilities)"}
			}
			return next(ctx, method, req)
		}
	})
}
