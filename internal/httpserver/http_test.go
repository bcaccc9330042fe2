package httpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// Two agents share one server: both see every session, only the creator
// drives it, until it shares it.
func TestTwoClientsOwnSessions(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice, bob := l.agent(""), l.agent("")
	id := alice.pausedMock(t)

	listed := bob.ok("list_debug_sessions", nil)
	if sessions, _ := listed["sessions"].([]any); len(sessions) != 1 || sessions[0].(map[string]any)["id"] != id {
		t.Fatalf("bob's list_debug_sessions = %v, want alice's session %s", listed, id)
	}
	for _, tool := range []string{"step_over", "get_local_variables", "close_debug_session", "expose_session", "share_debug_session"} {
		refused := bob.fail(tool, map[string]any{"sessionId": id})
		if !strings.Contains(refused.str("error"), "belongs to another client") || refused.str("hint") == "" {
			t.Fatalf("bob's %s: %v, want a refusal naming the owner rule with a hint", tool, refused)
		}
	}
	// Bob's attempts changed nothing: alice's program is where it was.
	if snap := alice.ok("step_over", map[string]any{"sessionId": id}); snap.line() != 13 {
		t.Fatalf("alice's step_over after bob's refusals: %v", snap)
	}

	alice.ok("share_debug_session", map[string]any{"sessionId": id})
	if snap := bob.ok("continue_execution", map[string]any{"sessionId": id}); snap.line() != 12 {
		t.Fatalf("bob's continue on the shared session: %v, want the next hit at line 12", snap)
	}
	if refused := bob.fail("share_debug_session", map[string]any{"sessionId": id, "shared": false}); !strings.Contains(refused.str("error"), "belongs to another client") {
		t.Fatalf("bob unsharing alice's session: %v", refused)
	}
}

