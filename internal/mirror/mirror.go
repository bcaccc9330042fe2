// Package mirror serves a debug session over DAP on a loopback TCP port, so
// that a person's IDE (VS Code, nvim-dap) can attach and watch the stop the
// agent is looking at. The mirror is a DAP server backed by the session,
// not a second connection to the adapter: it answers from the session's
// stop and relays the session's changes as events. It is read-only unless
// control is allowed; even then it never sets breakpoints, which remain
// the agent's.
//
// A loopback port is open to every process on the machine, so each mirror
// has its own token: an IDE must attach (or launch) with it in the
// arguments, under TokenField, before it is answered anything but
// initialize. DAP has no authentication of its own, and IDEs send the
// attach configuration's fields, custom ones included, as the attach
// request's arguments, while initialize carries only fixed ones.
package mirror

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// Options configure a mirror.
type Options struct {
	// AllowControl lets attached clients continue, step, pause and
	// evaluate; otherwise those requests are refused.
	AllowControl bool
	Logger       *slog.Logger
}

// TokenField names the attach (or launch) argument that carries the
// mirror's token.
const TokenField = "mcpDebuggerToken"

// Mirror is one session served over DAP.
type Mirror struct {
	sess  *session.Session
	opts  Options
	log   *slog.Logger
	ln    net.Listener
	token string

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	clients map[*client]struct{}
	arrived uint64 // clients accepted so far
}

// maxStrangers caps the connections of a mirror that have not attached
// with the token yet; past it the oldest is closed. An IDE attaches a
// moment after it connects, so only strangers opening connections without
// end are evicted, by their own newer ones.
const maxStrangers = 8

// Start listens on a free loopback port and serves sess until Close.
func Start(sess *session.Session, opts Options) (*Mirror, error) {
	var secret [32]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return nil, fmt.Errorf("mirror of session %s: generating its token: %w", sess.ID, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mirror of session %s: listen: %w", sess.ID, err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Mirror{
		sess:    sess,
		opts:    opts,
		log:     log.With("mirror", sess.ID),
		ln:      ln,
		token:   base64.RawURLEncoding.EncodeToString(secret[:]),
		ctx:     ctx,
		cancel:  cancel,
		clients: map[*client]struct{}{},
	}
	m.wg.Add(1)
	go m.accept()
	return m, nil
}

// Port is the TCP port the mirror listens on.
func (m *Mirror) Port() int { return m.ln.Addr().(*net.TCPAddr).Port }

// Token is the secret an IDE must attach with, under TokenField.
func (m *Mirror) Token() string { return m.token }

// tokenIn reports whether a request's arguments carry the mirror's token.
func (m *Mirror) tokenIn(args json.RawMessage) bool {
	var a map[string]json.RawMessage
	var got string
	if json.Unmarshal(args, &a) != nil || json.Unmarshal(a[TokenField], &got) != nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(m.token)) == 1
}

// AllowsControl reports whether attached clients may drive the session.
func (m *Mirror) AllowsControl() bool { return m.opts.AllowControl }

// Clients counts the clients attached now.
func (m *Mirror) Clients() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.clients)
}

// Close stops listening, tells every client the debugging is over,
// disconnects it and waits for their goroutines. The session itself is
// untouched.
func (m *Mirror) Close() {
	m.cancel()
	m.ln.Close()
	m.mu.Lock()
	for c := range m.clients {
		c.terminate()
		c.conn.Close()
	}
	m.mu.Unlock()
	m.wg.Wait()
}

func (m *Mirror) accept() {
	defer m.wg.Done()
	for {
		conn, err := m.ln.Accept()
		if err != nil {
			return
		}
		m.mu.Lock()
		if m.ctx.Err() != nil {
			m.mu.Unlock()
			conn.Close()
			return
		}
		m.arrived++
		c := newClient(m, conn, m.arrived)
		m.clients[c] = struct{}{}
		m.evictStranger()
		m.mu.Unlock()
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			c.serve()
			m.mu.Lock()
			delete(m.clients, c)
			m.mu.Unlock()
		}()
	}
}

// evictStranger closes the oldest connection that has not attached when
// there are more than maxStrangers; its serve goroutine then ends and
// frees what it read. m.mu is held.
func (m *Mirror) evictStranger() {
	var oldest *client
	strangers := 0
	for c := range m.clients {
		if c.attached.Load() {
			continue
		}
		strangers++
		if oldest == nil || c.seq < oldest.seq {
			oldest = c
		}
	}
	if strangers > maxStrangers {
		// Forgotten at once, so that the next arrival counts it no more.
		delete(m.clients, oldest)
		oldest.conn.Close()
	}
}
