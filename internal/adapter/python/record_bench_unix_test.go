//go:build unix

package python

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// BenchmarkRecordCallHeavy compares testdata/python/record/calls.py
// (200 000 calls of user code, 400 000 call and return events) run
// plainly and recorded, on each of pyenv's Python 3.11 (sys.settrace),
// 3.12 and 3.13 (sys.monitoring) found on the machine, and pytest running
// test_calls.py (100 000 calls) with the interpreter that has pytest. The
// figures are CPU time (user+system of the waited-for children): on a
// shared machine wall time measures the other processes too. The cost per
// event is the CPU the recording added divided by the events it wrote:
// for pytest that includes tracing pytest's own start-up.
func BenchmarkRecordCallHeavy(b *testing.B) {
	home, _ := os.UserHomeDir()
	pythons, _ := filepath.Glob(filepath.Join(home, ".pyenv", "versions", "3.1[1-9].*", "bin", "python3"))
	if len(pythons) == 0 {
		b.Skip("no pyenv Python 3.11+ under ~/.pyenv/versions")
	}
	program := fixture(b, filepath.Join("record", "calls.py"))
	for _, python := range pythons {
		version := filepath.Base(filepath.Dir(filepath.Dir(python)))
		b.Run("program/"+version, func(b *testing.B) {
			benchRecording(b, []string{python, program}, adapter.RecordConfig{
				Program: program, Cwd: filepath.Dir(program), ExecutablePath: python,
			})
		})
	}
	b.Run("pytest", func(b *testing.B) {
		test := fixture(b, filepath.Join("record", "test_calls.py"))
		plan, err := New().TestPlan(b.Context(), adapter.TestRequest{Path: test})
		if err != nil {
			b.Skipf("no interpreter with pytest: %v", err)
		}
		plain := append([]string{plan.ExecutablePath, "-m", "pytest"}, plan.Args...)
		benchRecording(b, plain, adapter.RecordConfig{Test: &adapter.TestRequest{Path: test}, Cwd: filepath.Dir(test)})
	})
}

// benchRecording runs the plain command line and the recording cfg
// describes b.N times each and reports their CPU times, the ratio, and
// the cost per event.
func benchRecording(b *testing.B, plain []string, cfg adapter.RecordConfig) {
	var plainCPU, recordedCPU time.Duration
	var events int
	for range b.N {
		cmd := exec.Command(plain[0], plain[1:]...)
		cmd.Dir = cfg.Cwd
		plainCPU += childCPU(b, func() {
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		})
		cfg.EventsFile = filepath.Join(b.TempDir(), "events.jsonl")
		cfg.MaxEvents = 1_000_000
		out := new(bytes.Buffer)
		cfg.Output = out
		recorder := recorderCommand(b, cfg)
		recorder.Stdout, recorder.Stderr = out, out
		recordedCPU += childCPU(b, func() {
			if err := recorder.Run(); err != nil {
				b.Fatalf("recording: %v: %s", err, out)
			}
		})
		data, err := os.ReadFile(cfg.EventsFile)
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

// recorderCommand is the recorder's command line as Record makes it. The
// benchmark runs it itself so that the interpreter search Record does
// first (a few short Python processes) is not counted.
func recorderCommand(b *testing.B, cfg adapter.RecordConfig) *exec.Cmd {
	run, err := New().recordRun(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	var cleanups []func()
	b.Cleanup(func() {
		for _, c := range cleanups {
			c()
		}
	})
	scripts, err := scriptsDir(&cleanups)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(run.python.Path, append([]string{filepath.Join(scripts, recorderFile)}, recorderOptions(cfg, run)...)...)
	cmd.Dir = run.cwd
	return cmd
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
