package python

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// BenchmarkDebugpyNoDelay measures round trips in raw DAP against real
// debugpy, with TCP_NODELAY on debugpy's sockets (nodelay) and without
// (stock): step (next → stopped), continue (→ the next breakpoint hit) and
// evaluate. Each reports its median as ms/median. Run with e.g.
//
//	go test -run '^$' -bench DebugpyNoDelay -benchtime 40x ./internal/adapter/python/
func BenchmarkDebugpyNoDelay(b *testing.B) {
	host := requireDebugpy(b)
	for _, mode := range []struct{ name, env string }{{"nodelay", ""}, {"stock", "0"}} {
		b.Run(mode.name, func(b *testing.B) {
			b.Setenv(noDelayEnv, mode.env)
			for _, op := range []string{"step", "continue", "evaluate"} {
				b.Run(op, func(b *testing.B) {
					s, _ := launchSession(b, New(), adapter.LaunchConfig{Program: fixture(b, "bench.py"), ExecutablePath: host.Path})
					benchOp(b, s, op)
				})
			}
		})
	}
}

// BenchmarkDebugpyAttachQuickAck measures the same round trips when
// attached to `python -m debugpy --listen`, whose adapter has Nagle on
// towards us: with TCP_QUICKACK re-armed after each read (quickack) and
// without (plain).
func BenchmarkDebugpyAttachQuickAck(b *testing.B) {
	host := requireDebugpy(b)
	for _, quick := range []bool{true, false} {
		name := "plain"
		if quick {
			name = "quickack"
		}
		b.Run(name, func(b *testing.B) {
			for _, op := range []string{"step", "continue", "evaluate"} {
				b.Run(op, func(b *testing.B) {
					ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
					defer cancel()
					port := startListening(b, host, fixture(b, "bench.py"))
					conn, err := New().Attach(ctx, adapter.AttachConfig{Port: port})
					if err != nil {
						b.Fatal(err)
					}
					if !quick {
						conn.AfterRead = nil
					}
					benchOp(b, newSession(b, conn), op)
				})
			}
		})
	}
}

// benchOp stops bench.py where op starts and times b.N round trips.
func benchOp(b *testing.B, s *session, op string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	prog := fixture(b, "bench.py")
	line := 5 // in weigh: every continue comes back here
	if op == "step" {
		line = 13 // in main: steps go over weigh, round the loop
	}
	s.start(ctx, map[string][]int{prog: {line}}, nil)
	st := s.waitStopped(ctx)
	if op == "step" {
		s.call(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": prog}, "breakpoints": []any{}}, nil)
	}
	frameID := s.stack(ctx, st.ThreadID)[0].ID
	args := map[string]any{"threadId": st.ThreadID}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		switch op {
		case "step":
			s.call(ctx, "next", args, nil)
			s.waitStopped(ctx)
		case "continue":
			s.call(ctx, "continue", args, nil)
			s.waitStopped(ctx)
		case "evaluate":
			if v := s.evaluate(ctx, frameID, "item * factor"); v == "" {
				b.Fatal("empty evaluate result")
			}
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/median")
}

// BenchmarkDebugpyFirstStop times Launch → the first breakpoint hit in
// loop.py, under an interpreter with debugpy (host) and under python3 on
// PATH when it lacks debugpy (foreign: pyenv's shim here), with and
// without TCP_NODELAY.
func BenchmarkDebugpyFirstStop(b *testing.B) {
	host := requireDebugpy(b)
	interpreters := []struct{ name, path string }{{"host", host.Path}}
	if p, err := adapter.LookPath("python3", os.Getenv("PATH")); err == nil && p != host.Path {
		interpreters = append(interpreters, struct{ name, path string }{"foreign", p})
	}
	loop := fixture(b, "loop.py")
	for _, mode := range []struct{ name, env string }{{"nodelay", ""}, {"stock", "0"}} {
		for _, py := range interpreters {
			b.Run(mode.name+"/"+py.name, func(b *testing.B) {
				b.Setenv(noDelayEnv, mode.env)
				a := New()
				times := make([]time.Duration, 0, b.N)
				for range b.N {
					ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
					start := time.Now()
					s, _ := launchSession(b, a, adapter.LaunchConfig{Program: loop, ExecutablePath: py.path})
					s.start(ctx, map[string][]int{loop: {6}}, nil)
					s.waitStopped(ctx)
					times = append(times, time.Since(start))
					s.close()
					cancel()
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/median")
			})
		}
	}
}
