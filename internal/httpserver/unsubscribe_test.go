package httpserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// subscriber connects a client that reports each notifications/resources/updated
// on the channel it returns.
func (l *live) subscriber(t *testing.T) (*agent, <-chan string) {
	t.Helper()
	updated := make(chan string, 64)
	client := mcp.NewClient(&mcp.Implementation{Name: "subscriber", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updated <- req.Params.URI:
			default:
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	// The protocol version today's clients speak: resources/subscribe.
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: l.url + "/mcp", HTTPClient: httpClient(""), MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return &agent{t: t, ctx: ctx, cs: cs}, updated
}

// Another client's resources/unsubscribe once ended alice's subscription
// to her own session's output (the watch counted subscriptions, not
// subscribers): it ends only the caller's own, and alice still hears.
func TestUnsubscribeEndsOnlyTheCallersOwnSubscription(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice, updated := l.subscriber(t)
	bob := l.agent("")
	id := alice.pausedMock(t)
	uri := "debug://sessions/" + id + "/output"
	if err := alice.cs.Subscribe(alice.ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_ = bob.cs.Unsubscribe(bob.ctx, &mcp.UnsubscribeParams{URI: uri})
	}
	alice.ok("step_over", map[string]any{"sessionId": id}) // prints "weigh 1"
	select {
	case got := <-updated:
		if got != uri {
			t.Fatalf("alice was told of %q, want %q", got, uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("alice heard nothing of her program's output after bob's unsubscribe")
	}
}
