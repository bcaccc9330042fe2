package httpserver_test

import (
	"slices"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
)

// listedResources is the URIs a client's resources/list answers.
func (a *agent) listedResources() []string {
	a.t.Helper()
	list, err := a.cs.ListResources(a.ctx, nil)
	if err != nil {
		a.t.Fatalf("resources/list: %v", err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	return uris
}

// resources/list shows each client the output of its own debug sessions
// only: another client's session is not listed until its owner shares it.
func TestResourcesListShowsOnlyTheClientsOwnSessions(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice, bob := l.agent(""), l.agent("")
	id := alice.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	uri := "debug://sessions/" + id + "/output"

	if got := alice.listedResources(); !slices.Contains(got, uri) {
		t.Errorf("alice's resources/list: %v, want her session's output %s", got, uri)
	}
	if got := bob.listedResources(); slices.Contains(got, uri) {
		t.Errorf("bob's resources/list shows alice's session: %v", got)
	}
	alice.ok("share_debug_session", map[string]any{"sessionId": id})
	if got := bob.listedResources(); !slices.Contains(got, uri) {
		t.Errorf("bob's resources/list after alice shared: %v, want %s", got, uri)
	}
}
