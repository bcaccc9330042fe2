package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
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
	tokenLine  = regexp.MustCompile(`generated bearer token .*: (\S+)$`)
)

// startHTTP runs `mcp-debugger http` with args and returns the address it
// printed and, when it generated one, the token.
func startHTTP(t *testing.T, args ...string) (addr, token string) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"http"}, args...)...)
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
		_ = cmd.Process.Signal(syscall.SIGTERM)
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
			if m := tokenLine.FindStringSubmatch(line); m != nil {
				token = m[1]
			}
		case <-timeout:
			t.Fatal("mcp-debugger http printed no address within 30 s")
		}
	}
	go func() {
		for range lines {
		}
	}()
	return addr, token
}

func TestHTTPCommandServesMCP(t *testing.T) {
	addr, token := startHTTP(t)
	if !strings.HasPrefix(addr, "127.0.0.1:") || token != "" {
		t.Fatalf("default listen: %q (token %q), want loopback without a token", addr, token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
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

// Beyond loopback a token is generated, printed once, and required.
func TestHTTPCommandBeyondLoopbackRequiresToken(t *testing.T) {
	addr, token := startHTTP(t, "--listen", "0.0.0.0:0")
	if len(token) < 32 {
		t.Fatalf("no token generated for a non-loopback listener: %q", token)
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
