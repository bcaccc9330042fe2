package httpserver

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// tokenCookie carries the page's token (Config.PageToken) for the page's
// own requests (EventSource cannot set headers). HttpOnly and SameSite=Strict: scripts cannot read
// it and other sites cannot make the browser send it.
const tokenCookie = "mcp_debugger_token"

// NewToken returns a random bearer token.
func NewToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generating a token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// IsLoopbackHost reports whether a host (a name or an IP, no port) can
// only be reached from this machine.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// guard applies, in order: the Host check (DNS rebinding), the Origin
// check, the token, and the body cap. What it refuses it answers with a
// bare status and a word, telling nothing about the server.
func (h *Handler) guard(open bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.hostAllowed(r.Host) {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !h.originAllowed(origin, r.Host) {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		authenticated := h.tokenValid(r)
		h.admitConn(w, r, authenticated)
		if !open && !authenticated {
			h.unauthorized(w)
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, h.cfg.MaxBodyBytes)
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed refuses, on a loopback listener, a Host header naming
// anything but this machine: a DNS-rebinding page reaches 127.0.0.1 under
// its own name.
func (h *Handler) hostAllowed(hostport string) bool {
	if !h.loopback {
		return true
	}
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	return IsLoopbackHost(host)
}

// originAllowed accepts the server's own origin and the configured ones.
// Browsers send Origin on every cross-site request and on same-origin
// POSTs; tools that are not browsers send none.
func (h *Handler) originAllowed(origin, host string) bool {
	if slices.Contains(h.cfg.AllowOrigins, origin) || slices.Contains(h.cfg.AllowOrigins, "*") {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	// Same origin: the host the request was sent to (already vetted by
	// hostAllowed on loopback; behind a token otherwise).
	return strings.EqualFold(u.Host, host)
}

// authorized checks the bearer token, answering 401 when it is missing or
// wrong.
func (h *Handler) authorized(w http.ResponseWriter, r *http.Request) bool {
	if !h.tokenValid(r) {
		h.unauthorized(w)
		return false
	}
	return true
}

// tokenValid reports whether r carries a credential: the bearer token,
// the page's cookie, or none is configured.
func (h *Handler) tokenValid(r *http.Request) bool { return h.access(r) != noAccess }

// access is what a request's credential lets it see of the debug sessions.
type access int

const (
	noAccess access = iota
	// clientAccess is an MCP client's, with the bearer token: the
	// sessions it may use, as its tools may.
	clientAccess
	// ownerAccess is the page's person's (Config.PageToken), or anyone's
	// when no token is configured: every session.
	ownerAccess
)

// access finds r's credential: the page's cookie, else the bearer token.
func (h *Handler) access(r *http.Request) access {
	if h.cfg.Token == "" {
		return ownerAccess
	}
	if c, err := r.Cookie(tokenCookie); err == nil && equalSecret(c.Value, h.cfg.PageToken) {
		return ownerAccess
	}
	if auth := r.Header.Get("Authorization"); len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") && equalSecret(strings.TrimSpace(auth[7:]), h.cfg.Token) {
		return clientAccess
	}
	return noAccess
}

// equalSecret compares a secret a request sent with ours in constant time.
func equalSecret(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// unauthorized answers 401 with Config.TokenHint, which says how to get
// in, and closes the connection: a stranger's connection is not kept
// alive for its next try.
func (h *Handler) unauthorized(w http.ResponseWriter) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="mcp-debugger"`)
	w.Header().Set("Connection", "close")
	msg := "unauthorized"
	if h.cfg.TokenHint != "" {
		msg += ": " + h.cfg.TokenHint
	}
	http.Error(w, msg, http.StatusUnauthorized)
}

// login turns /?token=PAGETOKEN (the link printed at start) into the
// page's cookie and sends the browser on to the bare URL, so that the
// token leaves the address bar at once.
func (h *Handler) login(w http.ResponseWriter, r *http.Request) bool {
	token := r.URL.Query().Get("token")
	if token == "" || h.cfg.Token == "" || r.URL.Path != "/" {
		return false
	}
	if !equalSecret(token, h.cfg.PageToken) {
		h.unauthorized(w)
		return true
	}
	http.SetCookie(w, &http.Cookie{
		Name:     tokenCookie,
		Value:    token,
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		Secure:   r.TLS != nil || h.cfg.SecureCookie,
		Expires:  time.Now().Add(7 * 24 * time.Hour),
	})
	http.Redirect(w, r, "/", http.StatusSeeOther)
	return true
}