func get(t *testing.T, url string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestTokenOriginAndHost(t *testing.T) {
	const token = "test-token-0123456789"
	l := startLive(t, httpserver.Config{Token: token, AllowOrigins: []string{"http://ide.example"}})
	auth := "Bearer " + token
	for _, c := range []struct {
		name   string
		path   string
		header map[string]string
		want   int
	}{
		{"health needs no token", "/healthz", nil, 200},
		{"no token", "/version", nil, 401},
		{"wrong token", "/version", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"token", "/version", map[string]string{"Authorization": auth}, 200},
		{"page without token", "/", nil, 401},
		{"state without token", "/api/state", nil, 401},
		{"events without token", "/api/events", nil, 401},
		{"assets without token", "/assets/app.js", nil, 401},
		{"mcp without token", "/mcp", map[string]string{"Accept": "text/event-stream"}, 401},
		{"foreign origin", "/version", map[string]string{"Authorization": auth, "Origin": "http://evil.example"}, 403},
		{"foreign origin, health", "/healthz", map[string]string{"Origin": "http://evil.example"}, 403},
		{"allowed origin", "/version", map[string]string{"Authorization": auth, "Origin": "http://ide.example"}, 200},
		{"own origin", "/version", map[string]string{"Authorization": auth, "Origin": l.url}, 200},
		{"rebound host", "/healthz", map[string]string{"Host": "evil.example:80"}, 403},
	} {
		code, body := get(t, l.url+c.path, c.header)
		if code != c.want {
			t.Errorf("%s: GET %s = %d %q, want %d", c.name, c.path, code, body, c.want)
		}
		if code == 401 || code == 403 {
			if strings.Contains(body, "mcp-debugger") || strings.Contains(body, "version") || len(body) > 20 {
				t.Errorf("%s: refusal body %q says more than a word", c.name, body)
			}
		}
	}

	if _, err := l.connect(""); err == nil {
		t.Fatal("an MCP client without the token connected")
	}
	if _, err := l.connect("wrong"); err == nil {
		t.Fatal("an MCP client with a wrong token connected")
	}
	a := l.agent(token)
	a.ok("list_debug_sessions", nil)

	// The login link sets the page's cookie and drops the token from the URL.
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(l.url + "/?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || len(resp.Cookies()) != 1 || !resp.Cookies()[0].HttpOnly {
		t.Fatalf("login link: %d, Location %q, cookies %v", resp.StatusCode, resp.Header.Get("Location"), resp.Cookies())
	}
	if code, _ := get(t, l.url+"/api/state", map[string]string{"Cookie": resp.Cookies()[0].String()}); code != 200 {
		t.Fatalf("state with the page's cookie: %d", code)
	}
}

func TestBodyCap(t *testing.T) {
	l := startLive(t, httpserver.Config{MaxBodyBytes: 64 << 10})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", 128<<10) + `"}}`
	req, _ := http.NewRequest("POST", l.url+"/mcp", bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 128 KiB body against a 64 KiB cap: %d, want 413", resp.StatusCode)
	}
}

// waitReaped waits, on the timeline's notifications, until the server has
// closed a session because its client left.
func waitReaped(t *testing.T, l *live, id string, within time.Duration) {
	t.Helper()
	waitTimeline(t, l, server.ReapedTool, id, within)
}

// waitTimeline waits, on the timeline's notifications, for an entry of
// tool about the debug session id.
func waitTimeline(t *testing.T, l *live, tool, id string, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		calls, changed := l.srv.Timeline(1000)
		for _, c := range calls {
			if c.Tool == tool && c.SessionID == id {
				return
			}
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no %s entry for session %s within %v", tool, id, within)
		}
	}
}

// An agent that goes quiet loses its MCP session after the idle timeout,
// and its debug session with it; another agent's session is untouched.
func TestIdleClientIsReaped(t *testing.T) {
	l := startLive(t, httpserver.Config{IdleTimeout: 300 * time.Millisecond, ReconnectGrace: 200 * time.Millisecond})
	idle := l.agent("")
	id := idle.pausedMock(t)
	waitReaped(t, l, id, 10*time.Second)
	if _, err := l.srv.DebugSession(id); err == nil {
		t.Fatal("the reaped client's debug session is still listed")
	}
	if _, err := idle.cs.CallTool(context.Background(), nil); err == nil {
		t.Fatal("the reaped client's MCP session still answers")
	}
}

// Reaping kills what the debug session started: the adapter and the
// program.
func TestIdleClientIsReapedPython(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	l := startLive(t, httpserver.Config{IdleTimeout: 2 * time.Second, ReconnectGrace: 200 * time.Millisecond})
	before := len(proc.Descendants(os.Getpid()))
	a := l.agent("")
	id := a.ok("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	kids := a.pausedPython(t, id, before)
	waitReaped(t, l, id, 20*time.Second)
	for _, pid := range kids {
		if proc.Alive(pid) {
			t.Errorf("process %d survived the reaping of its client", pid)
		}
	}
}

func postControl(t *testing.T, l *live, origin string, body string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", l.url+"/api/control", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// The page's buttons work only when the server allows human control, and
// only from the page's own origin; the agent sees what the person did.
func TestHumanControl(t *testing.T) {
	readOnly := startLive(t, httpserver.Config{})
	id := readOnly.agent("").pausedMock(t)
	if code := postControl(t, readOnly, readOnly.url, `{"sessionId":"`+id+`","action":"step_over"}`); code != http.StatusForbidden {
		t.Fatalf("a step on a read-only page: %d, want 403", code)
	}

	l := startLive(t, httpserver.Config{AllowHumanControl: true})
	a := l.agent("")
	id = a.pausedMock(t)
	step := `{"sessionId":"` + id + `","action":"step_over"}`
	if code := postControl(t, l, "http://evil.example", step); code != http.StatusForbidden {
		t.Fatalf("a step posted from a foreign origin: %d, want 403", code)
	}
	if snap := a.ok("wait_for_stop", map[string]any{"sessionId": id}); snap.line() != 12 {
		t.Fatalf("the refused step moved the program: %v", snap)
	}
	if code := postControl(t, l, l.url, step); code != http.StatusOK {
		t.Fatalf("a step from the page: %d", code)
	}
	if snap := a.ok("wait_for_stop", map[string]any{"sessionId": id}); snap.line() != 13 {
		t.Fatalf("after the person's step the agent sees %v", snap)
	}
	calls, _ := l.srv.Timeline(2)
	if len(calls) != 2 || calls[0].Client != "human" || calls[0].Tool != "step_over" || !calls[0].OK {
		t.Fatalf("timeline tail: %+v", calls)
	}
}

// Streamable HTTP: a POST that is not initialize and carries no
// Mcp-Session-Id is answered 400, with a JSON-RPC error that says to
// initialize first; initialize itself still opens a session.
func TestRequestWithoutSessionIsBadRequest(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list_debug_sessions","arguments":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	} {
		req, _ := http.NewRequest("POST", l.url+"/mcp", bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s without Mcp-Session-Id: HTTP %d, want 400: %s", body, resp.StatusCode, answer)
			continue
		}
		var msg struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(answer, &msg); err != nil || msg.Error.Code != -32600 || !strings.Contains(msg.Error.Message, `send "initialize" first`) {
			t.Errorf("%s without Mcp-Session-Id: body %s, want a JSON-RPC error -32600 saying to initialize first", body, answer)
		}
	}
	l.agent("").ok("list_debug_sessions", map[string]any{})
}
