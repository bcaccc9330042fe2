package dapserver

import (
	"io"
	"net"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// StartOnPipe runs serve on one end of an in-memory pipe and returns conn
// with the other end as its Transport. The serve goroutine belongs to the
// Connection: its Cleanup closes the pipe and waits for serve to return,
// so serve must end what it started before returning.
func StartOnPipe(conn adapter.Connection, serve func(end io.ReadWriteCloser)) *adapter.Connection {
	client, end := net.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(end)
	}()
	conn.Transport = client
	conn.Cleanup = func() {
		end.Close()
		<-done
	}
	return &conn
}
