//go:build unix

package server

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv/hostilefile"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A source path that is a device, a FIFO or a huge file once took the
// server down with every session of every client: set_breakpoint and
// get_source_context read /dev/zero, /dev/urandom or a 2 GB sparse file
// whole (OOM-killed in seconds), and waited on a FIFO for a writer. Each
// is refused at once, saying what it is and what to do, and the server
// goes on.
func TestSourceToolsRefuseDevicesFIFOsAndHugeFiles(t *testing.T) {
	h := newHarness(t)
	id := h.session()
	fifo, sparse := hostilefile.Make(t, ".mock")
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, c := range []struct{ path, want string }{
		{"/dev/zero", "is a device"},
		{"/dev/urandom", "is a device"},
		{fifo, "is a FIFO"},
		{sparse, "over the 16 MiB"},
	} {
		for _, tool := range []string{"set_breakpoint", "get_source_context"} {
			ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
			start := time.Now()
			res, err := h.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"sessionId": id, "file": c.path, "line": 1}})
			cancel()
			if err != nil {
				t.Fatalf("%s on %s: no answer in %v: %v", tool, c.path, time.Since(start), err)
			}
			var out result
			_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)
			if !res.IsError || !strings.Contains(out.str("error"), c.want) || out.str("hint") == "" {
				t.Errorf("%s on %s: %v, want a refusal saying %q with a hint", tool, c.path, out, c.want)
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("%s on %s took %v", tool, c.path, took)
			}
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
		t.Errorf("the heap grew %d MiB", grew>>20)
	}
	// And the server goes on.
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": mockProgram(t, "basic.mock"), "line": 12})
}
