package server

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkAgentCost runs scripted investigations of testdata/python/bugs.py
// twice: with the tools every MCP debugger has (breakpoints, conditions,
// steps, continue, stop snapshots), and with the agent tools
// (break_on_change, trace_function, tracepoints). It reports the tool calls
// and the bytes of answers each needs; each script checks it found the
// answer. Run with -benchtime 1x: one investigation is one real debugpy
// session.
func BenchmarkAgentCost(b *testing.B) {
	prog := filepath.Join(repoRoot(b), "testdata", "python", "bugs.py")
	for _, inv := range []struct {
		name       string
		core, with func(m *meter) bool
	}{
		{"line_that_reorders_scores", coreReorder, agentReorder},
		{"ratio_return_per_call", coreReturns, agentReturns},
		{"iteration_balance_goes_negative", coreNegative, agentNegative},
	} {
		b.Run(inv.name, func(b *testing.B) {
			for b.Loop() {
				core, agent := newMeter(b, prog), newMeter(b, prog)
				if !inv.core(core) || !inv.with(agent) {
					b.Fatalf("an investigation did not find its answer (core %d calls, agent tools %d)", core.calls, agent.calls)
				}
				b.ReportMetric(float64(core.calls), "core-calls")
				b.ReportMetric(float64(core.bytes), "core-bytes")
				b.ReportMetric(float64(agent.calls), "agent-calls")
				b.ReportMetric(float64(agent.bytes), "agent-bytes")
			}
		})
	}
}

// meter is an agent's session that counts its tool calls and the bytes of
// their answers.
type meter struct {
	h            *harness
	prog, id     string
	calls, bytes int
}

func newMeter(b *testing.B, prog string) *meter {
	testHarness := newHarness(b)
	m := &meter{h: testHarness, prog: prog}
	m.id = m.do("create_debug_session", map[string]any{"language": "python"}).str("sessionId")
	return m
}

// do calls a tool, counting it.
func (m *meter) do(tool string, args map[string]any) result {
	m.h.t.Helper()
	if args != nil && m.id != "" {
		args["sessionId"] = m.id
	}
	res, err := m.h.cs.CallTool(m.h.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		m.h.t.Fatalf("%s: %v %v", tool, err, res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	m.calls++
	m.bytes += len(text)
	var out result
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		m.h.t.Fatal(err)
	}
	return out
}

func (m *meter) close() { m.do("close_debug_session", map[string]any{}) }

// Which line reorders the caller's scores? (bugs.py:9, scores.sort() in rank)

func coreReorder(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 30})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog})
	// The agent steps, reading scores in each snapshot, into the call
	// after which they changed.
	m.do("step_into", map[string]any{})
	m.do("step_over", map[string]any{})
	m.do("step_over", map[string]any{})
	in := m.do("step_into", map[string]any{})
	after := m.do("step_over", map[string]any{})
	return in.obj("location").num("line") == 9 && after.vars("locals")["scores"] == "[3, 4, 9]"
}

func agentReorder(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 30})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog, "maxBytes": 2000})
	found := m.do("break_on_change", map[string]any{"expression": "scores", "maxBytes": 2000})
	return found.obj("changedBy").num("line") == 9
}

// What did ratio return for each pair (and which pair made it fail)?

// ratioReturns is what debugpy shows ratio returning, pair by pair: None
// where it raised.
const ratioReturns = "2.0 3.0 2.0 2.0 2.0 None 2.0"

func coreReturns(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"function": "ratio"})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog})
	var returns []string
	for range 7 {
		out := m.do("step_out", map[string]any{})
		returns = append(returns, out.vars("locals")["(return) ratio"])
		m.do("continue_execution", map[string]any{})
	}
	return strings.Join(returns, " ") == ratioReturns
}

func agentReturns(m *meter) bool {
	defer m.close()
	m.do("trace_function", map[string]any{"function": "ratio"})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog, "maxBytes": 2000})
	var returns []string
	_, calls := traceRows(m.h.t, m.do("get_trace", map[string]any{}))
	for _, call := range calls {
		returns = append(returns, call.str("return"))
	}
	return strings.Join(returns, " ") == ratioReturns
}

// At which iteration does the balance first go negative? (n = 13)

func coreNegative(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 39, "condition": "balance - fee < 0"})
	stop := m.do("start_debugging", map[string]any{"scriptPath": m.prog})
	return stop.vars("locals")["n"] == "13"
}

func agentNegative(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 39, "collect": []string{"n", "balance - fee"}})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog, "maxBytes": 2000})
	hits, _ := traceRows(m.h.t, m.do("get_trace", map[string]any{"limit": 20}))
	for _, hit := range hits {
		if strings.HasPrefix(hit.str("balance - fee"), "-") {
			return hit.str("n") == "13"
		}
	}
	return false
}

// BenchmarkTracepointCost measures what a tracepoint hit adds to a run, on
// debugpy (logpoints: the program never stops) and on rdbg 1.4 (the server
// stops, evaluates and continues): the run with the tracepoint minus the
// run without, per hit, beside the costMs rdbg's hits report.
func BenchmarkTracepointCost(b *testing.B) {
	for _, tc := range []struct {
		language, prog string
		line, hits     int
	}{
		{"python", filepath.Join(repoRoot(b), "testdata", "python", "agent.py"), 17, 100},
		{"ruby", filepath.Join(repoRoot(b), "testdata", "ruby", "loop.rb"), 14, 5},
	} {
		b.Run(tc.language, func(b *testing.B) {
			h := newHarness(b)
			id := h.sessionFor(tc.language)
			run := func(trace bool) (time.Duration, float64) {
				h.ok("clear_breakpoints", map[string]any{"sessionId": id})
				if trace {
					h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": tc.prog, "line": tc.line, "collect": []string{"i", "total"}})
				}
				since := h.ok("get_trace", map[string]any{"sessionId": id, "limit": 100000}).num("nextSince")
				start := time.Now()
				h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": tc.prog})
				took := time.Since(start)
				cost := 0.0
				page := h.ok("get_trace", map[string]any{"sessionId": id, "since": since, "limit": 1000})
				hits, _ := traceRows(b, page)
				if trace && len(hits) != tc.hits {
					b.Fatalf("want %d hits, got %d", tc.hits, len(hits))
				}
				for _, table := range page.list("tables") {
					c, _ := table["costMs"].(float64)
					cost += c
				}
				if len(hits) > 0 {
					cost /= float64(len(hits))
				}
				return took, cost
			}
			var plain, traced time.Duration
			var cost float64
			// Alternate the order: a run pays for the end of the one before
			// (debugpy's exit), whichever it was.
			odd := false
			for b.Loop() {
				var p, t time.Duration
				var c float64
				if odd {
					p, _ = run(false)
					t, c = run(true)
				} else {
					t, c = run(true)
					p, _ = run(false)
				}
				odd = !odd
				plain, traced, cost = plain+p, traced+t, cost+c
			}
			n := float64(b.N)
			b.ReportMetric(float64((traced-plain).Microseconds())/1000/n/float64(tc.hits), "ms/hit")
			b.ReportMetric(cost/n, "server-ms/hit")
		})
	}
}
