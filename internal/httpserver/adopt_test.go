package httpserver_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

const adoptToken = "adopt-test-token"

// pausedMockWithKey is pausedMock that also returns the reconnect key
// create_debug_session gave the client.
func (a *agent) pausedMockWithKey(t *testing.T) (id, key string) {
	t.Helper()
	created := a.ok("create_debug_session", map[string]any{"language": "mock"})
	id, key = created.str("sessionId"), created.str("reconnectKey")
	if key == "" {
		t.Fatalf("create_debug_session over HTTP gave no reconnectKey: %v", created)
	}
	prog := program(t, "mock", "basic.mock")
	a.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12})
	if snap := a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); snap.line() != 12 {
		t.Fatalf("want paused at line 12, got %v", snap)
	}
	return id, key
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// adopted is the list of session ids an adopting list_debug_sessions took.
func adopted(r result) []string {
	var ids []string
	raw, _ := r["adopted"].([]any)
	for _, v := range raw {
		s, _ := v.(string)
		ids = append(ids, s)
	}
	return ids
}

// waitHeld waits, on the timeline, until the server has noticed that the
// client owning a debug session left and holds the session for adoption.
func waitHeld(t *testing.T, l *live, id string, within time.Duration) {
	t.Helper()
	waitTimeline(t, l, server.HeldTool, id, within)
}

// reapedBy returns the short client id of the timeline entry that closed
// a debug session, waiting for it.
func reapedBy(t *testing.T, l *live, id string, within time.Duration) string {
	t.Helper()
	waitReaped(t, l, id, within)
	calls, _ := l.srv.Timeline(1000)
	for _, c := range calls {
		if c.Tool == server.ReapedTool && c.SessionID == id {
			return c.Client
		}
	}
	return ""
}

// A client that reconnects (a new MCP session, its old one not yet gone)
// takes its debug session back with the reconnect key and goes on where
// it was; another client with the same token but no key cannot, and the
// old MCP session loses it.
func TestReconnectedClientAdoptsItsSession(t *testing.T) {
	l := startLive(t, httpserver.Config{Token: adoptToken})
	alice := l.agent(adoptToken)
	id, key := alice.pausedMockWithKey(t)

	again := l.agent(adoptToken)
	if refused := again.fail("step_over", map[string]any{"sessionId": id}); !strings.Contains(refused.str("error"), "belongs to another client") ||
		!strings.Contains(refused.str("hint"), "adopt") {
		t.Fatalf("a reconnected client before adopting: %v, want the ownership refusal pointing at adopt", refused)
	}

	bob := l.agent(adoptToken)
	for _, guess := range []string{"", "not-the-key", id, key[:len(key)-1]} {
		refused := bob.fail("list_debug_sessions", map[string]any{"adopt": guess})
		if !strings.Contains(refused.str("error"), "reconnect key") || strings.Contains(refused.str("error"), id) || refused.str("hint") == "" {
			t.Fatalf("bob adopting with %q: %v, want a refusal that says what to do and names no session", guess, refused)
		}
	}
	if refused := bob.fail("step_over", map[string]any{"sessionId": id}); !strings.Contains(refused.str("error"), "belongs to another client") {
		t.Fatalf("bob after his failed adoptions: %v", refused)
	}
	if listed := bob.ok("list_debug_sessions", nil); strings.Contains(mustJSON(t, listed), key) {
		t.Fatalf("another client's list_debug_sessions shows the reconnect key: %v", listed)
	}

	took := again.ok("list_debug_sessions", map[string]any{"adopt": key})
	if got := adopted(took); len(got) != 1 || got[0] != id {
		t.Fatalf("adopting with the key took %v, want [%s]: %v", got, id, took)
	}
	if snap := again.ok("step_over", map[string]any{"sessionId": id}); snap.line() != 13 {
		t.Fatalf("the adopted session's step: %v, want line 13", snap)
	}
	if refused := alice.fail("step_over", map[string]any{"sessionId": id}); !strings.Contains(refused.str("error"), "belongs to another client") {
		t.Fatalf("the old MCP session still drives the adopted session: %v", refused)
	}
	if refused := bob.fail("list_debug_sessions", map[string]any{"adopt": "not-the-key"}); strings.Contains(refused.str("error"), id) {
		t.Fatalf("bob's refusal names a session: %v", refused)
	}

	// The key stays the client's: sessions it creates after adopting come
	// back with the same key on the next reconnect.
	created := again.ok("create_debug_session", map[string]any{"language": "mock"})
	if created.str("reconnectKey") != key {
		t.Fatalf("a session created after adopting has key %q, want the adopted key", created.str("reconnectKey"))
	}
	third := l.agent(adoptToken)
	if got := adopted(third.ok("list_debug_sessions", map[string]any{"adopt": key})); len(got) != 2 {
		t.Fatalf("the second reconnect adopted %v, want both sessions", got)
	}
}

