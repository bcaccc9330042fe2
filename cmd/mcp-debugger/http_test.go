package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	listenLine = regexp.MustCompile(`listening on (\S+) `)
	loginLine  = regexp.MustCompile(`login link: \S+/\?token=(\S+)$`)
)

// httpEnv is the environment of a test's `mcp-debugger http`: a
// configuration directory of its own, where the user's token is made, and
// no token from the environment.
func httpEnv(t *testing.T) (env []string, configDir string) {
	t.Helper()
	configDir = t.TempDir()
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, tokenEnv+"=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "XDG_CONFIG_HOME="+configDir), configDir
}

// startHTTP runs `mcp-debugger http` with args and returns the address it
// printed and the clients' token, the user's.
func startHTTP(t *testing.T, args ...string) (addr, token string) {
	t.Helper()
	env, configDir := httpEnv(t)
	addr, _ = startHTTPWith(t, env, args...)
	b, err := os.ReadFile(filepath.Join(configDir, "mcp-debugger", "http-token"))
	if err != nil {
		t.Fatalf("the user's token: %v", err)
	}
	return addr, strings.TrimSpace(string(b))
}

// startHTTPWith runs `mcp-debugger http` with args in the environment env
// and returns the address it printed and the token of its page's login
// link.
func startHTTPWith(t *testing.T, env []string, args ...string) (addr, pageToken string) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"http"}, args...)...)
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// SIGTERM is the orderly end a supervisor uses.
		// To the server itself, not the reaper above it.
		if server, err := os.FindProcess(p.Pid()); err == nil {
			_ = server.Signal(syscall.SIGTERM)
		}
		select {
		case <-p.Done():
		case <-time.After(10 * time.Second):
			t.Error("mcp-debugger http did not exit within 10 s of SIGTERM")
			p.Kill()
		}
	})
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	timeout := time.After(30 * time.Second)
	for addr == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("mcp-debugger http exited before printing its address")
			}
			if m := listenLine.FindStringSubmatch(line); m != nil {
				addr = m[1]
			}
			if m := loginLine.FindStringSubmatch(line); m != nil {
				pageToken = m[1]
			}
		case <-timeout:
			t.Fatal("mcp-debugger http printed no address within 30 s")
		}
	}
	go func() {
		for range lines {
		}
	}()
	return addr, pageToken
}

// withHeader adds one header to every request.
type withHeader struct{ name, value string }

func (h withHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects an MCP client to url sending header (name: value),
// as a client configured with it does.
func connectHTTP(ctx context.Context, t *testing.T, url, name, value string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http-agent", Version: "1"}, nil)
	transport := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: withHeader{name, value}}}
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connecting to %s with %s: %v", url, name, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestHTTPCommandServesMCP(t *testing.T) {
	addr, token := startHTTP(t)
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("default listen: %q, want loopback", addr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs := connectHTTP(ctx, t, "http://"+addr+"/mcp", "Authorization", "Bearer "+token)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_debug_session", Arguments: map[string]any{"language": "mock"}})
	if err != nil || res.IsError {
		t.Fatalf("create_debug_session over HTTP: %v %v", err, res)
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "ok") {
		t.Fatalf("/healthz: %d %s", resp.StatusCode, body)
	}
}

// On loopback too the server requires a token, which only the user who
// started it can read: any local user could otherwise run code as that
// user. The refusal says where the token is and how to configure a client.
func TestHTTPCommandRequiresTokenOnLoopback(t *testing.T) {
	env, configDir := httpEnv(t)
	addr, pageToken := startHTTPWith(t, env)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stranger","version":"1"}}}`
	req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	tokenFile := filepath.Join(configDir, "mcp-debugger", "http-token")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), tokenFile) || !strings.Contains(string(body), "--print-config") {
		t.Fatalf("initialize without a token on loopback: %d %s\nwant 401 naming %s and --print-config", resp.StatusCode, body, tokenFile)
	}
	for path, want := range map[string]os.FileMode{tokenFile: 0o600, filepath.Dir(tokenFile): 0o700} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Fatalf("%s: %v, mode %v; want %v", path, err, fi.Mode().Perm(), want)
		}
	}
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(pageToken) < 32 || pageToken == strings.TrimSpace(string(token)) {
		t.Fatalf("the page's login token %q must be its own, not the clients' token", pageToken)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs := connectHTTP(ctx, t, "http://"+addr+"/mcp", "Authorization", "Bearer "+strings.TrimSpace(string(token)))
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list with the token from %s: %v", tokenFile, err)
	}
}

