package httpserver_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	legacyRevision      = "2025-11-25"
	sessionlessRevision = "2026-07-28"
)

// keyedTransport sends the bearer token (if any) and, once set, the
// reconnect key with every request, as a client configured with both
// headers does.
type keyedTransport struct {
	token string
	mu    sync.Mutex
	key   string
}

func (k *keyedTransport) setKey(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.key = key
}

func (k *keyedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if k.token != "" {
		r.Header.Set("Authorization", "Bearer "+k.token)
	}
	k.mu.Lock()
	if k.key != "" {
		r.Header.Set(server.ReconnectKeyHeader, k.key)
	}
	k.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// revisionClient is a go-sdk client pinned to one MCP revision. A one-shot
// client opens a new MCP session for every call, as MCP Inspector's --cli
// does; the others keep one connection.
type revisionClient struct {
	t        *testing.T
	l        *live
	revision string
	oneShot  bool
	http     *keyedTransport
	kept     *agent
}

func (l *live) revisionClient(t *testing.T, revision, token string, oneShot bool) *revisionClient {
	return &revisionClient{t: t, l: l, revision: revision, oneShot: oneShot, http: &keyedTransport{token: token}}
}

// connect opens an MCP connection on the client's revision and checks the
// server agreed to it (a refused 2026-07-28 falls back to 2025-11-25).
func (c *revisionClient) connect() (*agent, func()) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	client := mcp.NewClient(&mcp.Implementation{Name: "revision-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.l.url + "/mcp", HTTPClient: &http.Client{Transport: c.http}, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: c.revision})
	if err != nil {
		cancel()
		c.t.Fatalf("connecting on %s: %v", c.revision, err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != c.revision {
		cs.Close()
		cancel()
		c.t.Fatalf("the server answered revision %s to a client pinned to %s", got, c.revision)
	}
	return &agent{t: c.t, ctx: ctx, cs: cs}, func() { cs.Close(); cancel() }
}

func (c *revisionClient) agent() (*agent, func()) {
	if !c.oneShot {
		if c.kept == nil {
			a, done := c.connect()
			c.t.Cleanup(done)
			c.kept = a
		}
		return c.kept, func() {}
	}
	return c.connect()
}

func (c *revisionClient) ok(tool string, args map[string]any) result {
	c.t.Helper()
	a, done := c.agent()
	defer done()
	return a.ok(tool, args)
}

func (c *revisionClient) fail(tool string, args map[string]any) result {
	c.t.Helper()
	a, done := c.agent()
	defer done()
	return a.fail(tool, args)
}

// A whole Python debug session over HTTP, from a client on each MCP
// revision: the 2025-11-25 one in its MCP session as before; a
// sessionless 2026-07-28 one by naming its session; and one that opens an
// MCP session per call (MCP Inspector's --cli) with the reconnect key
// create_debug_session gave it in the Mcp-Debugger-Reconnect-Key header.
// The 2026-07-28 client was refused (-32022) and fell back to 2025-11-25;
// the one-shot client's second call was "another client's".
func TestPythonSessionOverHTTPOnEveryRevision(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	prog := program(t, "python", "loop.py")
	for _, c := range []struct {
		name, revision string
		oneShot        bool
	}{
		{"2025-11-25 in one MCP session", legacyRevision, false},
		{"2026-07-28 sessionless", sessionlessRevision, false},
		{"2025-11-25 one MCP session per call", legacyRevision, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := startLive(t, httpserver.Config{})
			cl := l.revisionClient(t, c.revision, "token", c.oneShot)
			created := cl.ok("create_debug_session", map[string]any{"language": "python"})
			id, key := created.str("sessionId"), created.str("reconnectKey")
			if key == "" {
				t.Fatalf("create_debug_session gave no reconnectKey: %v", created)
			}
			if c.oneShot {
				if !strings.Contains(created.str("message"), server.ReconnectKeyHeader) {
					t.Errorf("the answer does not say how a one-shot client keeps the session: %q", created.str("message"))
				}
				cl.http.setKey(key)
			}
			cl.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 16})
			if snap := cl.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); snap.line() != 16 {
				t.Fatalf("start_debugging: %v, want a stop at line 16", snap)
			}
			if snap := cl.ok("continue_execution", map[string]any{"sessionId": id}); snap.line() != 16 {
				t.Fatalf("continue_execution: %v, want the next hit of line 16", snap)
			}
			locals := mustJSON(t, cl.ok("get_local_variables", map[string]any{"sessionId": id}))
			if !strings.Contains(locals, `"name":"i","type":"int","value":"1"`) {
				t.Fatalf("get_local_variables on the second hit: %s, want i = 1", locals)
			}
			cl.ok("close_debug_session", map[string]any{"sessionId": id})
			if _, err := l.srv.DebugSession(id); err == nil {
				t.Fatal("the session is still open after close_debug_session")
			}
		})
	}
}

