package httpserver

import (
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Bounds on a connection, in time and number, until one of its requests
// carries the token: whoever has not shown it may be anyone who reaches
// the port, and must not be able to hold the server's file descriptors.
// After that the owner's connections are bounded only between requests:
// an event stream or a wait_for_stop call may rightly last hours.
const (
	// DefaultMaxPendingConns is Config.MaxPendingConns when it is 0: far
	// more than clients and browsers open at once, far fewer than the
	// file descriptors a process has.
	DefaultMaxPendingConns = 64
	// headerTimeout bounds the reading of a request's headers.
	headerTimeout = 10 * time.Second
	// idleConnTimeout closes a keep-alive connection that sends no next
	// request; clients open a new one when they need it.
	idleConnTimeout = 30 * time.Second
	// preAuthReadTimeout bounds the reading of the rest of a request
	// without the token (its body), answered or refused.
	preAuthReadTimeout = 10 * time.Second
)

// connKey keys a request's connection in its context.
type connKey struct{}

// pendingConns holds the connections that have not yet shown the token,
// oldest first, and closes the oldest when there are too many: a stranger
// opening connections without end evicts its own, while a client, whose
// first request carries the token a moment after connecting, is let in.
type pendingConns struct {
	max int

	mu    sync.Mutex
	order *list.List // of net.Conn
	elems map[net.Conn]*list.Element
}

func newPendingConns(maxConns int) *pendingConns {
	return &pendingConns{max: maxConns, order: list.New(), elems: map[net.Conn]*list.Element{}}
}

// track is http.Server.ConnState: a new connection is pending, a closed
// one is forgotten.
func (p *pendingConns) track(c net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		p.mu.Lock()
		p.elems[c] = p.order.PushBack(c)
		var evicted net.Conn
		if p.order.Len() > p.max {
			evicted = p.order.Remove(p.order.Front()).(net.Conn)
			delete(p.elems, evicted)
		}
		p.mu.Unlock()
		if evicted != nil {
			evicted.Close()
		}
	case http.StateClosed, http.StateHijacked:
		p.authenticated(c)
	}
}

// authenticated takes c off the pending list for good.
func (p *pendingConns) authenticated(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.elems[c]; ok {
		p.order.Remove(e)
		delete(p.elems, c)
	}
}

// BoundConnections sets up hs, which serves this handler (or a wrapper of
// it), to bound every connection before it shows the token: its headers
// within 10 s, its body within 10 s, at most Config.MaxPendingConns such
// connections (the oldest closed first), and 30 s idle between requests
// for every connection. Timeouts already set on hs are kept. No timeout
// bounds a request that carries the token, so event streams and long
// tool calls go on.
func (h *Handler) BoundConnections(hs *http.Server) {
	if hs.ReadHeaderTimeout == 0 {
		hs.ReadHeaderTimeout = headerTimeout
	}
	if hs.IdleTimeout == 0 {
		hs.IdleTimeout = idleConnTimeout
	}
	hs.ConnState = h.pending.track
	base := hs.ConnContext
	hs.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if base != nil {
			ctx = base(ctx, c)
		}
		return context.WithValue(ctx, connKey{}, c)
	}
}

// admitConn marks r's connection as authenticated when r carries the
// token, and otherwise bounds the reading of the rest of r: until then,
// the server's own read deadline covers the headers alone.
func (h *Handler) admitConn(w http.ResponseWriter, r *http.Request, authenticated bool) {
	c, ok := r.Context().Value(connKey{}).(net.Conn)
	if !ok {
		return
	}
	if authenticated {
		h.pending.authenticated(c)
		return
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(preAuthReadTimeout))
}
