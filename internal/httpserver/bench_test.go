package httpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/mcp-debugger/mcp-debugger/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioAgent connects to a fresh server over the stdio transport's framing
// (newline-delimited JSON on OS pipes), in-process, so that the comparison
// with HTTP measures the transports and not process start-up.
func stdioAgent(b *testing.B) *agent {
	b.Helper()
	srv := server.New(server.Options{Cwd: repoRoot()})
	sr, cw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	cr, sw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	ss, err := srv.MCP().Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		ss.Close()
		srv.Close()
		cancel()
	})
	return &agent{t: b, ctx: ctx, cs: cs}
}

// BenchmarkToolCallTransport compares one tool call over Streamable HTTP
// with the same call over stdio framing, on the in-process mock adapter,
// for the core benchmark's operations.
func BenchmarkToolCallTransport(b *testing.B) {
	ops := []struct {
		tool string
		args func(id string) map[string]any
	}{
		{"list_debug_sessions", func(string) map[string]any { return nil }},
		{"evaluate_expression", func(id string) map[string]any { return map[string]any{"sessionId": id, "expression": "1 + 1"} }},
		{"get_local_variables", func(id string) map[string]any { return map[string]any{"sessionId": id} }},
		{"get_stack_trace", func(id string) map[string]any { return map[string]any{"sessionId": id} }},
		{"step_over", func(id string) map[string]any { return map[string]any{"sessionId": id} }},
	}
	for _, op := range ops {
		for _, transport := range []string{"stdio", "http"} {
			b.Run(op.tool+"/"+transport, func(b *testing.B) {
				var a *agent
				if transport == "http" {
					a = startLive(b, httpserver.Config{}).agent("")
				} else {
					a = stdioAgent(b)
				}
				id := a.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
				a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program(b, "mock", "loop.mock"), "stopOnEntry": true})
				args := op.args(id)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					a.ok(op.tool, args)
				}
			})
		}
	}
}

// sseStates reads the page's event stream and delivers each state with
// the time it arrived.
func sseStates(b *testing.B, url string) <-chan timedState {
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	out := make(chan timedState, 64)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var st struct {
				View struct {
					State     string    `json:"state"`
					StoppedAt time.Time `json:"stoppedAt"`
				} `json:"view"`
			}
			if json.Unmarshal([]byte(data), &st) == nil {
				select {
				case out <- timedState{at: time.Now(), state: st.View.State, stoppedAt: st.View.StoppedAt}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

type timedState struct {
	at        time.Time
	state     string
	stoppedAt time.Time
}

// BenchmarkPageUpdateAfterStop measures how long after a stop (the
// adapter's stopped event) the live page's event stream carries it.
func BenchmarkPageUpdateAfterStop(b *testing.B) {
	l := startLive(b, httpserver.Config{})
	a := l.agent("")
	id := a.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program(b, "mock", "loop.mock"), "stopOnEntry": true})
	states := sseStates(b, l.url)
	var delays []time.Duration
	var last time.Time
	for b.Loop() {
		a.ok("step_over", map[string]any{"sessionId": id, "waitForStop": false})
		for {
			st, ok := <-states
			if !ok {
				b.Fatal("the event stream ended")
			}
			if st.state == "paused" && st.stoppedAt.After(last) {
				last = st.stoppedAt
				delays = append(delays, st.at.Sub(st.stoppedAt))
				break
			}
		}
	}
	slices.Sort(delays)
	b.ReportMetric(float64(delays[len(delays)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(delays[len(delays)*9/10].Microseconds())/1000, "p90-ms")
}

// TestMemoryWithIdleClients measures the server's memory with 16 MCP
// clients connected over HTTP and idle (each holding its standalone event
// stream), and holds it to a bound far above the measured figure, so that
// a leak per client is caught.
func TestMemoryWithIdleClients(t *testing.T) {
	const clients = 16
	l := startLive(t, httpserver.Config{})
	before := heapInUse()
	for range clients {
		l.agent("").ok("list_debug_sessions", nil)
	}
	after := heapInUse()
	perClient := (float64(after) - float64(before)) / clients / 1024
	t.Logf("%d idle HTTP clients: %.0f KiB each, heap in use %.1f MiB", clients, perClient, float64(after)/(1<<20))
	if perClient > 1024 {
		t.Errorf("an idle client costs %.0f KiB, want well under 1 MiB", perClient)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
