package adapter

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// WatchpointsEnv overrides the hardware watchpoint probe: "off" makes every
// data breakpoint fall back as if the host had no debug registers (tests
// set it to cover the fallback on every host), "on" trusts them without
// probing.
const WatchpointsEnv = "MCP_DEBUGGER_WATCHPOINTS"

// WatchpointStatus says whether data breakpoints can be relied on here.
// Virtual machines differ in whether the CPU's debug registers reach the
// guest: on some, a debugger sets a watchpoint, reports it enabled, and the
// program runs past every write (docs/adapter-quirks.md, lldb-18, delve-13).
// lldb-dap and Delve alike ride on those registers.
type WatchpointStatus struct {
	// Usable: a watchpoint set by a real debugger fired on a real write.
	Usable bool `json:"usable"`
	// Probed: a probe ran and decided (false when forced by
	// WatchpointsEnv, when no prober could run or decide on this machine,
	// or when the caller stopped waiting for the probe).
	Probed bool `json:"probed"`
	// Reason is one line saying how that was decided.
	Reason string `json:"reason"`
}

// WatchpointProber runs a tiny program that writes a watched variable
// under a real debugger. ran is false when the prober cannot run here (its
// debugger or compiler is missing) or could not decide (the debugger
// failed, time ran out); then the next prober is tried. fired says whether
// the watchpoint stopped the program on the write; detail says what was
// run and what happened. The prober must return soon after ctx ends.
type WatchpointProber func(ctx context.Context) (ran, fired bool, detail string)

// The probe's bounds. A decided answer is a property of the host and is
// kept for the process's life; an undecided one (no prober could run, or
// none could decide) may be a missing install fixed since, or a busy
// machine, so it is only kept for undecidedRetry, to spare every call the
// cost of failing again. Variables, so that tests can shorten them.
var (
	probeTimeout   = 2 * time.Minute
	undecidedRetry = time.Minute
)

// watchpoints is the process's one probe: its probers, and its answer.
var watchpoints struct {
	mu sync.Mutex
	// probers are tried in order, then fallbacks.
	probers, fallbacks []namedProber
	status             WatchpointStatus
	// decided: a prober ran; status stands for the process's life.
	decided bool
	// undecidedAt is when the last undecided status was reached.
	undecidedAt time.Time
	// running is closed when the probe under way ends; nil when none is.
	running chan struct{}
}

type namedProber struct {
	name  string
	probe WatchpointProber
}

// RegisterWatchpointProber adds a prober, tried in registration order until
// one can run. Adapter packages call it from init.
func RegisterWatchpointProber(name string, p WatchpointProber) {
	watchpoints.mu.Lock()
	defer watchpoints.mu.Unlock()
	watchpoints.probers = append(watchpoints.probers, namedProber{name, p})
}

// RegisterWatchpointFallbackProber adds a prober tried only after every one
// added by RegisterWatchpointProber could not run or decide, whatever the
// order of the packages' init: for probers that cost more (Delve's builds
// a Go program) and serve hosts that lack the cheaper one's tools.
func RegisterWatchpointFallbackProber(name string, p WatchpointProber) {
	watchpoints.mu.Lock()
	defer watchpoints.mu.Unlock()
	watchpoints.fallbacks = append(watchpoints.fallbacks, namedProber{name, p})
}

// Watchpoints says whether hardware watchpoints fire on this host, unless
// WatchpointsEnv decides. The first call starts the probe; concurrent
// callers share it, and each waits only as long as its own ctx allows: one
// that gives up gets an unusable status saying so, and the probe goes on,
// bounded by probeTimeout, for the next caller. A decided answer is kept
// for the process's life.
func Watchpoints(ctx context.Context) WatchpointStatus {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(WatchpointsEnv))) {
	case "off", "0", "false", "no":
		return WatchpointStatus{Reason: WatchpointsEnv + "=off: data breakpoints are not used"}
	case "on", "1", "true", "yes":
		return WatchpointStatus{Usable: true, Reason: WatchpointsEnv + "=on: data breakpoints trusted without a probe"}
	}
	watchpoints.mu.Lock()
	if watchpoints.decided || time.Since(watchpoints.undecidedAt) < undecidedRetry {
		st := watchpoints.status
		watchpoints.mu.Unlock()
		return st
	}
	done := watchpoints.running
	if done == nil {
		done = make(chan struct{})
		watchpoints.running = done
		go runProbe(slices.Concat(watchpoints.probers, watchpoints.fallbacks), done)
	}
	watchpoints.mu.Unlock()
	select {
	case <-done:
		watchpoints.mu.Lock()
		defer watchpoints.mu.Unlock()
		return watchpoints.status
	case <-ctx.Done():
		return WatchpointStatus{Reason: fmt.Sprintf("the hardware watchpoint probe had not finished when the caller gave up (%v): data breakpoints are not used until it says they work", context.Cause(ctx))}
	}
}

// runProbe is the goroutine of one probe, started by Watchpoints and owned
// by the package state: it ends when the probers have answered, which
// probeTimeout bounds, and closes done.
func runProbe(probers []namedProber, done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	st, decided := probe(ctx, probers)
	watchpoints.mu.Lock()
	watchpoints.status, watchpoints.decided, watchpoints.running = st, decided, nil
	if !decided {
		watchpoints.undecidedAt = time.Now()
	}
	watchpoints.mu.Unlock()
	close(done)
}

// probe tries each prober until one decides; decided is false when none
// could.
func probe(ctx context.Context, probers []namedProber) (st WatchpointStatus, decided bool) {
	var tried []string
	for _, p := range probers {
		ran, fired, detail := p.probe(ctx)
		if ran && fired {
			return WatchpointStatus{Usable: true, Probed: true, Reason: "hardware watchpoints work on this host: " + detail}, true
		}
		if ran {
			return WatchpointStatus{Probed: true, Reason: "hardware watchpoints do not fire on this host (as on virtual machines that keep the CPU's debug registers from their guests): " + detail}, true
		}
		tried = append(tried, p.name+": "+detail)
		if ctx.Err() != nil {
			tried = append(tried, fmt.Sprintf("the probe ran out of time (%s)", probeTimeout))
			break
		}
	}
	reason := "no debugger here could probe hardware watchpoints, so data breakpoints are not used"
	if len(tried) > 0 {
		reason += " (" + strings.Join(tried, "; ") + ")"
	}
	return WatchpointStatus{Reason: reason}, false
}
