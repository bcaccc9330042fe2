package session

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter/mock"
)

// quirkyAdapter is the mock adapter with extra quirks, to test the
// engine's side of each hook without a real debugger.
type quirkyAdapter struct {
	*mock.Adapter
	quirks func(*adapter.Quirks)
}

func (a quirkyAdapter) Launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, error) {
	conn, err := a.Adapter.Launch(ctx, cfg)
	if err == nil && conn != nil {
		a.quirks(&conn.Quirks)
	}
	return conn, err
}

func mockFile(t *testing.T, name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "mock", name)
}

// startAt launches calls.mock stopped at line 2 (in inner, called by
// outer, called from the top level).
func startAt(t *testing.T, q func(*adapter.Quirks)) (*Session, *Snapshot) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	s := newSession("q", quirkyAdapter{mock.New(), q}, Options{})
	t.Cleanup(s.Close)
	prog := mockFile(t, "calls.mock")
	if _, err := s.SetBreakpoint(ctx, LineBreakpointRequest{File: prog, Line: 2}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Start(ctx, LaunchSpec{Program: prog}, WaitOptions{Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	return s, res.Snapshot
}

func TestQuirkFrameNameAndInternalFrame(t *testing.T) {
	s, snap := startAt(t, func(q *adapter.Quirks) {
		q.FrameName = func(name string) string { return "fn:" + name }
		q.InternalFrame = func(name, path string) bool { return name == "fn:outer" && path != "" }
	})
	if snap.Location == nil || snap.Location.Function != "fn:inner" {
		t.Fatalf("the stop location shows the renamed frame: %+v", snap.Location)
	}
	ctx := context.Background()
	page, err := s.StackPage(ctx, StackRequest{Levels: 100})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range page.Frames {
		names = append(names, f.Name)
	}
	if len(names) < 1 || names[0] != "fn:inner" || strings.Contains(strings.Join(names, ","), "outer") {
		t.Errorf("frames renamed, outer hidden as internal: %v", names)
	}
	all, _ := s.StackPage(ctx, StackRequest{Levels: 100, IncludeInternals: true})
	found := false
	for _, f := range all.Frames {
		found = found || f.Name == "fn:outer"
	}
	if !found {
		t.Errorf("includeInternals shows outer, renamed: %v", all.Frames)
	}
}

// TestQuirkBeforeContinue: the hook runs before a continue that follows a
// step a breakpoint interrupted, and only then (it costs round trips).
func TestQuirkBeforeContinue(t *testing.T) {
	var mu sync.Mutex
	var calls []int
	hook := func(q *adapter.Quirks) {
		q.BeforeContinue = func(ctx context.Context, call adapter.CallFunc, threadID int) error {
			var body dap.ThreadsResponseBody
			if err := call(ctx, "threads", nil, &body); err != nil || len(body.Threads) == 0 {
				t.Errorf("the hook can talk to the adapter: %v %v", body, err)
			}
			mu.Lock()
			calls = append(calls, threadID)
			mu.Unlock()
			return nil
		}
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(calls)
	}
	ctx := context.Background()

	// A plain continue: no step to clean up after.
	s, _ := startAt(t, hook)
	if _, err := s.Resume(ctx, Continue, 0, WaitOptions{Wait: true}); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 0 {
		t.Errorf("a continue after no step ran the hook %d times", n)
	}

	// calls.mock line 5 calls inner twice: stepping over the first call's
	// end runs into the breakpoint in the second, interrupting the step.
	s, snap := startAt(t, hook)
	stepped, err := s.Resume(ctx, StepOver, 0, WaitOptions{Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	if stepped.StopReason != "breakpoint" {
		t.Fatalf("the step should have been interrupted by the breakpoint: %+v", stepped)
	}
	if n := count(); n != 0 {
		t.Errorf("steps do not run the hook: %v", calls)
	}
	if _, err := s.Resume(ctx, Continue, 0, WaitOptions{Wait: true}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 1 || calls[0] != snap.ThreadID {
		t.Errorf("the continue after an interrupted step runs the hook once with the stopped thread %d: %v", snap.ThreadID, calls)
	}
}

func TestQuirkBeforeContinueErrorKeepsStop(t *testing.T) {
	s, _ := startAt(t, func(q *adapter.Quirks) {
		q.BeforeContinue = func(context.Context, adapter.CallFunc, int) error { return context.DeadlineExceeded }
	})
	if _, err := s.Resume(context.Background(), StepOver, 0, WaitOptions{Wait: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resume(context.Background(), Continue, 0, WaitOptions{Wait: true}); err == nil {
		t.Fatal("a failing hook fails the continue")
	}
	if st := s.State(); st != StatePaused {
		t.Errorf("the program stays paused: %s", st)
	}
}

func TestQuirkStopReason(t *testing.T) {
	_, snap := startAt(t, func(q *adapter.Quirks) {
		q.StopReason = func(reason, description string) (string, string) {
			if reason == "breakpoint" {
				return "exception", "made an exception"
			}
			return reason, description
		}
	})
	if snap.StopReason != "exception" || snap.Description != "made an exception" {
		t.Errorf("stop reason rewritten: %s %q", snap.StopReason, snap.Description)
	}
	if snap.Location == nil || snap.Location.Line != 2 {
		t.Errorf("location: %+v", snap.Location)
	}
}
