package python

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// pydevdNoDelay reads TCP_NODELAY (IPPROTO_TCP=6, TCP_NODELAY=1) on the
// debuggee's socket to debugpy's adapter: pydevd's writer thread holds it.
const pydevdNoDelay = "__import__('pydevd').get_global_debugger().writer.sock.getsockopt(6, 1)"

// TestNoDelay: debugpy's own connection in the debuggee is TCP_NODELAY,
// the program's own sockets are not, and the program sees sys.argv,
// sys.path, socket.socket and its stack as in a plain debugpy launch.
func TestNoDelay(t *testing.T) {
	host := requireDebugpy(t)
	t.Setenv(noDelayEnv, "")
	prog := fixture(t, "sockets.py")
	for _, justMyCode := range []bool{true, false} {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		s, _ := launchSession(t, New(), adapter.LaunchConfig{
			Program: prog, ExecutablePath: host.Path, Extra: map[string]any{"justMyCode": justMyCode},
		})
		py, _ := stringList(s.conn.Arguments["python"])
		if !strings.HasSuffix(py[len(py)-1], debuggeeShimName) {
			t.Fatalf("python = %q, want the shim last", py)
		}
		s.start(ctx, map[string][]int{prog: {11}}, nil)
		st := s.waitStopped(ctx)
		frames := s.stack(ctx, st.ThreadID)
		for _, f := range frames {
			if strings.Contains(f.Source.Path, "mcp_debugger") || f.Source.Path == "<string>" {
				t.Errorf("justMyCode=%v: our frame shows: %+v", justMyCode, f)
			}
			if justMyCode && f.Source.Path != prog {
				t.Errorf("justMyCode: frame outside the program: %+v", f)
			}
		}
		id := frames[0].ID
		for expr, want := range map[string]string{
			pydevdNoDelay:             "1",
			"client.getsockopt(6, 1)": "0",
			"server.getsockopt(6, 1)": "0",
			"__import__('sys').argv == [" + quoteSingle(prog) + "]": "True",
			"__import__('sys').path[0]":                             quoteSingle(filepath.Dir(prog)),
			"'connect' in __import__('socket').socket.__dict__":     "False",
			"[p for p in __import__('sys').path if 'mcp' in p]":     "[]",
			"__import__('sys')._xoptions.get('frozen_modules')":     "'off'",
			"__name__": "'__main__'",
		} {
			if strings.Contains(expr, "_xoptions") && !strings.HasPrefix(s.evaluate(ctx, id, "__import__('sys').version_info >= (3, 11)"), "True") {
				continue
			}
			if got := s.evaluate(ctx, id, expr); got != want {
				t.Errorf("justMyCode=%v: %s = %s, want %s", justMyCode, expr, got, want)
			}
		}
		s.close()
	}
}

// TestNoDelayOff: MCP_DEBUGGER_DEBUGPY_NODELAY=0 leaves debugpy as it is.
func TestNoDelayOff(t *testing.T) {
	host := requireDebugpy(t)
	t.Setenv(noDelayEnv, "0")
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	prog := fixture(t, "sockets.py")
	s, _ := launchSession(t, New(), adapter.LaunchConfig{Program: prog, ExecutablePath: host.Path})
	if py, _ := stringList(s.conn.Arguments["python"]); !slices.Equal(py, []string{host.Path}) {
		t.Fatalf("python = %q, want the bare interpreter", py)
	}
	s.start(ctx, map[string][]int{prog: {11}}, nil)
	st := s.waitStopped(ctx)
	if got := s.evaluate(ctx, s.stack(ctx, st.ThreadID)[0].ID, pydevdNoDelay); got != "0" {
		t.Fatalf("%s = %s, want 0", pydevdNoDelay, got)
	}
}

func quoteSingle(s string) string { return "'" + s + "'" }
