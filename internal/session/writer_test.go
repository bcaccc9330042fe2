package session

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/golang"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/lldb"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// TestWritingLocationIsTheStoresLine checks, on real lldb-dap and Delve,
// how a watched write is put down to its line, on every host: whether
// hardware watchpoints fire here or not, a breakpoint on the first
// instruction of a line stops the program where a watchpoint on the
// previous line's store leaves it (the store done, the pc on the next
// instruction). The adapter reports the pc's line; the writer is the
// line before.
func TestWritingLocationIsTheStoresLine(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	testdata := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
	for _, c := range []struct {
		language, program, source string
		// stop is a line whose first instruction follows the last of
		// writer's, a store: loop.c's 41 (the printf) follows 40's
		// `total += weigh(i, 3)`; main.go's 24 (the for) follows 23's
		// `total := 0`.
		stop, writer int
	}{
		{"c", "native/c/loop.c", "native/c/loop.c", 41, 40},
		{"go", "go/loop", "go/loop/main.go", 24, 23},
	} {
		t.Run(c.language, func(t *testing.T) {
			testenv.RequireAdapter(t, c.language)
			a, _ := adapter.Lookup(c.language)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			s := newSession("writer-"+c.language, a, Options{})
			defer s.Close()
			src := filepath.Join(testdata, c.source)
			if _, err := s.SetBreakpoint(ctx, LineBreakpointRequest{File: src, Line: c.stop}); err != nil {
				t.Fatal(err)
			}
			res, err := s.Start(ctx, LaunchSpec{Program: filepath.Join(testdata, c.program)}, WaitOptions{Wait: true, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if loc := res.Snapshot.Location; loc == nil || loc.Line != c.stop {
				t.Fatalf("the program should stop at line %d: %+v", c.stop, res.Snapshot)
			}
			r, st, err := s.pausedStop(ctx, "find the writing line")
			if err != nil {
				t.Fatal(err)
			}
			if !r.caps.SupportsDisassembleRequest {
				t.Fatalf("%s no longer offers disassemble: the writing line of a data breakpoint's stop is the pc's", c.language)
			}
			got := s.writingLocation(ctx, r, st)
			if got == nil || got.Line != c.writer || got.File != src || got.Function == "" {
				t.Errorf("the instruction before line %d's first is line %d's store: got %+v", c.stop, c.writer, got)
			}
		})
	}
}

// TestWriterLine covers what the disassembly may give for the
// instruction before the pc: no line, another file, a mapped path.
func TestWriterLine(t *testing.T) {
	frame := dap.StackFrame{Source: &dap.Source{Path: "/home/me/loop.c"}, Line: 41}
	for _, c := range []struct {
		name string
		in   dap.DisassembledInstruction
		line int
		ok   bool
	}{
		{"same file", dap.DisassembledInstruction{Line: 40, Location: &dap.Source{Path: "/home/me/loop.c"}}, 40, true},
		{"no location (an adapter names it only once per line)", dap.DisassembledInstruction{Line: 40}, 40, true},
		{"empty location (Delve, code without a line)", dap.DisassembledInstruction{Location: &dap.Source{}}, 0, false},
		{"line 0 (compiler-made code)", dap.DisassembledInstruction{Line: 0, Location: &dap.Source{Path: "/home/me/loop.c"}}, 0, false},
		{"the program's own path, not mapped", dap.DisassembledInstruction{Line: 40, Location: &dap.Source{Path: "/app/loop.c"}}, 40, true},
		{"an inlined header", dap.DisassembledInstruction{Line: 7, Location: &dap.Source{Path: "/usr/include/x.h"}}, 0, false},
	} {
		line, ok := writerLine(c.in, frame)
		if line != c.line || ok != c.ok {
			t.Errorf("%s: %d, %v; want %d, %v", c.name, line, ok, c.line, c.ok)
		}
	}
}
