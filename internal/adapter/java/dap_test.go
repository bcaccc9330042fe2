package java

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// TestHandlerPanicFailsOnlyThatRequest: a panic in a request handler (one
// injected into the server's table) fails that request, and the session
// goes on: the program is launched and runs to its end.
func TestHandlerPanicFailsOnlyThatRequest(t *testing.T) {
	testenv.RequireAdapter(t, languageID)
	_, file, _, _ := runtime.Caller(0)
	program := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "java", "Hello.java")
	conn := dapserver.StartOnPipe(adapter.Connection{Request: "launch"}, func(end io.ReadWriteCloser) {
		s := newServer(end, nil)
		s.Handlers["threads"] = func(context.Context, *request) (any, error) { panic("injected fault") }
		s.serve(context.Background())
	})
	c := dap.NewClient(conn.Transport, dap.Options{})
	t.Cleanup(func() {
		c.Close()
		conn.Cleanup()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	call := func(command string, args any) error { return c.Call(ctx, command, args, nil) }

	if err := call("initialize", map[string]any{"adapterID": adapterID}); err != nil {
		t.Fatal(err)
	}
	err := call("threads", nil)
	if want := "internal error in the java adapter while handling threads: injected fault"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("the panicking request: %v; want %q", err, want)
	}
	if err := call("launch", map[string]any{"program": program}); err != nil {
		t.Fatalf("launch after the panic: %v", err)
	}
	if err := call("configurationDone", nil); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case ev, ok := <-c.Events():
			if !ok {
				t.Fatalf("the connection ended before the program did: %v", c.Err())
			}
			if ev.Name != "exited" {
				continue
			}
			var body godap.ExitedEventBody
			if err := json.Unmarshal(ev.Body, &body); err != nil || body.ExitCode != 0 {
				t.Fatalf("exited %s (%v); want exit code 0", ev.Body, err)
			}
			return
		case <-ctx.Done():
			t.Fatal("the program did not run to its end after the panic")
		}
	}
}
