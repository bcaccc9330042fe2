package httpserver_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/mirror"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readOutput reads a session's output resource.
func (a *agent) readOutput(id string) (string, error) {
	res, err := a.cs.ReadResource(a.ctx, &mcp.ReadResourceParams{URI: "debug://sessions/" + id + "/output"})
	if err != nil {
		return "", err
	}
	if len(res.Contents) != 1 {
		a.t.Fatalf("resources/read of %s: %d contents, want 1", id, len(res.Contents))
	}
	return res.Contents[0].Text, nil
}

// The output resource follows the rule get_output follows: another
// client's program output is refused until its owner shares the session.
func TestForeignOutputResourceIsRefused(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice, bob := l.agent(""), l.agent("")
	id := alice.pausedMock(t)
	alice.ok("step_over", map[string]any{"sessionId": id}) // prints "weigh 1"

	if out, err := alice.readOutput(id); err != nil || !strings.Contains(out, "weigh 1") {
		t.Fatalf("alice reading her own output: %q, %v", out, err)
	}
	if refused := bob.fail("get_output", map[string]any{"sessionId": id}); !strings.Contains(refused.str("error"), "belongs to another client") {
		t.Fatalf("bob's get_output on alice's session: %v", refused)
	}
	if out, err := bob.readOutput(id); err == nil || !strings.Contains(err.Error(), "belongs to another client") || strings.Contains(err.Error(), "weigh") {
		t.Fatalf("bob reading alice's output resource: %q, %v; want the ownership refusal", out, err)
	}

	alice.ok("share_debug_session", map[string]any{"sessionId": id})
	if out, err := bob.readOutput(id); err != nil || !strings.Contains(out, "weigh 1") {
		t.Fatalf("bob reading alice's shared output: %q, %v", out, err)
	}
}

// attachMirror connects to an IDE mirror and attaches with args, as VS
// Code attaches with a launch configuration; it returns attach's error.
func attachMirror(t *testing.T, port int, args map[string]any) error {
	t.Helper()
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 5*time.Second)
	if err != nil {
		t.Fatalf("connecting to the mirror: %v", err)
	}
	c := dap.NewClient(conn, dap.Options{})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Call(ctx, "initialize", map[string]any{"adapterID": "test"}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c.Call(ctx, "attach", args, nil)
}

// The IDE mirror of alice's session: bob cannot expose it to learn its
// token, and its port refuses him without one; once shared, bob gets the
// token from expose_session like alice.
func TestForeignMirrorIsRefused(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice, bob := l.agent(""), l.agent("")
	id := alice.pausedMock(t)
	ex := alice.ok("expose_session", map[string]any{"sessionId": id, "allowControl": true})
	port := int(ex["port"].(float64))
	cfg := ex["launchConfig"].(map[string]any)

	if refused := bob.fail("expose_session", map[string]any{"sessionId": id, "allowControl": true}); !strings.Contains(refused.str("error"), "belongs to another client") {
		t.Fatalf("bob exposing alice's session: %v", refused)
	}
	if err := attachMirror(t, port, map[string]any{"request": "attach", "debugServer": port}); err == nil || !strings.Contains(err.Error(), "token") {
		t.Fatalf("attaching to alice's mirror without its token: %v, want a refusal", err)
	}
	if err := attachMirror(t, port, cfg); err != nil {
		t.Fatalf("alice's IDE attaching with her launch configuration: %v", err)
	}

	alice.ok("share_debug_session", map[string]any{"sessionId": id})
	shared := bob.ok("expose_session", map[string]any{"sessionId": id, "allowControl": true})
	if got := shared["launchConfig"].(map[string]any)[mirror.TokenField]; got != cfg[mirror.TokenField] {
		t.Fatalf("bob's launch configuration for the shared session carries %v, want the mirror's token", got)
	}
}
