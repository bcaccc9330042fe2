package server

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverOnAPipe is a new server connected to an in-memory transport, the
// server, and the client's end of it; both end with the test (or within a minute).
func serverOnAPipe(t *testing.T) (context.Context, *Server, mcp.Transport) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	srv := New(Options{Cwd: repoRoot(t)})
	t.Cleanup(srv.Close)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return ctx, srv, ct
}

// A client subscribed to a session's output resource hears when output
// arrives, and reads it; after unsubscribing, and after the session's
// close, it hears nothing more.
func TestOutputResourceSubscription(t *testing.T) {
	ctx, srv, ct := serverOnAPipe(t)
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

// lockedBuffer collects a LoggingTransport's lines, written from both of
// the connection's directions.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// An open session's output is listed by resources/list (and gone from it
// once closed), and reading it before the program printed answers a
// content with "text": "" on the wire: a content with neither text nor
// blob makes the TypeScript SDK throw.
func TestSessionOutputIsListedAndReadableBeforeItPrints(t *testing.T) {
	ctx, srv, ct := serverOnAPipe(t)
	wire := &lockedBuffer{}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wire-reader", Version: "1"}, nil).
		Connect(ctx, &mcp.LoggingTransport{Transport: ct, Writer: wire}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	h := &harness{t: t, ctx: ctx, srv: srv, cs: cs}
	id := h.session()
	uri := "debug://sessions/" + id + "/output"

	listed := func() []string {
		list, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for _, r := range list.Resources {
			uris = append(uris, r.URI)
		}
		return uris
	}
	if got := listed(); !slices.Contains(got, uri) {
		t.Errorf("resources/list with session %s open: %v, want its output %s", id, got, uri)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "" {
		t.Fatalf("reading the output of a program not started: %+v, %v", res, err)
	}
	if got := wireContents(t, wire.String(), uri); len(got) != 1 || got[0]["text"] == nil || *got[0]["text"] != "" {
		t.Errorf("the empty output's content on the wire: %v, want \"text\": \"\"", got)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	if got := listed(); slices.Contains(got, uri) {
		t.Errorf("resources/list after the close still has %s: %v", uri, got)
	}
}

// wireContents is the contents of the resources/read answer about uri, as
// they went over the wire: each field present, null where absent.
func wireContents(t *testing.T, wire, uri string) []map[string]*string {
	t.Helper()
	for line := range strings.Lines(wire) {
		body, ok := strings.CutPrefix(line, "read: ")
		if !ok || !strings.Contains(body, `"contents"`) {
			continue
		}
		var msg struct {
			Result struct {
				Contents []map[string]*string `json:"contents"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(body), &msg); err != nil {
			t.Fatalf("decoding %s: %v", body, err)
		}
		if len(msg.Result.Contents) > 0 && msg.Result.Contents[0]["uri"] != nil && *msg.Result.Contents[0]["uri"] == uri {
			return msg.Result.Contents
		}
	}
	t.Fatalf("no resources/read answer about %s on the wire:\n%s", uri, wire)
	return nil
}
