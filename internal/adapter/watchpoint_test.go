package adapter

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// isolateWatchpoints gives the test a probe state of its own, without the
// environment override, and puts the process's back afterwards, once the
// test's own probe (if any) has ended.
func isolateWatchpoints(t *testing.T) {
	t.Helper()
	t.Setenv(WatchpointsEnv, "")
	watchpoints.mu.Lock()
	if watchpoints.running != nil {
		watchpoints.mu.Unlock()
		t.Fatal("a probe of another test is still running")
	}
	saved := struct {
		probers, fallbacks []namedProber
		status             WatchpointStatus
		decided            bool
		undecidedAt        time.Time
	}{watchpoints.probers, watchpoints.fallbacks, watchpoints.status, watchpoints.decided, watchpoints.undecidedAt}
	watchpoints.probers, watchpoints.fallbacks = nil, nil
	watchpoints.status, watchpoints.decided, watchpoints.undecidedAt = WatchpointStatus{}, false, time.Time{}
	watchpoints.mu.Unlock()
	savedTimeout, savedRetry := probeTimeout, undecidedRetry
	t.Cleanup(func() {
		watchpoints.mu.Lock()
		running := watchpoints.running
		watchpoints.mu.Unlock()
		if running != nil {
			select {
			case <-running:
			case <-time.After(10 * time.Second):
				t.Error("the test's probe did not end")
			}
		}
		watchpoints.mu.Lock()
		watchpoints.probers, watchpoints.fallbacks = saved.probers, saved.fallbacks
		watchpoints.status, watchpoints.decided, watchpoints.undecidedAt = saved.status, saved.decided, saved.undecidedAt
		watchpoints.mu.Unlock()
		probeTimeout, undecidedRetry = savedTimeout, savedRetry
	})
}

// fakeProber answers as told and counts its runs.
type fakeProber struct {
	ran, fired bool
	detail     string
	calls      atomic.Int32
	// started, when set, receives a value as each run starts; release,
	// when set, holds each run undecidedAt it is closed.
	started chan struct{}
	release chan struct{}
}

func (f *fakeProber) probe(ctx context.Context) (bool, bool, string) {
	f.calls.Add(1)
	if f.started != nil {
		f.started <- struct{}{}
	}
	if f.release != nil {
		select {
		case <-f.release:
		case <-ctx.Done():
			return false, false, "cut short: " + ctx.Err().Error()
		}
	}
	return f.ran, f.fired, f.detail
}

func TestWatchpointsEnvOverride(t *testing.T) {
	isolateWatchpoints(t)
	p := &fakeProber{ran: true, fired: true, detail: "fired"}
	RegisterWatchpointProber("fake", p.probe)
	for _, v := range []string{"off", "OFF", " 0 ", "false", "no"} {
		t.Setenv(WatchpointsEnv, v)
		if st := Watchpoints(context.Background()); st.Usable || st.Probed || !strings.Contains(st.Reason, WatchpointsEnv+"=off") {
			t.Errorf("%s=%q: %+v", WatchpointsEnv, v, st)
		}
	}
	for _, v := range []string{"on", "1", "true", "Yes"} {
		t.Setenv(WatchpointsEnv, v)
		if st := Watchpoints(context.Background()); !st.Usable || st.Probed || !strings.Contains(st.Reason, WatchpointsEnv+"=on") {
			t.Errorf("%s=%q: %+v", WatchpointsEnv, v, st)
		}
	}
	if n := p.calls.Load(); n != 0 {
		t.Errorf("the override must not probe; the prober ran %d times", n)
	}
}

func TestWatchpointsProbedOnceForAllCallers(t *testing.T) {
	isolateWatchpoints(t)
	p := &fakeProber{ran: true, fired: true, detail: "lldb-dap stopped on the write", started: make(chan struct{}, 1), release: make(chan struct{})}
	RegisterWatchpointProber("fake", p.probe)
	const callers = 5
	got := make(chan WatchpointStatus, callers)
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got <- Watchpoints(context.Background())
		}()
	}
	<-p.started
	close(p.release)
	wg.Wait()
	close(got)
	for st := range got {
		if !st.Usable || !st.Probed || !strings.Contains(st.Reason, "work on this host") || !strings.Contains(st.Reason, "lldb-dap stopped on the write") {
			t.Errorf("a caller got %+v", st)
		}
	}
	if st := Watchpoints(context.Background()); !st.Usable {
		t.Errorf("a later call: %+v", st)
	}
	if n := p.calls.Load(); n != 1 {
		t.Errorf("the probe ran %d times, want once for every caller", n)
	}
}

func TestWatchpointsThatDoNotFire(t *testing.T) {
	isolateWatchpoints(t)
	p := &fakeProber{ran: true, detail: "the program ran past every write"}
	RegisterWatchpointProber("fake", p.probe)
	st := Watchpoints(context.Background())
	if st.Usable || !st.Probed || !strings.Contains(st.Reason, "do not fire on this host") || !strings.Contains(st.Reason, "ran past every write") {
		t.Fatalf("%+v", st)
	}
	undecidedRetry = 0
	Watchpoints(context.Background())
	if n := p.calls.Load(); n != 1 {
		t.Errorf("a decided answer is kept: the probe ran %d times", n)
	}
}

