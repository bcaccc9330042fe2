package session

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sort"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// Manager owns every session of the server.
type Manager struct {
	log *slog.Logger

	mu       sync.Mutex
	sessions map[string]*Session
}

// NewManager returns an empty manager.
func NewManager(log *slog.Logger) *Manager {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{log: log, sessions: map[string]*Session{}}
}

// Create makes a new session for a language (id or alias).
func (m *Manager) Create(language string, opts Options) (*Session, error) {
	a, ok := adapter.Lookup(language)
	if !ok {
		return nil, errorf("list_supported_languages lists the language ids", "unknown language %q; supported: %v", language, adapter.OfferedIDs())
	}
	if opts.Logger == nil {
		opts.Logger = m.log
	}
	id := newID()
	if opts.Name == "" {
		opts.Name = a.Language().ID + "-" + id[:8]
	}
	s := newSession(id, a, opts)
	m.mu.Lock()
	m.sessions[id] = s
	m.mu.Unlock()
	return s, nil
}

// Get finds a session by id.
func (m *Manager) Get(id string) (*Session, error) {
	m.mu.Lock()
	s, ok := m.sessions[id]
	m.mu.Unlock()
	if !ok {
		return nil, errorf("list_debug_sessions lists the open sessions; create_debug_session makes a new one", "no debug session with id %q", id)
	}
	return s, nil
}

// List returns every session, oldest first.
func (m *Manager) List() []*Session {
	m.mu.Lock()
	out := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		out = append(out, s)
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}

// Close closes and forgets a session.
func (m *Manager) Close(id string) error {
	s, err := m.Get(id)
	if err != nil {
		return err
	}
	s.Close()
	m.mu.Lock()
	delete(m.sessions, id)
	m.mu.Unlock()
	return nil
}

// CloseAll closes every session, in parallel.
func (m *Manager) CloseAll() {
	var wg sync.WaitGroup
	for _, s := range m.List() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = m.Close(s.ID)
		}()
	}
	wg.Wait()
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
