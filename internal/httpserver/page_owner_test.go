package httpserver_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
)

// The live page's data is guarded like the session's tools: a client with
// the bearer token sees its own sessions on /api/state and /api/events,
// never another's locals, stack or output.
func TestPageDataOwnedLikeTools(t *testing.T) {
	const token = "test-token-0123456789"
	l := startLive(t, httpserver.Config{Token: token})
	alice, bob := l.agent(token), l.agent(token)
	id := alice.pausedMock(t)
	auth := "Bearer " + token
	for _, path := range []string{"/api/state?session=" + id, "/api/state", "/api/events?session=" + id} {
		for who, header := range map[string]map[string]string{
			"a client naming no MCP session": {"Authorization": auth},
			"another client":                 {"Authorization": auth, "Mcp-Session-Id": bob.cs.ID()},
		} {
			code, body := getBounded(t, l.url+path, header)
			if code == http.StatusOK && (strings.Contains(body, `"view"`) || strings.Contains(body, id+`"`) && strings.Contains(body, `"selected"`)) {
				t.Fatalf("GET %s by %s: %d, showing alice's session: %.300s", path, who, code, body)
			}
		}
	}
	code, body := getBounded(t, l.url+"/api/state?session="+id, map[string]string{"Authorization": auth, "Mcp-Session-Id": alice.cs.ID()})
	if code != http.StatusOK || !strings.Contains(body, `"selected":"`+id+`"`) || !strings.Contains(body, `"view"`) {
		t.Fatalf("alice's own /api/state: %d %.300s", code, body)
	}
}

// The page's own credential is not the MCP clients' token: the token does
// not log in to the page, the page's token does, and its cookie shows
// every session.
func TestPageLoginNeedsThePageToken(t *testing.T) {
	const token, pageToken = "test-token-0123456789", "page-token-9876543210"
	l := startLive(t, httpserver.Config{Token: token, PageToken: pageToken})
	id := l.agent(token).pausedMock(t)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(l.url + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Fatalf("login with the clients' token: %d, cookies %v; want 401 and none", resp.StatusCode, resp.Cookies())
	}
	if resp, err = noRedirect.Get(l.url + "/?token=" + pageToken); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("login with the page's token: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	code, body := getBounded(t, l.url+"/api/state?session="+id, map[string]string{"Cookie": resp.Cookies()[0].String()})
	if code != http.StatusOK || !strings.Contains(body, `"selected":"`+id+`"`) {
		t.Fatalf("the page's /api/state: %d %.300s", code, body)
	}
	if code, _ := getBounded(t, l.url+"/api/state", map[string]string{"Cookie": "mcp_debugger_token=" + token}); code != http.StatusUnauthorized {
		t.Fatalf("the clients' token as the page's cookie: %d, want 401", code)
	}
}

// getBounded GETs url and reads at most a second of its body: enough for
// /api/state, and the first state of /api/events, which never ends.
func getBounded(t *testing.T, url string, header map[string]string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil || (strings.Contains(url, "/api/events") && strings.Contains(b.String(), "\n\n")) {
			break
		}
	}
	return resp.StatusCode, b.String()
}

// Behind a TLS proxy the server sees plain HTTP; told so, it marks the
// page's login cookie Secure, so the browser never sends it unencrypted.
func TestPageCookieSecureBehindTLS(t *testing.T) {
	const token = "test-token-0123456789"
	l := startLive(t, httpserver.Config{Token: token, SecureCookie: true})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(l.url + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(resp.Cookies()) != 1 || !resp.Cookies()[0].Secure {
		t.Fatalf("login cookie behind TLS: %v, want one, Secure", resp.Cookies())
	}
}
