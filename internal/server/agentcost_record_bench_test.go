package server

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// recordInvestigations are BenchmarkAgentCost's questions answered two
// ways (testdata/python/agentcost): with record and at most two
// query_recording calls, and with breakpoints and steps as a careful agent
// would, each way ending when its answers show the fact asked for.
var recordInvestigations = []struct {
	name, prog    string
	record, steps func(m *meter) bool
}{
	{"record_wrong_value_deep_in_calls", "shipping.py", recordWrongValue, stepWrongValue},
	{"record_exception_swallowed_and_reraised", "importer.py", recordSwallowed, stepSwallowed},
	{"record_state_corrupted_earlier", "ledger.py", recordCorruption, stepCorruption},
}

// benchRecordInvestigations runs recordInvestigations, reporting each
// way's calls and bytes.
func benchRecordInvestigations(b *testing.B) {
	for _, inv := range recordInvestigations {
		b.Run(inv.name, func(b *testing.B) {
			testenv.RequireAdapter(b, "python")
			prog := filepath.Join(repoRoot(b), "testdata", "python", "agentcost", inv.prog)
			for b.Loop() {
				recorded, stepped := newMeter(b, "", prog), newMeter(b, "python", prog)
				if !inv.record(recorded) || !inv.steps(stepped) {
					b.Fatalf("an investigation did not find its answer (record %d calls, steps %d)", recorded.calls, stepped.calls)
				}
				b.ReportMetric(float64(recorded.calls), "record-calls")
				b.ReportMetric(float64(recorded.bytes), "record-bytes")
				b.ReportMetric(float64(stepped.calls), "steps-calls")
				b.ReportMetric(float64(stepped.bytes), "steps-bytes")
			}
		})
	}
}

// recordingOf is the recordingId of a record answer.
func recordingOf(m *meter, answer string) string {
	var res struct {
		RecordingID string `json:"recordingId"`
	}
	if err := json.Unmarshal([]byte(answer), &res); err != nil || res.RecordingID == "" {
		m.h.t.Fatalf("no recordingId in: %s", answer)
	}
	return res.RecordingID
}

// callIDs are the ids of a query answer's rows, in the order shown.
func callIDs(m *meter, answer string) []int {
	var page struct {
		Tables []struct {
			Rows [][]any `json:"rows"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(answer), &page); err != nil {
		m.h.t.Fatalf("a query answer that is not a page of tables: %s", answer)
	}
	var ids []int
	for _, t := range page.Tables {
		for _, row := range t.Rows {
			if id, ok := row[0].(float64); ok {
				ids = append(ids, int(id))
			}
		}
	}
	return ids
}

// (a) Order B-2's total is 410.5 where ~140 was expected: which call made
// the wrong value? weight_surcharge(kg=8.0) returns 270.0, in cents, three
// calls below order_total.

func recordWrongValue(m *meter) bool {
	defer m.close()
	id := recordingOf(m, m.do("record", map[string]any{"language": "python", "scriptPath": m.prog}))
	// The report's last calls are C-3's: the agent lists the orders'
	// totals, then every call made for B-2's.
	ids := callIDs(m, m.do("query_recording", map[string]any{"recordingId": id, "calls": "order_total"}))
	if len(ids) != 3 {
		m.h.t.Fatalf("want the three orders' order_total calls, got ids %v", ids)
	}
	within := m.do("query_recording", map[string]any{"recordingId": id, "from": ids[1], "to": ids[2] - 1})
	return shows(within, "kg", "8.0") && showsInOrder(within, "shipping.weight_surcharge", "270.0")
}

func stepWrongValue(m *meter) bool {
	defer m.close()
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 33, "condition": `order["id"] == "B-2"`})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog})
	// Which of the two sums is wrong? subtotal's return is right (58.0).
	m.do("step_into", map[string]any{})
	m.do("step_out", map[string]any{})
	// Into shipping: its weight, at the return, is right (8.0)...
	m.do("step_into", map[string]any{})
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 22})
	m.do("continue_execution", map[string]any{})
	// ...so the rate is wrong: into carrier_rate, then weight_surcharge.
	m.do("step_into", map[string]any{})
	m.do("step_into", map[string]any{})
	return shows(m.do("step_out", map[string]any{}), "(return) weight_surcharge", "270.0")
}

// (b) The import fails with ImportFailed ("row 3 is not a record"): which
// error made it? A ValueError from parse_amount (float of '1 23450'),
// swallowed in parse_row.

// originalError is what the answer must show of the swallowed error.
func originalError(text string) bool {
	return strings.Contains(text, "ValueError") && strings.Contains(text, "could not convert string to float: '1 23450'")
}

func recordSwallowed(m *meter) bool {
	defer m.close()
	return originalError(m.do("record", map[string]any{"language": "python", "scriptPath": m.prog}))
}

func stepSwallowed(m *meter) bool {
	defer m.close()
	// Stopping at every raised exception also stops at category_of's
	// KeyErrors, which it handles itself: the agent continues past them.
	stop := m.do("start_debugging", map[string]any{"scriptPath": m.prog, "breakOnExceptions": "all"})
	for range 5 {
		if originalError(stop) {
			return true
		}
		stop = m.do("continue_execution", map[string]any{})
	}
	return false
}

// (c) carol's last payment fails ("carol has 55, needs 120"; 235 was
// expected): which earlier call corrupted her balance? refund(carol, 15)
// set it to 15 instead of adding.

func recordCorruption(m *meter) bool {
	defer m.close()
	report := m.do("record", map[string]any{"language": "python", "scriptPath": m.prog})
	// Done when the report's last calls show it: refund(carol, 15)
	// returned 15, and the next call saw carol's balance at 15.
	if showsInOrder(report, "ledger.refund", "name='carol'", "amount=15", "-> 15", "'carol': 15") {
		return true
	}
	calls := m.do("query_recording", map[string]any{"recordingId": recordingOf(m, report), "where": "name == 'carol'"})
	return showsInOrder(calls, "ledger.refund", "'carol'", "15", "15")
}

func stepCorruption(m *meter) bool {
	defer m.close()
	// The agent stops at run's first call and steps over each one,
	// reading accounts in every snapshot.
	m.do("set_breakpoint", map[string]any{"file": m.prog, "line": 33})
	m.do("start_debugging", map[string]any{"scriptPath": m.prog})
	m.do("step_over", map[string]any{})
	m.do("step_over", map[string]any{})
	afterRefund := m.do("step_over", map[string]any{})
	return shows(afterRefund, "(return) refund", "15") && shows(afterRefund, "'carol'", "15")
}
