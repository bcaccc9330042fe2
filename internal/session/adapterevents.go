package session

import (
	"context"
	"slices"

	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// passEvent hands an event the session has no use for to the adapter
// package, when it asked for that one (Connection.Events). It runs on a goroutine of its own, so
// that a handler talking to the adapter never holds up the event loop,
// and its context ends with the run.
func (r *connection) passEvent(ev dapc.Event) {
	if r.conn.Event == nil || !slices.Contains(r.conn.Events, ev.Name) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), dapc.DefaultTimeout)
		defer cancel()
		go func() {
			select {
			case <-r.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		r.conn.Event(ctx, ev)
	}()
}
