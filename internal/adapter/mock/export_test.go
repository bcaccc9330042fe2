package mock

import (
	"io"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
)

// StartWithHandler starts a launch of args whose server answers command
// with h instead of its own handler: how a test injects a fault.
func StartWithHandler(args map[string]any, command string, h dapserver.Handler) *adapter.Connection {
	return dapserver.StartOnPipe(adapter.Connection{Request: "launch", Arguments: args, AdapterID: "mock"}, func(end io.ReadWriteCloser) {
		s := newServer(end, handshake{}, nil)
		s.Handlers[command] = h
		s.serve()
	})
}
