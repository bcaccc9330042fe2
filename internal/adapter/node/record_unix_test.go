//go:build unix

package node

import (
	"bytes"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// BenchmarkRecordCallHeavy compares a call-heavy program (fib(25):
// 242785 fib calls, 121393 weigh calls, 728k events) run plainly and
// recorded. The slowdown is in CPU time (user+system of node, from
// getrusage of waited-for children): on a shared machine wall time
// measures the other processes too. The cost per event is the CPU the
// recording added, divided by the events it wrote.
func BenchmarkRecordCallHeavy(b *testing.B) {
	a, _ := adapter.Lookup("javascript")
	program := recordTestdata("calls.js")
	var plainCPU, recordedCPU time.Duration
	var events int
	for range b.N {
		plainCPU += childCPU(b, func() {
			if out, err := exec.Command("node", program, "25").CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		})
		file := b.TempDir() + "/events.jsonl"
		recordedCPU += childCPU(b, func() {
			if _, err := a.(adapter.Recorder).Record(b.Context(), adapter.RecordConfig{
				Program: program, Args: []string{"25"}, Cwd: recordTestdata(""), MaxEvents: 1_000_000, EventsFile: file, Output: new(bytes.Buffer),
			}); err != nil {
				b.Fatal(err)
			}
		})
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		events = bytes.Count(data, []byte("\n"))
	}
	b.ReportMetric(float64(recordedCPU)/float64(plainCPU), "x-cpu")
	b.ReportMetric(float64(recordedCPU-plainCPU)/float64(b.N)/float64(events), "ns/event")
	b.ReportMetric(float64(plainCPU)/float64(b.N)/1e6, "plain-ms")
	b.ReportMetric(float64(recordedCPU)/float64(b.N)/1e6, "recorded-ms")
	b.ReportMetric(float64(events), "events")
}

// childCPU is the CPU time of the child processes run waits for.
func childCPU(b *testing.B, run func()) time.Duration {
	var before, after syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before); err != nil {
		b.Fatal(err)
	}
	run()
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after); err != nil {
		b.Fatal(err)
	}
	cpu := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return cpu(after) - cpu(before)
}