// What --print-config prints for each client plugs it in: the URL and the
// header it carries connect to the server started with the same --listen.
func TestHTTPCommandPrintConfigConnects(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	listen := ln.Addr().String()
	ln.Close()
	env, _ := httpEnv(t)
	startHTTPWith(t, env, "--listen", listen)
	claudeLine := regexp.MustCompile(`^claude mcp add --transport http debugger (\S+) --header '([^':]+): ([^']+)'\n$`)
	vscodeLine := regexp.MustCompile(`^code --add-mcp '(.+)'\n$`)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, client := range []string{"claude", "cursor", "vscode"} {
		cmd := exec.Command(binary(t), "http", "--listen", listen, "--print-config", client)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("--print-config %s: %v", client, err)
		}
		var entry struct {
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
			Servers map[string]struct {
				URL     string            `json:"url"`
				Headers map[string]string `json:"headers"`
			} `json:"mcpServers"`
		}
		switch client {
		case "claude":
			m := claudeLine.FindStringSubmatch(string(out))
			if m == nil {
				t.Fatalf("--print-config claude printed %q", out)
			}
			entry.URL, entry.Headers = m[1], map[string]string{m[2]: m[3]}
		case "vscode":
			m := vscodeLine.FindStringSubmatch(string(out))
			if m == nil || json.Unmarshal([]byte(m[1]), &entry) != nil {
				t.Fatalf("--print-config vscode printed %q", out)
			}
		case "cursor":
			if err := json.Unmarshal(out, &entry); err != nil || entry.Servers["debugger"].URL == "" {
				t.Fatalf("--print-config cursor printed %q (%v)", out, err)
			}
			entry.URL, entry.Headers = entry.Servers["debugger"].URL, entry.Servers["debugger"].Headers
		}
		if len(entry.Headers) != 1 || entry.Headers["Authorization"] == "" {
			t.Fatalf("--print-config %s: headers %v, want Authorization alone", client, entry.Headers)
		}
		cs := connectHTTP(ctx, t, entry.URL, "Authorization", entry.Headers["Authorization"])
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatalf("tools/list as configured by --print-config %s: %v", client, err)
		}
	}
}

// Beyond loopback the token is required too.
func TestHTTPCommandBeyondLoopbackRequiresToken(t *testing.T) {
	addr, token := startHTTP(t, "--listen", "0.0.0.0:0")
	if len(token) < 32 {
		t.Fatalf("no token for a non-loopback listener: %q", token)
	}
	url := "http://127.0.0.1:" + addr[strings.LastIndex(addr, ":")+1:] + "/version"
	for _, c := range []struct {
		auth string
		want int
	}{{"", 401}, {"Bearer wrong", 401}, {"Bearer " + token, 200}} {
		req, _ := http.NewRequest("GET", url, nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("GET /version with %q: %d, want %d", c.auth, resp.StatusCode, c.want)
		}
	}
}

// Connections that never show the token are bounded: a stranger opening
// keep-alive connections to /healthz (which needs none) holds at most
// DefaultMaxPendingConns of them, the oldest closed first, and a client
// with the token still gets in. Unbounded, 2,100 of them exhausted the
// server's file descriptors and a real client's initialize timed out.
func TestHTTPCommandBoundsStrangersConnections(t *testing.T) {
	addr, token := startHTTP(t)
	const strangers = 200
	conns := make([]net.Conn, 0, strangers)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range strangers {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: "+addr+"\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			continue // already evicted by a later connection's arrival
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	// A closed connection reads EOF at once; an open one times out.
	deadline := time.Now().Add(500 * time.Millisecond)
	open := 0
	for _, c := range conns {
		_ = c.SetReadDeadline(deadline)
		var b [1]byte
		if _, err := c.Read(b[:]); errors.Is(err, os.ErrDeadlineExceeded) {
			open++
		}
	}
	t.Logf("%d of %d strangers' connections still open", open, strangers)
	if open > 64 {
		t.Fatalf("%d of %d keep-alive connections without the token are still open; want at most 64", open, strangers)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs := connectHTTP(ctx, t, "http://"+addr+"/mcp", "Authorization", "Bearer "+token)
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("a client with the token, among the strangers: %v", err)
	}
}

// The token can come from a file, so that it is not on the command line,
// where `ps` shows it to every user of the machine.
func TestHTTPCommandTokenFromFile(t *testing.T) {
	const token = "file-token-0123456789abcdef0123456789"
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, _ := httpEnv(t)
	addr, _ := startHTTPWith(t, env, "--token-file", file)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs := connectHTTP(ctx, t, "http://"+addr+"/mcp", "Authorization", "Bearer "+token)
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list with the token from --token-file: %v", err)
	}
}
