package httpserver_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/mock"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/python"
	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// live is an mcp-debugger HTTP server running in the test process on a
// loopback port, as `mcp-debugger http` runs it.
type live struct {
	t   testing.TB
	srv *server.Server
	url string
	cfg httpserver.Config
}

// serveUntilCleanup serves hs on ln until the test ends, then cancels its
// requests' context, shuts it down and closes srv.
func serveUntilCleanup(t testing.TB, hs *http.Server, ln net.Listener, srv *server.Server, cancel context.CancelFunc) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hs.Serve(ln)
	}()
	t.Cleanup(func() {
		cancel()
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		_ = hs.Shutdown(sctx)
		<-done
		srv.Close()
	})
}

func startLive(t testing.TB, cfg httpserver.Config) *live {
	t.Helper()
	return startLiveServer(t, cfg, server.Options{})
}

// startLiveServer is startLive with the MCP server's own options.
func startLiveServer(t testing.TB, cfg httpserver.Config, opts server.Options) *live {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.Cwd = repoRoot()
	if opts.Tools == "" {
		// The tests share sessions and expose them: tools beyond the default list.
		opts.Tools = server.ProfileAll
	}
	srv := server.New(opts)
	cfg.Addr = ln.Addr()
	ctx, cancel := context.WithCancel(context.Background())
	hs := &http.Server{Handler: httpserver.New(srv, cfg), BaseContext: func(net.Listener) context.Context { return ctx }}
	serveUntilCleanup(t, hs, ln, srv, cancel)
	return &live{t: t, srv: srv, url: "http://" + ln.Addr().String(), cfg: cfg}
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func program(t testing.TB, lang, name string) string {
	p := filepath.Join(repoRoot(), "testdata", lang, name)
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// bearer adds the token to every request of an HTTP client.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func httpClient(token string) *http.Client {
	if token == "" {
		return &http.Client{Timeout: time.Minute}
	}
	return &http.Client{Transport: bearer{token: token, base: http.DefaultTransport}}
}

// agent is a go-sdk MCP client speaking Streamable HTTP to the server.
type agent struct {
	t   testing.TB
	ctx context.Context
	cs  *mcp.ClientSession
}

func (l *live) connect(token string) (*agent, error) {
	return l.connectWith(httpClient(token))
}

func (l *live) connectWith(hc *http.Client) (*agent, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	l.t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test-agent", Version: "1"}, nil)
	// An agent keeps one MCP session, which owns what it creates: the
	// revision before the sessionless one (sessionless clients are
	// revisionClient's, in sessionless_test.go).
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: l.url + "/mcp", HTTPClient: hc, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: legacyRevision})
	if err != nil {
		return nil, err
	}
	l.t.Cleanup(func() { cs.Close() })
	return &agent{t: l.t, ctx: ctx, cs: cs}, nil
}

func (l *live) agent(token string) *agent {
	l.t.Helper()
	a, err := l.connect(token)
	if err != nil {
		l.t.Fatalf("connecting over HTTP: %v", err)
	}
	return a
}

type result map[string]any

// call invokes a tool and decodes its JSON text.
func (a *agent) call(tool string, args map[string]any) (result, bool) {
	a.t.Helper()
	res, err := a.cs.CallTool(a.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", tool, err)
	}
	var out result
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		a.t.Fatalf("%s: result is not JSON: %v", tool, err)
	}
	return out, res.IsError
}

func (a *agent) ok(tool string, args map[string]any) result {
	a.t.Helper()
	out, isErr := a.call(tool, args)
	if isErr {
		a.t.Fatalf("%s(%v) failed: %v (hint: %v)", tool, args, out["error"], out["hint"])
	}
	return out
}

func (a *agent) fail(tool string, args map[string]any) result {
	a.t.Helper()
	out, isErr := a.call(tool, args)
	if !isErr {
		a.t.Fatalf("%s(%v) succeeded, want a failure: %v", tool, args, out)
	}
	return out
}

func (r result) str(key string) string {
	v, _ := r[key].(string)
	return v
}

func (r result) line() int {
	loc, _ := r["location"].(map[string]any)
	v, _ := loc["line"].(float64)
	return int(v)
}

// pausedMock creates a mock session, stops it at line 12 of basic.mock
// and returns its id.
// pausedPython starts testdata/python/loop.py in the debug session id, stops
// it at line 16 and returns the server's child processes then (the adapter
// and the program among them), failing unless there are two more than
// before.
func (a *agent) pausedPython(t testing.TB, id string, before int) []int {
	t.Helper()
	prog := program(t, "python", "loop.py")
	a.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 16})
	if snap := a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); snap.line() != 16 {
		t.Fatalf("want a stop at line 16: %v", snap)
	}
	kids := proc.Descendants(os.Getpid())
	if len(kids) < before+2 {
		t.Fatalf("expected the adapter and the program to be running, got %v", kids)
	}
	return kids
}

func (a *agent) pausedMock(t testing.TB) string {
	t.Helper()
	id := a.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	prog := program(t, "mock", "basic.mock")
	a.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12})
	snap := a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if snap.str("state") != "paused" || snap.line() != 12 {
		t.Fatalf("want paused at line 12, got %v", snap)
	}
	return id
}