func TestWatchpointsProberThatCannotRun(t *testing.T) {
	isolateWatchpoints(t)
	missing := &fakeProber{detail: "lldb-dap not found"}
	RegisterWatchpointProber("lldb-dap", missing.probe)
	st := Watchpoints(context.Background())
	if st.Usable || st.Probed || !strings.Contains(st.Reason, "no debugger here could probe") || !strings.Contains(st.Reason, "lldb-dap: lldb-dap not found") {
		t.Fatalf("%+v", st)
	}
	Watchpoints(context.Background())
	if n := missing.calls.Load(); n != 1 {
		t.Errorf("within undecidedRetry the answer is reused: the probe ran %d times", n)
	}
	// Once undecidedRetry has passed, the next call tries again: the
	// debugger may have been installed since.
	undecidedRetry = 0
	Watchpoints(context.Background())
	Watchpoints(context.Background())
	if n := missing.calls.Load(); n != 3 {
		t.Errorf("an undecided answer must not stand for good: the probe ran %d times, want 3", n)
	}
}

func TestWatchpointsFallbackProberOnlyWhenOthersCannot(t *testing.T) {
	isolateWatchpoints(t)
	undecidedRetry = 0
	fallback := &fakeProber{ran: true, detail: "delve: ran past every write"}
	RegisterWatchpointFallbackProber("delve", fallback.probe)
	first := &fakeProber{ran: true, fired: true, detail: "lldb-dap: fired"}
	RegisterWatchpointProber("lldb-dap", first.probe)
	if st := Watchpoints(context.Background()); !st.Usable || !strings.Contains(st.Reason, "lldb-dap: fired") {
		t.Fatalf("the ordinary prober, registered after the fallback, decides: %+v", st)
	}
	if n := fallback.calls.Load(); n != 0 {
		t.Errorf("the fallback ran %d times though the first prober decided", n)
	}

	isolateWatchpoints(t)
	cannot := &fakeProber{detail: "cc not found"}
	RegisterWatchpointProber("lldb-dap", cannot.probe)
	RegisterWatchpointFallbackProber("delve", fallback.probe)
	if st := Watchpoints(context.Background()); st.Usable || !st.Probed || !strings.Contains(st.Reason, "delve: ran past every write") {
		t.Fatalf("the fallback decides when the first cannot run: %+v", st)
	}
	if cannot.calls.Load() != 1 || fallback.calls.Load() != 1 {
		t.Errorf("each prober runs once: %d, %d", cannot.calls.Load(), fallback.calls.Load())
	}
}

func TestWatchpointsCallerThatGivesUp(t *testing.T) {
	isolateWatchpoints(t)
	p := &fakeProber{ran: true, fired: true, detail: "fired", started: make(chan struct{}, 1), release: make(chan struct{})}
	RegisterWatchpointProber("fake", p.probe)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := Watchpoints(ctx)
	if st.Usable || st.Probed || !strings.Contains(st.Reason, "context canceled") {
		t.Fatalf("a caller whose context ended: %+v", st)
	}
	// A caller with a deadline waits no longer than it.
	short, cancelShort := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancelShort()
	if st := Watchpoints(short); st.Usable || !strings.Contains(st.Reason, "deadline exceeded") {
		t.Fatalf("a caller whose deadline passed: %+v", st)
	}
	// The probe went on without them, and its answer is kept for the next.
	<-p.started
	close(p.release)
	if st := Watchpoints(context.Background()); !st.Usable || !st.Probed {
		t.Fatalf("after the probe: %+v", st)
	}
	if n := p.calls.Load(); n != 1 {
		t.Errorf("the probe ran %d times, want once", n)
	}
}

func TestWatchpointsProbeTimeout(t *testing.T) {
	isolateWatchpoints(t)
	probeTimeout = 50 * time.Millisecond
	var hadDeadline atomic.Bool
	RegisterWatchpointProber("stuck", func(ctx context.Context) (bool, bool, string) {
		_, ok := ctx.Deadline()
		hadDeadline.Store(ok)
		<-ctx.Done()
		return false, false, "gave up: " + ctx.Err().Error()
	})
	later := &fakeProber{ran: true, fired: true, detail: "fired"}
	RegisterWatchpointFallbackProber("later", later.probe)
	st := Watchpoints(context.Background())
	if st.Usable || st.Probed || !strings.Contains(st.Reason, "stuck: gave up") || !strings.Contains(st.Reason, "ran out of time") {
		t.Fatalf("%+v", st)
	}
	if !hadDeadline.Load() {
		t.Error("the prober's context had no deadline")
	}
	if n := later.calls.Load(); n != 0 {
		t.Errorf("no prober runs after the probe's time is up; the next one ran %d times", n)
	}
}
