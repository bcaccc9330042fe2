package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// get_stack_trace on a 100,000-frame recursion answered every frame: 22 MB
// in 11 s for C. A page holds at most maxStackLevels frames (50 unless
// levels says otherwise) and maxStackBytes bytes, says how deep the stack
// is and where the next page starts, and a page deep down is as quick as
// the first.
func TestDeepStackIsPagedWithATotal(t *testing.T) {
	cases := []struct {
		language, program, source string
		line                      int
		frame                     string
		// depth: debugpy reads the whole stack for each request (about
		// 1 s per 100,000 frames), and recursing under it is slow.
		depth int
	}{
		{"c", nativeProgram(t, "c", "deep.c"), nativeProgram(t, "c", "deep.c"), 10, "depth_sum", 100_000},
		{"python", pythonProgram(t, "deep.py"), pythonProgram(t, "deep.py"), 10, "depth_sum", 30_000},
		{"go", goProgram(t, "recursion"), goProgram(t, "recursion", "main.go"), 27, "depthSum", 100_000},
	}
	for _, c := range cases {
		t.Run(c.language, func(t *testing.T) {
			depth := c.depth
			if c.language == "c" {
				testenv.RequireTool(t, "apt-get install -y gcc", "cc")
			}
			h := newHarness(t)
			id := h.sessionFor(c.language)
			h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": c.source, "line": c.line})
			began := time.Now()
			snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": c.program, "args": []string{fmt.Sprint(depth)}, "timeout": 120000})
			wantStop(t, snap, "breakpoint", c.line)
			t.Logf("%s: %d frames deep in %v", c.language, depth, time.Since(began))

			// The first page: the default number of frames, the total, and
			// where the next page starts.
			page, took := h.stackPage(map[string]any{"sessionId": id})
			frames := page.list("stackFrames")
			if len(frames) != defaultStackLevels || page.num("totalFrames") < depth ||
				page.num("nextStartFrame") != defaultStackLevels || !strings.Contains(page.str("more"), "startFrame=50") {
				t.Fatalf("first page: %d frames, totalFrames %v, nextStartFrame %v, more %q; want %d frames, a total of at least %d and the next page's start",
					len(frames), page["totalFrames"], page["nextStartFrame"], page.str("more"), defaultStackLevels, depth)
			}
			if frames[0].str("name") != c.frame && !strings.Contains(frames[0].str("name"), c.frame) {
				t.Errorf("top frame %v, want %s", frames[0], c.frame)
			}
			firstTook := took

			// A page asking for more than the maximum gets the maximum, or
			// what fits maxStackBytes, and says so.
			page, took = h.stackPage(map[string]any{"sessionId": id, "startFrame": page.num("nextStartFrame"), "levels": 1e9})
			next := page.list("stackFrames")
			if n := len(next); n == 0 || n > maxStackLevels || page.num("startFrame") != defaultStackLevels ||
				page.num("nextStartFrame") != defaultStackLevels+n || next[0].num("id") == frames[0].num("id") {
				t.Fatalf("second page (levels 1e9): %d frames from %v, next %v; want up to %d frames from %d, then where the third starts",
					n, page["startFrame"], page["nextStartFrame"], maxStackLevels, defaultStackLevels)
			}
			took = max(took, firstTook)

			// The last page ends the stack at main, and says nothing more.
			total := page.num("totalFrames")
			page, lastTook := h.stackPage(map[string]any{"sessionId": id, "startFrame": total - 5, "levels": 100, "includeInternals": true})
			last := page.list("stackFrames")
			if len(last) != 5 || page.num("totalFrames") != total || page["nextStartFrame"] != nil || page.str("more") != "" {
				t.Fatalf("last page (from %d of %d): %d frames, next %v, more %q; want the bottom frames and no next page",
					total-5, total, len(last), page["nextStartFrame"], page.str("more"))
			}
			var names []string
			for _, f := range last {
				names = append(names, f.str("name"))
			}
			if !strings.Contains(strings.Join(names, " "), "main") {
				t.Errorf("last page's frames %v; want main among them", names)
			}
			t.Logf("%s: pages of %d frames in %v, the bottom in %v", c.language, len(next), took, lastTook)
			// Counting the frames is the slow part (debugpy walks them all
			// per request); the race detector and a shared machine slow it.
			if took > 15*time.Second || lastTook > 15*time.Second {
				t.Errorf("a page took %v, the last %v", took, lastTook)
			}

			// An IDE looking on (expose_session) asks for the stack with no
			// levels, which DAP reads as all of it: it gets a bounded page
			// and the depth, to page on with startFrame.
			d := attachIDE(t, h.ok("expose_session", map[string]any{"sessionId": id}))
			var stopped dap.StoppedEventBody
			if err := json.Unmarshal(d.event("stopped"), &stopped); err != nil {
				t.Fatal(err)
			}
			var ide dap.StackTraceResponseBody
			if err := d.call("stackTrace", map[string]any{"threadId": stopped.ThreadId}, &ide); err != nil {
				t.Fatalf("the IDE's stackTrace: %v", err)
			}
			if n := len(ide.StackFrames); n == 0 || n > 200 || ide.TotalFrames < depth {
				t.Errorf("the IDE's stackTrace without levels: %d frames, totalFrames %d; want at most 200 and a total of at least %d", n, ide.TotalFrames, depth)
			}
			h.ok("close_debug_session", map[string]any{"sessionId": id})
		})
	}
}

// stackPage calls get_stack_trace and checks that its answer is within
// maxStackBytes; it returns the answer and how long it took.
func (h *harness) stackPage(args map[string]any) (result, time.Duration) {
	h.t.Helper()
	start := time.Now()
	out, isErr, size := h.callSize("get_stack_trace", args)
	took := time.Since(start)
	h.t.Logf("get_stack_trace %v: %d bytes, %d frames in %v", args, size, len(out.list("stackFrames")), took)
	if isErr || size > maxStackBytes+1000 {
		h.t.Fatalf("get_stack_trace %v: error %v, %d bytes; want at most about %d: %.300s", args, isErr, size, maxStackBytes, fmt.Sprint(out))
	}
	return out, took
}
