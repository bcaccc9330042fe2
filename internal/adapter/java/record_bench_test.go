package java

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// benchCalls is how many calls of Calls.work a run makes: each is two
// events (entry and exit).
const benchCalls = 20_000

var loopTime = regexp.MustCompile(`loopns (\d+)`)

// BenchmarkJavaRecord measures what recording costs per call event on
// testdata/record/java/Calls.java, from the loop time the program prints
// itself (JVM start-up left out), against the same loop run:
//   - plain: without the debug agent;
//   - suspend-none: MethodEntry and MethodExitWithReturnValue events for
//     the class with suspend policy NONE, only drained (no arguments: a
//     frame can be read only on a suspended thread);
//   - suspend-thread: the same suspending the event's thread, reading the
//     argument (Frames + StackFrame.GetValues) at entry, resuming;
//   - record: the recorder itself (Record), writing the JSONL;
//
// and the time of one JDWP command's round trip (ThreadReference.Status),
// the unit of a suspended event's cost.
func BenchmarkJavaRecord(b *testing.B) {
	testenv.RequireAdapter(b, languageID)
	java, err := exec.LookPath("java")
	if err != nil {
		b.Skip("no java")
	}
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "record", "java", "Calls.java")
	ctx := context.Background()
	dir, err := compileSingleFile(ctx, java, src)
	if err != nil {
		b.Fatal(err)
	}
	lc := &launchConfig{JavaPath: java, MainClass: "Calls", ClassPaths: []string{dir}, Args: []string{strconv.Itoa(benchCalls)}, Cwd: dir}
	runs := map[string]func(b *testing.B) time.Duration{
		"plain": func(b *testing.B) time.Duration {
			out, err := exec.Command(java, "-cp", dir, "Calls", strconv.Itoa(benchCalls)).Output()
			if err != nil {
				b.Fatal(err)
			}
			return loopOf(b, string(out))
		},
		"suspend-none":   func(b *testing.B) time.Duration { return rawEventsRun(b, lc, jdwp.SuspendNone) },
		"suspend-thread": func(b *testing.B) time.Duration { return rawEventsRun(b, lc, jdwp.SuspendThread) },
		"record": func(b *testing.B) time.Duration {
			var out bytes.Buffer
			_, err := New().Record(ctx, adapter.RecordConfig{
				Program: filepath.Join(dir, "Calls.class"), Args: lc.Args, Cwd: dir,
				EventsFile: filepath.Join(b.TempDir(), "events.jsonl"), Output: &out,
			})
			if err != nil {
				b.Fatal(err)
			}
			return loopOf(b, out.String())
		},
	}
	b.Run("jdwp-round-trip", func(b *testing.B) {
		b.ReportMetric(float64(roundTrip(b, lc).Nanoseconds()), "ns/round-trip")
	})
	for _, name := range []string{"plain", "suspend-none", "suspend-thread", "record"} {
		b.Run(name, func(b *testing.B) {
			var total time.Duration
			for range b.N {
				total += runs[name](b)
			}
			loop := total / time.Duration(b.N)
			b.ReportMetric(float64(loop.Milliseconds()), "loop-ms")
			b.ReportMetric(float64(loop.Nanoseconds())/(2*benchCalls), "ns/event")
		})
	}
}

// loopOf reads the loop time Calls printed.
func loopOf(b *testing.B, out string) time.Duration {
	m := loopTime.FindStringSubmatch(out)
	if m == nil {
		b.Fatalf("no loop time in %q", out)
	}
	ns, _ := strconv.ParseInt(m[1], 10, 64)
	return time.Duration(ns)
}

// rawEventsRun runs Calls under the agent with method events for it at
// the given suspend policy; a suspended thread has its argument read
// and is resumed, as the recorder does.
func rawEventsRun(b *testing.B, lc *launchConfig, suspend byte) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var out strings.Builder
	j, err := spawnJVM(ctx, lc, func(_, text string) { out.WriteString(text) })
	if err != nil {
		b.Fatal(err)
	}
	defer j.close()
	var opts jdwp.Options
	vm, err := dialQuickAck(ctx, net.JoinHostPort("127.0.0.1", strconv.Itoa(j.port)), &opts)
	if err != nil {
		b.Fatal(err)
	}
	defer vm.Close()
	if err := awaitVMStart(ctx, vm); err != nil {
		b.Fatal(err)
	}
	for _, kind := range []byte{jdwp.EventMethodEntry, jdwp.EventMethodExitRV} {
		if _, err := vm.SetEvent(ctx, kind, suspend, jdwp.ClassMatch("Calls")); err != nil {
			b.Fatal(err)
		}
	}
	if err := vm.Resume(ctx); err != nil {
		b.Fatal(err)
	}
	for set := range vm.Events() {
		if set.SuspendPolicy != jdwp.SuspendThread {
			continue
		}
		for _, e := range set.Events {
			if e.Kind == jdwp.EventMethodEntry {
				readFirstArgument(ctx, b, vm, e.Thread)
			}
		}
		if err := vm.ResumeThread(ctx, set.Events[0].Thread); err != nil {
			break
		}
	}
	select {
	case <-j.p.Done():
	case <-ctx.Done():
		b.Fatal(ctx.Err())
	}
	j.drain()
	return loopOf(b, out.String())
}

// readFirstArgument reads slot 0 of the top frame (work's int i; main's
// String[] args).
func readFirstArgument(ctx context.Context, b *testing.B, vm *jdwp.Conn, thread jdwp.ObjectID) {
	frames, err := vm.Frames(ctx, thread, 0, 1)
	if err != nil || len(frames) == 0 {
		b.Fatal(fmt.Errorf("frames: %w", err))
	}
	if _, err := vm.FrameValues(ctx, thread, frames[0].ID, []jdwp.SlotRequest{{Slot: 0, Tag: jdwp.TagObject}}); err != nil && !jdwp.IsCode(err, 34) {
		b.Fatal(err)
	}
}

// roundTripCommands is how many commands roundTrip times.
const roundTripCommands = 2000

// roundTrip is the mean time of a JDWP command and its reply on a JVM
// waiting suspended at its start.
func roundTrip(b *testing.B, lc *launchConfig) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	j, err := spawnJVM(ctx, lc, func(string, string) {})
	if err != nil {
		b.Fatal(err)
	}
	defer j.close()
	var opts jdwp.Options
	vm, err := dialQuickAck(ctx, net.JoinHostPort("127.0.0.1", strconv.Itoa(j.port)), &opts)
	if err != nil {
		b.Fatal(err)
	}
	defer vm.Close()
	if err := awaitVMStart(ctx, vm); err != nil {
		b.Fatal(err)
	}
	threads, err := vm.AllThreads(ctx)
	if err != nil || len(threads) == 0 {
		b.Fatalf("threads: %v", err)
	}
	var total time.Duration
	for range b.N {
		began := time.Now()
		for range roundTripCommands {
			if _, _, err := vm.ThreadStatus(ctx, threads[0]); err != nil {
				b.Fatal(err)
			}
		}
		total += time.Since(began)
	}
	return total / time.Duration(b.N*roundTripCommands)
}
