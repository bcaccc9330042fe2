// Package httpserver serves mcp-debugger over HTTP: MCP on the Streamable
// HTTP transport at /mcp, health and version for supervisors, and a live,
// read-only page at / that shows what the agents are doing in the
// debugger. It is secure by default: the caller binds it to loopback
// unless told otherwise, and this package enforces the Host and Origin
// checks, the bearer token when one is set, and body size caps.
package httpserver

import (
	"embed"
	"encoding/json"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed web
var webFS embed.FS

//go:embed web/index.html
var indexHTML []byte

// Config configures the HTTP face.
type Config struct {
	// Addr is the address the listener is bound to; a loopback address
	// turns on the Host check against DNS rebinding.
	Addr net.Addr
	// Token, when set, is required on every request but /healthz, as
	// "Authorization: Bearer TOKEN" (or the page's cookie).
	Token string
	// TokenHint follows "unauthorized" in a 401 answer: where the token
	// is and how to configure a client with it.
	TokenHint string
	// PageToken is the credential of the person who runs the server: the
	// page's login link (/?token=…) and cookie carry it, and it shows
	// every session on the page. A request with Token alone is an MCP
	// client's, shown only the sessions it may use. When empty it is
	// Token, and every client can read every session on the page.
	PageToken string
	// SecureCookie marks the page's login cookie Secure, for a server
	// that clients reach through a TLS proxy: the server itself sees
	// plain HTTP, and a forwarded header is not to be trusted.
	SecureCookie bool
	// AllowOrigins are browser origins allowed besides the server's own
	// ("*" allows any; then only the token protects).
	AllowOrigins []string
	// AllowHumanControl adds continue, step and pause buttons to the page.
	AllowHumanControl bool
	// IdleTimeout closes an MCP session that sent no request for this
	// long, and with it the debug sessions it created, and the debug
	// sessions a reconnect key holds when no call presented it for this
	// long (0: never).
	IdleTimeout time.Duration
	// ReconnectGrace is how long the debug sessions of a client whose MCP
	// session ended stay open for it to adopt them after reconnecting
	// (0: DefaultReconnectGrace; negative: closed at once).
	ReconnectGrace time.Duration
	// MaxBodyBytes caps every request body (default 1 MiB).
	MaxBodyBytes int64
	// MaxPendingConns caps the connections that have not yet shown the
	// token, on a server set up with BoundConnections (default
	// DefaultMaxPendingConns).
	MaxPendingConns int
	Logger          *slog.Logger
}

// DefaultMaxBodyBytes is the body cap when Config.MaxBodyBytes is 0: far
// above any tool call, far below what could hurt.
const DefaultMaxBodyBytes = 1 << 20

// DefaultReconnectGrace is Config.ReconnectGrace when it is 0: long enough
// for a client to restart and reconnect, short enough that a program
// nobody will come back for stops within a minute.
const DefaultReconnectGrace = time.Minute

// Handler is the HTTP face of one server.
type Handler struct {
	srv      *server.Server
	cfg      Config
	log      *slog.Logger
	loopback bool
	mux      *http.ServeMux
	pending  *pendingConns
}

// New builds the handler for srv.
func New(srv *server.Server, cfg Config) *Handler {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.MaxPendingConns <= 0 {
		cfg.MaxPendingConns = DefaultMaxPendingConns
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	switch {
	case cfg.ReconnectGrace == 0:
		cfg.ReconnectGrace = DefaultReconnectGrace
	case cfg.ReconnectGrace < 0:
		cfg.ReconnectGrace = 0
	}
	srv.SetReconnectGrace(cfg.ReconnectGrace)
	srv.SetKeyIdleTimeout(cfg.IdleTimeout)
	if cfg.PageToken == "" {
		cfg.PageToken = cfg.Token
	}
	h := &Handler{srv: srv, cfg: cfg, log: log, mux: http.NewServeMux(), pending: newPendingConns(cfg.MaxPendingConns)}
	if tcp, ok := cfg.Addr.(*net.TCPAddr); ok {
		h.loopback = tcp.IP.IsLoopback()
	}
	mcpServer := func(*http.Request) *mcp.Server { return srv.MCP() }
	mcpHandler := mcp.NewStreamableHTTPHandler(mcpServer, &mcp.StreamableHTTPOptions{
		SessionTimeout:      cfg.IdleTimeout,
		MaxRequestBodyBytes: cfg.MaxBodyBytes,
		Logger:              log,
	})
	// The 2026-07-28 revision has no MCP session: its requests go to a
	// handler that keeps none, where a call is cancelled by closing its
	// POST. Who owns a debug session is then told by its reconnect key
	// (server.ReconnectKeyHeader), not by an MCP session.
	sessionless := mcp.NewStreamableHTTPHandler(mcpServer, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		MaxRequestBodyBytes:          cfg.MaxBodyBytes,
		Logger:                       log,
		PropagateRequestCancellation: true,
	})
	static, _ := fs.Sub(webFS, "web")
	front := &mcpFront{next: mcpHandler, sessionless: sessionless, calls: &callRegistry{calls: map[callKey]bool{}}}
	h.mux.Handle("/mcp", h.guard(false, front))
	h.mux.Handle("GET /healthz", h.guard(true, http.HandlerFunc(h.healthz)))
	h.mux.Handle("GET /version", h.guard(false, http.HandlerFunc(h.version)))
	h.mux.Handle("GET /{$}", h.guard(true, http.HandlerFunc(h.page)))
	h.mux.Handle("GET /assets/", h.guard(false, http.StripPrefix("/assets/", http.FileServerFS(static))))
	h.mux.Handle("GET /api/state", h.guard(false, http.HandlerFunc(h.state)))
	h.mux.Handle("GET /api/events", h.guard(false, http.HandlerFunc(h.events)))
	h.mux.Handle("POST /api/control", h.guard(false, http.HandlerFunc(h.control)))
	return h
}

// ServeHTTP routes a request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	h.mux.ServeHTTP(w, r)
}

func (h *Handler) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, map[string]any{"status": "ok"})
}

func (h *Handler) version(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, map[string]any{"name": "mcp-debugger", "version": server.Version, "go": runtime.Version()})
}

// page serves the live page: after the token check, which the page's
// login link (/?token=…) passes by setting the cookie.
func (h *Handler) page(w http.ResponseWriter, r *http.Request) {
	if h.login(w, r) || !h.authorized(w, r) {
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(indexHTML)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}
