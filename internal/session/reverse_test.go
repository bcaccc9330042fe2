package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// stubAdapter only names a language; these tests never start it.
type stubAdapter struct{}

func (stubAdapter) Language() adapter.Language { return adapter.Language{ID: "stub"} }
func (stubAdapter) Check(context.Context) adapter.Availability {
	return adapter.Availability{}
}
func (stubAdapter) Launch(context.Context, adapter.LaunchConfig) (*adapter.Connection, error) {
	return nil, nil
}
func (stubAdapter) Attach(context.Context, adapter.AttachConfig) (*adapter.Connection, error) {
	return nil, nil
}

// TestRunInTerminalSpawnsAndCapturesOutput: an adapter's runInTerminal is
// served by starting the program ourselves, with its output captured and
// the process killed with the session.
func TestRunInTerminalSpawnsAndCapturesOutput(t *testing.T) {
	s := newSession("s1", stubAdapter{}, Options{})
	r := &connection{s: s, conn: &adapter.Connection{}}
	args, _ := json.Marshal(map[string]any{
		"kind": "integrated", "cwd": t.TempDir(),
		"args": []string{"sh", "-c", `echo "out $GREETING"; echo err >&2; exec sleep 300`},
		"env":  map[string]any{"GREETING": "hello"},
	})
	body, err := r.reverse(context.Background(), dapc.ReverseRequest{Command: "runInTerminal", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	pid := body.(map[string]any)["processId"].(int)
	if !proc.Alive(pid) {
		t.Fatal("the program is not running")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var text strings.Builder
	for since := uint64(0); !strings.Contains(text.String(), "stdout:out hello\n") || !strings.Contains(text.String(), "stderr:err\n"); {
		if !s.out.Wait(ctx, since) {
			t.Fatalf("output never came: %q", text.String())
		}
		page := s.out.Since(since, 0)
		for _, e := range page.Entries {
			text.WriteString(e.Category + ":" + e.Output)
		}
		since = page.NextSince
	}
	r.mu.Lock()
	terms := r.terminals
	r.mu.Unlock()
	for _, p := range terms {
		p.Kill()
	}
	if proc.Alive(pid) {
		t.Errorf("runInTerminal process %d survived", pid)
	}
}

func TestOtherReverseRequestsGoToTheAdapter(t *testing.T) {
	s := newSession("s1", stubAdapter{}, Options{})
	r := &connection{s: s, conn: &adapter.Connection{}}
	if _, err := r.reverse(context.Background(), dapc.ReverseRequest{Command: "startDebugging"}); err == nil {
		t.Error("startDebugging without an adapter handler should be refused")
	}
	r.conn.Reverse = func(_ context.Context, req dapc.ReverseRequest) (any, error) { return req.Command, nil }
	if got, err := r.reverse(context.Background(), dapc.ReverseRequest{Command: "startDebugging"}); err != nil || got != "startDebugging" {
		t.Errorf("adapter handler: %v, %v", got, err)
	}
}
