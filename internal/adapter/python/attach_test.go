package python

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// freePort finds a port nobody listens on. Racy by nature, which a test
// can afford: debugpy's --listen does not report a port it chose itself.
func freePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startListening runs prog under `python -m debugpy --listen`, held before
// its first line until a client attaches.
func startListening(tb testing.TB, host *interpreter, prog string) int {
	tb.Helper()
	port := freePort(tb)
	cmd := exec.Command(host.Executable, "-m", "debugpy", "--listen", "127.0.0.1:"+strconv.Itoa(port), "--wait-for-client", prog)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	p, err := proc.Start(cmd)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		p.Kill()
		if tb.Failed() {
			tb.Logf("debuggee output: %s", out.String())
		}
	})
	return port
}

func TestAttach(t *testing.T) {
	host := requireDebugpy(t)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	loop := fixture(t, "loop.py")
	port := startListening(t, host, loop)
	conn, err := New().Attach(ctx, adapter.AttachConfig{Host: "127.0.0.1", Port: port})
	if err != nil {
		t.Fatal(err)
	}
	if conn.Request != "attach" || conn.Arguments["justMyCode"] != true || conn.AfterRead == nil {
		t.Fatalf("connection %+v", conn)
	}
	s := newSession(t, conn)
	s.start(ctx, map[string][]int{loop: {6}}, nil)
	st := s.waitStopped(ctx)
	top := s.stack(ctx, st.ThreadID)[0]
	if top.Name != "weigh" || top.Line != 6 {
		t.Fatalf("top frame %+v", top)
	}
	if v := s.evaluate(ctx, top.ID, "item * factor"); v != "0" {
		t.Fatalf("item * factor = %q", v)
	}
	s.call(ctx, "disconnect", map[string]any{"terminateDebuggee": true}, nil)
}

func TestAttachErrors(t *testing.T) {
	ctx := context.Background()
	_, err := New().Attach(ctx, adapter.AttachConfig{ProcessID: 4242})
	if err == nil || !strings.Contains(err.Error(), "python -m debugpy --listen 127.0.0.1:5678") || !strings.Contains(err.Error(), "4242") {
		t.Fatalf("attach by pid: %v", err)
	}
	tctx, cancel := context.WithTimeout(ctx, 200*1e6)
	defer cancel()
	_, err = New().Attach(tctx, adapter.AttachConfig{Port: freePort(t)})
	if err == nil || !strings.Contains(err.Error(), "--listen") {
		t.Fatalf("attach to a closed port: %v", err)
	}
}