// pausedMockSession creates a mock session as cl and stops it at line 12;
// it returns the session's id and reconnect key.
func (c *revisionClient) pausedMockSession(t *testing.T) (id, key string) {
	t.Helper()
	created := c.ok("create_debug_session", map[string]any{"language": "mock"})
	id, key = created.str("sessionId"), created.str("reconnectKey")
	prog := program(t, "mock", "basic.mock")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12})
	if snap := c.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); snap.line() != 12 {
		t.Fatalf("start_debugging: %v, want a stop at line 12", snap)
	}
	return id, key
}

// pageState is the live page's data as a client with header sees it.
func (l *live) pageState(t *testing.T, header map[string]string) string {
	t.Helper()
	code, body := get(t, l.url+"/api/state", header)
	if code != http.StatusOK {
		t.Fatalf("/api/state: %d %s", code, body)
	}
	return body
}

// Nobody but a session's owner reaches it, whatever the revision. A
// sessionless client's session is its by its id, which no other client is
// shown: not by list_debug_sessions, resources/list nor the live page,
// and naming it with another credential is refused. A session owned by an
// MCP session or a reconnect key is listed, and refused to clients with
// the same bearer token but without that MCP session or key. No answer
// shows a key; a malformed key is refused before anything runs.
func TestReconnectKeyIsTheOnlyWayIn(t *testing.T) {
	const token = "shared-token"
	l := startLive(t, httpserver.Config{Token: token, PageToken: "page-token"})
	sessionless := l.revisionClient(t, sessionlessRevision, token, false)
	hidden, hiddenKey := sessionless.pausedMockSession(t)
	withKey := l.revisionClient(t, sessionlessRevision, token, true)
	withKey.http.setKey(strings.Repeat("a", 40))
	keyed, _ := withKey.pausedMockSession(t)
	inSession := l.revisionClient(t, legacyRevision, token, false)
	owned, ownedKey := inSession.pausedMockSession(t)

	otherKey := strings.Repeat("k", 40)
	for _, bob := range []struct {
		name, revision, token, key string
	}{
		{"sessionless, no key", sessionlessRevision, token, ""},
		{"sessionless, another key", sessionlessRevision, token, otherKey},
		{"in an MCP session, no key", legacyRevision, token, ""},
		{"in an MCP session, another key", legacyRevision, token, otherKey},
	} {
		cl := l.revisionClient(t, bob.revision, bob.token, false)
		cl.http.setKey(bob.key)
		a, done := cl.agent()
		listed := mustJSON(t, a.ok("list_debug_sessions", nil))
		resources, err := a.cs.ListResources(a.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		done()
		header := map[string]string{"Authorization": "Bearer " + bob.token, server.ReconnectKeyHeader: otherKey}
		page := l.pageState(t, header)
		for _, shown := range []string{listed, mustJSON(t, resources), page} {
			if strings.Contains(shown, hidden) || strings.Contains(shown, hiddenKey) || strings.Contains(shown, ownedKey) {
				t.Errorf("bob (%s) is shown a sessionless client's session or a key: %s", bob.name, shown)
			}
		}
		if !strings.Contains(listed, keyed) || !strings.Contains(listed, owned) {
			t.Errorf("bob (%s) list_debug_sessions: %s, want the sessions owned by a key or an MCP session listed", bob.name, listed)
		}
		for _, id := range []string{keyed, owned} {
			for _, tool := range []string{"step_over", "get_output", "close_debug_session", "share_debug_session"} {
				if refused := cl.fail(tool, map[string]any{"sessionId": id}); !strings.Contains(refused.str("error"), "belongs to another client") {
					t.Errorf("bob (%s) %s on %s: %v, want the ownership refusal", bob.name, tool, id, refused)
				}
			}
			a, done := cl.agent()
			if out, err := a.readOutput(id); err == nil || !strings.Contains(err.Error(), "belongs to another client") {
				t.Errorf("bob (%s) reading the output resource of %s: %q, %v", bob.name, id, out, err)
			}
			done()
		}
	}
	for _, owner := range []struct {
		cl *revisionClient
		id string
	}{{sessionless, hidden}, {withKey, keyed}, {inSession, owned}} {
		if snap := owner.cl.ok("step_over", map[string]any{"sessionId": owner.id}); snap.line() != 13 {
			t.Fatalf("the owner's step_over after the refusals: %v, want line 13", snap)
		}
	}

	req, err := http.NewRequest("POST", l.url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", sessionlessRevision)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(server.ReconnectKeyHeader, "short")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), server.ReconnectKeyHeader) {
		t.Fatalf("a malformed key: %d %s, want 400 naming the header", resp.StatusCode, body)
	}
}

// A sessionless client's session id, or its key, learned by one with
// another credential (a server whose bearer token changed) opens nothing.
func TestSessionIDNeedsItsCreatorsCredential(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice := l.revisionClient(t, sessionlessRevision, "alice-token", false)
	id, key := alice.pausedMockSession(t)
	for _, presented := range []string{"", key} {
		mallory := l.revisionClient(t, sessionlessRevision, "other-token", false)
		mallory.http.setKey(presented)
		if refused := mallory.fail("step_over", map[string]any{"sessionId": id}); !strings.Contains(refused.str("error"), "belongs to another client") {
			t.Errorf("another credential (key %q) naming alice's session: %v", presented, refused)
		}
	}
	if snap := alice.ok("step_over", map[string]any{"sessionId": id}); snap.line() != 13 {
		t.Fatalf("alice's step_over after the refusals: %v, want line 13", snap)
	}
}

// A one-shot client's session outlives the MCP session that created it
// once a call presented its key (the reconnect grace period would have
// closed it), and closes when no call presented the key for the idle
// timeout.
func TestKeyHeldSessionLivesUntilItsKeyIsIdle(t *testing.T) {
	const grace, idle = 100 * time.Millisecond, 2 * time.Second
	l := startLive(t, httpserver.Config{ReconnectGrace: grace, IdleTimeout: idle})
	cl := l.revisionClient(t, legacyRevision, "token", true)
	created := cl.ok("create_debug_session", map[string]any{"language": "mock"})
	id := created.str("sessionId")
	cl.http.setKey(created.str("reconnectKey"))
	prog := program(t, "mock", "basic.mock")
	cl.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12})
	lastUse := time.Now()
	cl.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	waitReaped(t, l, id, 10*idle)
	if held := time.Since(lastUse); held < idle {
		t.Fatalf("the session closed %v after its key was last presented, before the idle timeout %v", held, idle)
	}
	calls, _ := l.srv.Timeline(1000)
	for _, c := range calls {
		if c.SessionID == id && !c.OK {
			t.Errorf("a call on the session failed: %+v", c)
		}
	}
}

