package server

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client subscribed to a session's output resource hears when output
// arrives, and reads it; after unsubscribing, and after the session's
// close, it hears nothing more.
func TestOutputResourceSubscription(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := New(Options{Cwd: repoRoot(t)})
	defer srv.Close()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	updated := make(chan string, 64)
	client := mcp.NewClient(&mcp.Implementation{Name: "subscriber", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		},
	})
	// The protocol version today's clients speak (the TypeScript SDK's):
	// resources/subscribe, not the newer subscriptions/listen, which calls
	// the same handlers.
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if caps := cs.InitializeResult().Capabilities; caps.Resources == nil || !caps.Resources.Subscribe {
		t.Fatalf("resources.subscribe is not advertised: %+v", caps.Resources)
	}
	h := &harness{t: t, ctx: ctx, srv: srv, cs: cs}
	id := h.session()
	uri := "debug://sessions/" + id + "/output"
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "debug://sessions/nope/output"}); err == nil {
		t.Error("subscribing to the output of no session should fail")
	}
	h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(t, "output.mock")})
	select {
	case got := <-updated:
		if got != uri {
			t.Errorf("updated %q, want %q", got, uri)
		}
	case <-ctx.Done():
		t.Fatal("no notifications/resources/updated after the program printed")
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(res.Contents) == 0 || res.Contents[0].Text == "" {
		t.Fatalf("read after the update: %v %v", res, err)
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	srv.watches.mu.Lock()
	left := len(srv.watches.byURI)
	srv.watches.mu.Unlock()
	if left != 0 {
		t.Errorf("%d output watches left after unsubscribe and close", left)
	}
}
