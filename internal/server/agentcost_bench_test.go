package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// BenchmarkAgentCost runs scripted investigations, each one real debug
// session, and reports the tool calls and the bytes of answers each needs.
// The first three (testdata/python/bugs.py) run twice: with the tools every
// MCP debugger has (breakpoints, conditions, steps, continue, stop
// snapshots), and with the agent tools (break_on_change, trace_function,
// tracepoints). The others are investigations an agent meets in real work
// (agentcost_investigations_bench_test.go). Every script checks it found
// its answer in the answers' text, so that it holds whatever shape the
// answers take. Run with -benchtime 1x.
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
				core, agent := newMeter(b, "python", prog), newMeter(b, "python", prog)
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
	for _, inv := range investigations {
		b.Run(inv.name, func(b *testing.B) {
			for b.Loop() {
				testenv.RequireAdapter(b, inv.language)
				m := newMeter(b, "", filepath.Join(repoRoot(b), inv.prog))
				if !inv.run(m) {
					b.Fatalf("the investigation did not find its answer after %d calls", m.calls)
				}
				b.ReportMetric(float64(m.calls), "calls")
				b.ReportMetric(float64(m.bytes), "bytes")
			}
		})
	}
	benchRecordInvestigations(b)
	benchPrintRounds(b)
	benchFirstCalls(b)
	benchDeadlock(b)
	for _, profile := range Profiles {
		b.Run("tools_list/"+string(profile), func(b *testing.B) {
			for b.Loop() {
				b.ReportMetric(float64(toolsListBytes(newHarnessOffering(b, profile))), "bytes")
			}
		})
	}
}

// toolsListBytes is the size of the tools array a client receives from
// tools/list: what every agent pays once per conversation.
func toolsListBytes(h *harness) int {
	res, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		h.t.Fatalf("tools/list: %v", err)
	}
	tools, err := json.Marshal(res.Tools)
	if err != nil {
		h.t.Fatalf("tools/list: %v", err)
	}
	return len(tools)
}

// meter is an agent's session that counts its tool calls and the bytes of
// their answers.
type meter struct {
	h            *harness
	prog, id     string
	calls, bytes int
}

// newMeter starts an agent on prog; with a language it creates the session
// at once, without one the first answer that names a session (debug_test's)
// gives it.
func newMeter(b *testing.B, language, prog string) *meter {
	m := &meter{h: newHarness(b), prog: prog}
	if language != "" {
		m.do("create_debug_session", map[string]any{"language": language})
	}
	return m
}

// sessionIDPattern matches a session id wherever an answer puts it.
var sessionIDPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// do calls a tool, counting it, and returns the answer's text.
func (m *meter) do(tool string, args map[string]any) string {
	m.h.t.Helper()
	if m.id != "" {
		args["sessionId"] = m.id
	}
	res, err := m.h.cs.CallTool(m.h.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		m.h.t.Fatalf("%s: %v %v", tool, err, res)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	m.calls++
	m.bytes += text.Len()
	if m.id == "" {
		m.id = sessionIDPattern.FindString(text.String())
	}
	if path := os.Getenv("MCP_DEBUGGER_BENCH_ANSWERS"); path != "" {
		m.record(path, tool, text.String())
	}
	return text.String()
}

// record appends an answer to the file at path, for writing or checking a
// script (a benchmark's log keeps only its first lines).
func (m *meter) record(path, tool, text string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		m.h.t.Fatalf("recording answers: %v", err)
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "%s %s → %s\n", m.h.t.Name(), tool, text); err != nil {
		m.h.t.Fatalf("recording answers: %v", err)
	}
}

func (m *meter) close() { m.do("close_debug_session", map[string]any{}) }

// shows reports whether text pairs name with value the way an answer shows
// a variable, a location or a trace row: value comes within a few
// characters after name, on the same line, each standing alone (not part
// of a longer word or number). It holds for JSON objects ("name":"n",
// "value":"13") as for text (n = 13, a table's row).
func shows(text, name, value string) bool {
	pattern := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(name) + `(?:[^\w.][^\n]{0,44}?[^\w.-]|[^\w.])` + regexp.QuoteMeta(value) + `(?:[^\w.]|$)`)
	return pattern.MatchString(text)
}

// showsInOrder reports whether text shows values one after the other.
func showsInOrder(text string, values ...string) bool {
	for _, v := range values {
		at := regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(v) + `(?:[^\w.]|$)`).FindStringIndex(text)
		if at == nil {
			return false
		}
		text = text[at[1]-1:]
	}
	return true
}

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
	return shows(in, "bugs.py", "9") && shows(after, "scores", "[3, 4, 9]")
}

func agentReorder(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 30})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog, "maxBytes": 2000})
	found := m.do("break_on_change", map[string]any{"expression": "scores", "maxBytes": 2000})
	return strings.Contains(found, "scores changed at bugs.py:9.")
}

// What did ratio return for each pair (and which pair made it fail)?

// ratioReturns is what debugpy shows ratio returning, pair by pair: None
// where it raised. The arguments are ints, so these floats are returns.
var ratioReturns = []string{"2.0", "3.0", "2.0", "2.0", "2.0", "None", "2.0"}

func coreReturns(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"function": "ratio"})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog})
	found := 0
	for _, want := range ratioReturns {
		if shows(m.do("step_out", map[string]any{}), "(return) ratio", want) {
			found++
		}
		m.do("continue_execution", map[string]any{})
	}
	return found == len(ratioReturns)
}

func agentReturns(m *meter) bool {
	defer m.close()
	m.do("trace_function", map[string]any{"function": "ratio"})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog, "maxBytes": 2000})
	return showsInOrder(m.do("get_trace", map[string]any{}), ratioReturns...)
}

// At which iteration does the balance first go negative? (n = 13, where
// balance - fee is -5)

func coreNegative(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 39, "condition": "balance - fee < 0"})
	return shows(m.do("start_debugging", map[string]any{"scriptPath": m.prog}), "n", "13")
}

func agentNegative(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 39, "collect": []string{"n", "balance - fee"}})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog, "maxBytes": 2000})
	return shows(m.do("get_trace", map[string]any{"limit": 20}), "13", "-5")
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