// A call presenting a session's key from another MCP session (a one-shot
// call of the same agent) leaves the creator's MCP session its owner.
func TestCreatorKeepsItsSessionAfterAKeyedCall(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	creator := l.revisionClient(t, legacyRevision, "token", false)
	id, key := creator.pausedMockSession(t)
	oneShot := l.revisionClient(t, legacyRevision, "token", true)
	oneShot.http.setKey(key)
	if snap := oneShot.ok("step_over", map[string]any{"sessionId": id}); snap.line() != 13 {
		t.Fatalf("the keyed call's step_over: %v, want line 13", snap)
	}
	if snap := creator.ok("step_over", map[string]any{"sessionId": id}); snap.line() != 11 {
		t.Fatalf("the creator's step_over after the keyed call: %v, want line 11", snap)
	}
}

// On the sessionless revision a call reports progress on its own POST, and
// closing that POST cancels it: the server stops waiting long before the
// call's timeout, and the session goes on.
func TestSessionlessCallReportsProgressAndIsCancelled(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	progressed := make(chan struct{}, 1)
	client := mcp.NewClient(&mcp.Implementation{Name: "cancel-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			select {
			case progressed <- struct{}{}:
			default:
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: l.url + "/mcp", HTTPClient: &http.Client{Transport: &keyedTransport{token: "token"}}, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: sessionlessRevision})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	a := &agent{t: t, ctx: ctx, cs: cs}
	id := a.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program(t, "mock", "sleep.mock"), "stopOnEntry": true})

	// The program sleeps 60 s: the call waits for a stop, reporting
	// progress each second, until the client gives up.
	callCtx, giveUp := context.WithCancel(ctx)
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		params := &mcp.CallToolParams{Name: "continue_execution", Arguments: map[string]any{"sessionId": id, "timeout": 30000}}
		params.SetProgressToken("p1")
		_, err := cs.CallTool(callCtx, params)
		done <- err
	}()
	select {
	case <-progressed:
	case err := <-done:
		t.Fatalf("the call ended before any progress: %v", err)
	case <-ctx.Done():
		t.Fatal("no progress notification on the sessionless call")
	}
	giveUp()
	if err := <-done; err == nil {
		t.Fatal("the cancelled call answered")
	}
	calls, changed := l.srv.Timeline(1000)
	for !finished(calls, "continue_execution") {
		select {
		case <-changed:
			calls, changed = l.srv.Timeline(1000)
		case <-time.After(20 * time.Second):
			t.Fatalf("the server still waits %v after the client closed the call", time.Since(start))
		}
	}
	if paused := a.ok("pause_execution", map[string]any{"sessionId": id}); paused.str("state") != "paused" {
		t.Errorf("the session should go on after the cancel: %v", paused)
	}
}

// finished reports whether the timeline has an entry for tool, which is
// written when the call returns.
func finished(calls []server.ToolCall, tool string) bool {
	for _, c := range calls {
		if c.Tool == tool {
			return true
		}
	}
	return false
}
