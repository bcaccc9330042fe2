package server

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// recordBenchCalls is how many calls of square a benchmarked run makes:
// enough that the launch weighs little against them.
const recordBenchCalls = 200

// The cost of one recorded call (its call and ret events) through
// breakpoints: the recorded run's time over its calls, less that of the
// same recording with no calls of square (the build, the launch, main).
func BenchmarkRecordCallEventByBreakpoints(b *testing.B) {
	for _, tc := range []struct{ language, program string }{
		{"go", "testdata/record/go/loop"},
		{"c", "testdata/record/c/loop.c"},
		{"cpp", "testdata/record/cpp/loop.cpp"},
		{"rust", "testdata/record/rustloop"},
	} {
		b.Run(tc.language, func(b *testing.B) {
			testenv.RequireAdapter(b, tc.language)
			program := filepath.Join(repoRoot(b), tc.program)
			args := map[string]any{"language": tc.language, "scriptPath": program, "cwd": programDirOf(program)}
			h := newHarness(b)
			args["args"] = []string{"0"}
			base := timed(func() { h.ok("record", args) })
			b.ResetTimer()
			var perCall time.Duration
			for i := 0; i < b.N; i++ {
				args["args"] = []string{strconv.Itoa(recordBenchCalls)}
				var res result
				elapsed := timed(func() { res = h.ok("record", args) })
				if calls := res.obj("report").obj("counts").num("calls"); calls < recordBenchCalls {
					b.Fatalf("recorded %d calls, want %d or more: %v", calls, recordBenchCalls, res)
				}
				perCall += (elapsed - base) / recordBenchCalls
				h.ok("close_debug_session", map[string]any{"sessionId": res.str("sessionId")})
			}
			b.ReportMetric(float64(perCall.Microseconds())/float64(b.N), "µs/call")
			b.ReportMetric(float64(base.Milliseconds()), "launch-ms")
		})
	}
}

func timed(f func()) time.Duration {
	began := time.Now()
	f()
	return time.Since(began)
}

// programDirOf is a program's directory: the program itself when it is one
// (a Go package).
func programDirOf(program string) string {
	if filepath.Ext(program) == "" {
		return program
	}
	return filepath.Dir(program)
}