// A client that ends its MCP session (HTTP DELETE) has its debug sessions
// held for the grace period: adopted in it, they live on; not adopted,
// they are closed when it ends.
func TestDeletedClientSessionsWaitForAdoptionThenEnd(t *testing.T) {
	const grace = 1500 * time.Millisecond
	l := startLive(t, httpserver.Config{ReconnectGrace: grace})
	alice := l.agent("")
	kept, key := alice.pausedMockWithKey(t)
	left := alice.pausedMock(t)
	_ = alice.cs.Close() // DELETE /mcp
	waitHeld(t, l, kept, 10*time.Second)
	if _, err := l.srv.DebugSession(kept); err != nil {
		t.Fatalf("the departed client's session was closed at once, before the grace period: %v", err)
	}

	again := l.agent("")
	if got := adopted(again.ok("list_debug_sessions", map[string]any{"adopt": key})); len(got) != 2 {
		t.Fatalf("adopting during the grace period took %v, want both sessions", got)
	}
	again.ok("close_debug_session", map[string]any{"sessionId": left})
	if snap := again.ok("step_over", map[string]any{"sessionId": kept}); snap.line() != 13 {
		t.Fatalf("the adopted session's step: %v", snap)
	}

	closedAt := time.Now()
	_ = again.cs.Close()
	// Reaped by the second client's departure, not by the first one's
	// grace timer, which fires in between and must spare it.
	if by := reapedBy(t, l, kept, grace+10*time.Second); by == "" || by == shortClient(alice) {
		t.Fatalf("the adopted session was reaped on behalf of %q, the client that had left it", by)
	}
	if waited := time.Since(closedAt); waited < grace {
		t.Fatalf("reaped %v after its client left, before the %v grace period", waited, grace)
	}
	if _, err := l.srv.DebugSession(kept); err == nil {
		t.Fatal("the reaped session is still listed")
	}
}

// shortClient is a client's id as the timeline shows it.
func shortClient(a *agent) string {
	id := a.cs.ID()
	if len(id) > 6 {
		return id[:6]
	}
	return id
}

// On a real adapter: the reconnected client adopts a Python session and
// continues it; once it leaves, the grace period ends the adapter and the
// program with the session.
func TestAdoptedPythonSessionContinuesAndEnds(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	l := startLive(t, httpserver.Config{Token: adoptToken, ReconnectGrace: time.Second})
	before := len(proc.Descendants(os.Getpid()))
	alice := l.agent(adoptToken)
	created := alice.ok("create_debug_session", map[string]any{"language": "python"})
	id, key := created.str("sessionId"), created.str("reconnectKey")
	kids := alice.pausedPython(t, id, before)

	bob := l.agent(adoptToken)
	bob.fail("list_debug_sessions", map[string]any{"adopt": id})
	again := l.agent(adoptToken)
	if got := adopted(again.ok("list_debug_sessions", map[string]any{"adopt": key})); len(got) != 1 || got[0] != id {
		t.Fatalf("adopted %v, want [%s]", got, id)
	}
	snap := again.ok("continue_execution", map[string]any{"sessionId": id})
	if snap.line() != 16 {
		t.Fatalf("the adopted session's continue: %v, want the next stop at line 16", snap)
	}
	if vars := mustJSON(t, again.ok("get_local_variables", map[string]any{"sessionId": id})); !strings.Contains(vars, `"i"`) {
		t.Fatalf("the adopted session's locals: %s", vars)
	}

	_ = alice.cs.Close()
	_ = again.cs.Close()
	waitReaped(t, l, id, 30*time.Second)
	for _, pid := range kids {
		if proc.Alive(pid) {
			t.Errorf("process %d survived the end of its adopted session", pid)
		}
	}
}

// The key alone is not enough: a client that sends another credential
// (any Authorization header passes a server without a token) is refused
// even with the right key, and the creator, with its own, is not.
func TestAdoptNeedsTheCreatorsCredential(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice := l.agent("alice-credential")
	id, key := alice.pausedMockWithKey(t)

	for _, other := range []string{"mallory-credential", ""} {
		refused := l.agent(other).fail("list_debug_sessions", map[string]any{"adopt": key})
		if !strings.Contains(refused.str("error"), "reconnect key") || strings.Contains(refused.str("error"), id) {
			t.Fatalf("a client with credential %q adopting with alice's key: %v, want the refusal", other, refused)
		}
	}
	again := l.agent("alice-credential")
	if got := adopted(again.ok("list_debug_sessions", map[string]any{"adopt": key})); len(got) != 1 || got[0] != id {
		t.Fatalf("alice, reconnected with her credential, adopted %v, want [%s]", got, id)
	}
}

// vanishing is an HTTP transport whose client can disappear without a
// word, as a client process that is killed or loses its network: its open
// streams break and nothing it sends arrives any more.
type vanishing struct {
	base   http.RoundTripper
	mu     sync.Mutex
	gone   bool
	bodies []io.Closer
}

func (v *vanishing) RoundTrip(r *http.Request) (*http.Response, error) {
	v.mu.Lock()
	gone := v.gone
	v.mu.Unlock()
	if gone {
		return nil, errors.New("the client is gone")
	}
	resp, err := v.base.RoundTrip(r)
	if err == nil {
		v.mu.Lock()
		v.bodies = append(v.bodies, resp.Body)
		v.mu.Unlock()
	}
	return resp, err
}

func (v *vanishing) vanish() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.gone = true
	for _, b := range v.bodies {
		_ = b.Close()
	}
}

// With keep-alive on, a client that vanishes without a DELETE stops
// answering the server's pings: its MCP session ends and its debug
// sessions follow after the grace period, long before the idle timeout;
// a client that answers keeps its own.
func TestVanishedClientIsFoundByKeepAlive(t *testing.T) {
	l := startLiveServer(t, httpserver.Config{IdleTimeout: time.Hour, ReconnectGrace: 200 * time.Millisecond}, server.Options{KeepAlive: 2 * time.Second})
	tr := &vanishing{base: http.DefaultTransport}
	gone, err := l.connectWith(&http.Client{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	stays := l.agent("")
	goneID := gone.pausedMock(t)
	staysID := stays.pausedMock(t)

	tr.vanish()
	waitReaped(t, l, goneID, 30*time.Second)
	if snap := stays.ok("step_over", map[string]any{"sessionId": staysID}); snap.line() != 13 {
		t.Fatalf("the client that answers the pings lost its session: %v", snap)
	}
}
