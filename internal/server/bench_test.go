package server

import (
	"testing"
)

// BenchmarkToolCalls measures the server's own cost per tool call, on the
// in-process mock adapter over in-memory MCP transports, so that neither a
// real debugger nor a process boundary is in the figure.
func BenchmarkToolCalls(b *testing.B) {
	for _, bc := range []struct {
		tool string
		args func(id string) map[string]any
	}{
		{"list_debug_sessions", func(string) map[string]any { return nil }},
		{"evaluate_expression", func(id string) map[string]any { return map[string]any{"sessionId": id, "expression": "1 + 1"} }},
		{"get_local_variables", func(id string) map[string]any { return map[string]any{"sessionId": id} }},
		{"step_over", func(id string) map[string]any { return map[string]any{"sessionId": id} }},
	} {
		b.Run(bc.tool, func(b *testing.B) {
			h := newHarness(b)
			id := h.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
			h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": mockProgram(b, "loop.mock"), "stopOnEntry": true})
			args := bc.args(id)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				h.ok(bc.tool, args)
			}
		})
	}
}
