package httpserver_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
)

// serveBounded serves a handler for cfg on loopback as `mcp-debugger
// http` does, connections bounded, with idle as the idle timeout.
func serveBounded(t *testing.T, cfg httpserver.Config, idle time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{})
	cfg.Addr = ln.Addr()
	h := httpserver.New(srv, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	hs := &http.Server{Handler: h, IdleTimeout: idle, BaseContext: func(net.Listener) context.Context { return ctx }}
	h.BoundConnections(hs)
	serveUntilCleanup(t, hs, ln, srv, cancel)
	return ln.Addr().String()
}

// closedWithin reports whether the server closes c within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	return err == nil || !errors.Is(err, os.ErrDeadlineExceeded)
}

// A stranger's idle keep-alive connection is closed, and a refused one at
// once; the owner's event stream, a request that lasts, is not.
func TestBoundConnectionsReapStrangersKeepStreams(t *testing.T) {
	const token = "test-token-0123456789"
	addr := serveBounded(t, httpserver.Config{Token: token}, 300*time.Millisecond)
	request := func(req string) net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, req); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(req, "/api/events") {
			_, _ = io.Copy(io.Discard, resp.Body)
		}
		return c
	}
	// The page's own stream, with the page's cookie (PageToken defaults to
	// Token): a client's bearer token needs its MCP session for the page's
	// data (TestPageDataOwnedLikeTools).
	stream := request("GET /api/events HTTP/1.1\r\nHost: " + addr + "\r\nCookie: mcp_debugger_token=" + token + "\r\n\r\n")
	idle := request("GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\n\r\n")
	refused := request("GET /version HTTP/1.1\r\nHost: " + addr + "\r\n\r\n")
	if !closedWithin(refused, time.Second) {
		t.Fatal("a connection refused for want of the token was kept open")
	}
	if !closedWithin(idle, 3*time.Second) {
		t.Fatal("an idle keep-alive connection was not closed after the idle timeout")
	}
	if closedWithin(stream, 2*time.Second) {
		t.Fatal("the owner's event stream was closed")
	}
}

// Past Config.MaxPendingConns connections without the token, the oldest
// is closed; a connection that showed the token is never counted.
func TestBoundConnectionsEvictOldestStranger(t *testing.T) {
	const token = "test-token-0123456789"
	addr := serveBounded(t, httpserver.Config{Token: token, MaxPendingConns: 4}, time.Minute)
	dial := func(auth string) net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: "+addr+"\r\n"+auth+"\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		return c
	}
	owner := dial("Authorization: Bearer " + token + "\r\n")
	var strangers []net.Conn
	for range 5 {
		strangers = append(strangers, dial(""))
	}
	if !closedWithin(strangers[0], time.Second) {
		t.Fatal("the oldest of 5 strangers' connections was kept past the cap of 4")
	}
	for i, c := range append(strangers[1:], owner) {
		if closedWithin(c, 200*time.Millisecond) {
			t.Fatalf("connection %d was closed; only the oldest stranger's should be", i+1)
		}
	}
}
