package dapserver

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
)

// A panic in a request's worker goroutine reaches the recovery on the
// request's goroutine and fails that request only, instead of ending the
// process.
func TestWorkerPanicFailsOnlyItsRequest(t *testing.T) {
	var logs bytes.Buffer
	s := New(nil, Config{Name: "test adapter", Log: slog.New(slog.NewTextHandler(&logs, nil))})
	var done atomic.Int32
	_, err := s.recovered(context.Background(), &Request{Command: "variables"}, func(context.Context, *Request) (any, error) {
		var w Workers
		for i := range 3 {
			w.Go(func() {
				if i == 1 {
					panic("worker boom")
				}
				done.Add(1)
			})
		}
		w.Wait()
		return "not reached", nil
	})
	if err == nil || !strings.Contains(err.Error(), "worker boom") || !strings.Contains(err.Error(), "variables") {
		t.Fatalf("the worker's panic should fail the request: %v", err)
	}
	if done.Load() != 2 {
		t.Errorf("the other workers should run to their end: %d", done.Load())
	}
	if !strings.Contains(logs.String(), "workers_test.go") {
		t.Errorf("the log should carry the worker's stack: %s", logs.String())
	}
	body, err := s.recovered(context.Background(), &Request{Command: "threads"}, func(context.Context, *Request) (any, error) {
		var w Workers
		w.Go(func() { done.Add(1) })
		w.Wait()
		return "ok", nil
	})
	if err != nil || body != "ok" {
		t.Errorf("a request without a panic: %v %v", body, err)
	}
}
