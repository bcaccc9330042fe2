package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// printRoundActions is what the same look costs an agent without a
// debugger: edit a print into the loop, run the program, edit it out.
const printRoundActions = 3

// benchPrintRounds is BenchmarkAgentCost's "print round" per language: one
// look at the values inside a loop of a program (i and total at each
// iteration of lookPrograms' loop), as an agent would add a print. It must
// take one call, against printRoundActions without the debugger, and the
// answer must show every iteration's values.
func benchPrintRounds(b *testing.B) {
	for _, row := range lookPrograms {
		b.Run("print_round_"+row.language, func(b *testing.B) {
			testenv.RequireAdapter(b, row.language)
			prog := filepath.Join(b.TempDir(), row.file)
			if err := os.WriteFile(prog, []byte(row.source), 0o644); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				m := newMeter(b, "", prog)
				answer := m.do("start_debugging", map[string]any{"language": row.language, "scriptPath": prog, "timeout": 120000,
					"probes": []string{fmt.Sprintf("%s:%d print i, total", prog, row.line)}})
				if !strings.Contains(answer, `"rows":[["0","0"],["1","0"],["2","1"],["3","3"],["4","6"]]`) {
					b.Fatalf("the look did not show every iteration's i and total: %s", answer)
				}
				if m.calls != 1 {
					b.Fatalf("a print round took %d calls, a print %d actions", m.calls, printRoundActions)
				}
				b.ReportMetric(float64(m.calls), "calls")
				b.ReportMetric(printRoundActions, "print-actions")
				b.ReportMetric(float64(m.bytes), "bytes")
			}
		})
	}
}
