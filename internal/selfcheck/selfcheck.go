// Package selfcheck proves, per language, that debugging works on this
// machine rather than only that an adapter is installed: it writes a tiny
// program to a temporary directory, debugs it through the session engine
// as an agent would (set a breakpoint, start, stop there, read a local),
// and reports how long that took, or where it failed, why, and what to do.
// `mcp-debugger doctor --check` and list_supported_languages {check: true}
// both run it. Nothing is cached: every call launches afresh, so an answer
// is never older than the call.
package selfcheck

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// Status is the outcome of one language's check.
type Status string

// Statuses. Only StatusFailed means something installed does not work.
const (
	// StatusOK: the program stopped at the breakpoint and the local read 42.
	StatusOK Status = "ok"
	// StatusFailed: the adapter is installed but debugging did not work.
	StatusFailed Status = "failed"
	// StatusSkipped: nothing to check (no check program for the language),
	// or the machine lacks something the language needs beyond the
	// adapter, said in Error (TypeScript on a Node without type stripping).
	StatusSkipped Status = "skipped"
	// StatusMissing: the adapter is not installed; Hint installs it.
	StatusMissing Status = "missing"
)

// Steps of a check, named in a failed Result.
const (
	StepPrepare    = "prepare"    // writing the program
	StepBreakpoint = "breakpoint" // setting the breakpoint
	StepStart      = "start"      // building, starting the adapter, the DAP handshake
	StepStop       = "stop"       // stopping at the breakpoint
	StepLocals     = "locals"     // reading the local variable
)

// DefaultTimeout bounds one language's check when Options.Timeout is zero.
// Warm, a check takes one to a few seconds; the first Go check after Go is
// installed or upgraded also compiles the standard library without
// optimisations (once; go caches it), which takes a minute or more on a
// small machine.
const DefaultTimeout = 2 * time.Minute

// Options configure a check.
type Options struct {
	// Languages to check, by id or alias; empty means every registered one.
	Languages []string
	// Timeout bounds each language's check (and the watchpoint probe);
	// zero means DefaultTimeout.
	Timeout time.Duration
	// Logger receives the sessions' logs (nil: discarded).
	Logger *slog.Logger
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// Result is one language's check.
type Result struct {
	// Language is the canonical language id.
	Language string
	Status   Status
	// Duration is how long the check took until the local was read, or
	// until it failed; zero when nothing was launched. Closing the session
	// afterwards is not counted.
	Duration time.Duration
	// Step is where a failed check stopped (StepStart, …).
	Step string
	// Error says exactly what went wrong (failed), what is missing
	// (missing, skipped) or why nothing was checked (skipped).
	Error string
	// Hint says what to install or fix.
	Hint string
	// Availability is what the adapter's own check found, at the time of
	// this check (zero for an unknown language).
	Availability adapter.Availability
}

// OK reports whether the language checked ok.
func (r Result) OK() bool { return r.Status == StatusOK }

// Report is the outcome of Run.
type Report struct {
	// Results are in the order of Options.Languages, else by language id.
	Results []Result
	// Watchpoints says whether hardware watchpoints (data breakpoints)
	// work here, from adapter.Watchpoints.
	Watchpoints adapter.WatchpointStatus
	// Duration is the wall time of the whole run, cleanup included.
	Duration time.Duration
}

// OK reports whether no installed language failed its check: languages
// that are missing or skipped do not count against it.
func (r Report) OK() bool {
	for _, res := range r.Results {
		if res.Status == StatusFailed {
			return false
		}
	}
	return true
}

// Run checks the languages concurrently, and runs the hardware watchpoint
// probe beside them. Every process a language's check started has ended,
// and every file it wrote is gone, when Run returns.
func Run(ctx context.Context, opts Options) Report {
	start := time.Now()
	langs := opts.Languages
	if len(langs) == 0 {
		langs = adapter.IDs()
	}
	rep := Report{Results: make([]Result, len(langs))}
	var wg sync.WaitGroup
	for i, lang := range langs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep.Results[i] = Check(ctx, lang, opts)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		wctx, cancel := context.WithTimeout(ctx, opts.timeout())
		defer cancel()
		rep.Watchpoints = adapter.Watchpoints(wctx)
	}()
	wg.Wait()
	rep.Duration = time.Since(start)
	return rep
}

// Check debugs one language's check program: a breakpoint, a start that
// waits for the stop, a read of the local answer. It returns once the
// session is closed (its processes killed) and its files removed, within
// opts.Timeout plus the session's bounded shutdown.
func Check(ctx context.Context, language string, opts Options) Result {
	a, ok := adapter.Lookup(language)
	if !ok {
		return Result{Language: language, Status: StatusFailed, Step: StepPrepare,
			Error: fmt.Sprintf("unknown language %q", language),
			Hint:  "known languages: " + strings.Join(adapter.IDs(), ", ")}
	}
	id := a.Language().ID
	p, hasProbe := probes[id]
	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()
	start := time.Now()
	av := a.Check(ctx)
	if p.variant != nil {
		if v := p.variant(av); v != nil {
			p = *v
		}
	}
	c := &checker{lang: id, probe: p, start: start}
	var res Result
	switch {
	case !hasProbe:
		res = Result{Language: id, Status: StatusSkipped, Error: "no check program for " + id}
	case !av.Installed:
		res = Result{Language: id, Status: StatusMissing, Error: av.Reason, Hint: av.InstallHint}
	default:
		res = c.run(ctx, opts.Logger)
	}
	res.Availability = av
	return res
}

// checker runs one language's check.
type checker struct {
	lang  string
	probe probe
	start time.Time
}

func (c *checker) run(ctx context.Context, log *slog.Logger) Result {
	dir, err := c.write()
	if err != nil {
		return c.fail(ctx, StepPrepare, err)
	}
	m := session.NewManager(log)
	var built string
	// In this order: the session's processes end before the files they
	// use are removed.
	defer func() {
		m.CloseAll()
		removeBuild(built)
		os.RemoveAll(dir)
	}()
	s, err := m.Create(c.lang, session.Options{Name: "selfcheck-" + c.lang})
	if err != nil {
		return c.fail(ctx, StepPrepare, err)
	}
	src, line := filepath.Join(dir, c.probe.source), c.probe.line()
	if _, err := s.SetBreakpoint(ctx, session.LineBreakpointRequest{File: src, Line: line}); err != nil {
		return c.fail(ctx, StepBreakpoint, err)
	}
	spec := session.LaunchSpec{Program: filepath.Join(dir, c.probe.program)}
	built = plannedBuild(ctx, s, spec, dir)
	started, err := s.Start(ctx, spec, session.WaitOptions{Wait: true, Timeout: remaining(ctx)})
	if err != nil {
		return c.fail(ctx, StepStart, err)
	}
	if err := c.stoppedAt(s, started.Snapshot, line); err != nil {
		return c.fail(ctx, StepStop, err)
	}
	locals, err := s.Locals(ctx, nil, false, []string{variable})
	if err != nil {
		return c.fail(ctx, StepLocals, err)
	}
	for _, v := range locals.Variables {
		if v.Name == variable && v.Value == want {
			return Result{Language: c.lang, Status: StatusOK, Duration: time.Since(c.start)}
		}
	}
	return c.fail(ctx, StepLocals, fmt.Errorf("the local %s should be %s; the debugger showed %s", variable, want, describe(locals.Variables)))
}

// write puts the probe's files in a new temporary directory, with
// symbolic links resolved so that the paths the debugger reports compare
// equal to ours.
func (c *checker) write() (string, error) {
	// Named after this process, so that a server started after a killed
	// doctor removes what it left (proc.SweepTempDirs).
	dir, err := proc.MkdirTemp("check")
	if err != nil {
		return "", fmt.Errorf("temporary directory for the check program: %w", err)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	for name, text := range c.probe.files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("write the check program: %w", err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("write the check program: %w", err)
		}
	}
	return dir, nil
}

// stoppedAt says how the first stop differs from a pause at the
// breakpoint on line of the probe's source, nil when it does not.
func (c *checker) stoppedAt(s *session.Session, snap *session.Snapshot, line int) error {
	where := fmt.Sprintf("%s:%d", c.probe.source, line)
	switch {
	case snap == nil:
		return errors.New("the start returned no snapshot")
	case snap.TimedOut:
		return fmt.Errorf("the program did not stop at the breakpoint on %s in time (state %s)", where, snap.State)
	case snap.State == session.StatePaused:
		loc := snap.Location
		if loc != nil && loc.Line == line && filepath.Base(loc.File) == filepath.Base(c.probe.source) {
			return nil
		}
		at := "an unknown place"
		if loc != nil {
			at = fmt.Sprintf("%s:%d", loc.File, loc.Line)
		}
		return fmt.Errorf("the program stopped at %s (reason %q %s) instead of the breakpoint on %s", at, snap.StopReason, snap.Description, where)
	}
	msg := fmt.Sprintf("the program did not stop at the breakpoint on %s: state %s", where, snap.State)
	if snap.StateReason != "" {
		msg += " (" + snap.StateReason + ")"
	}
	if snap.ExitCode != nil {
		msg += fmt.Sprintf(", exit code %d", *snap.ExitCode)
	}
	lines, _ := s.Breakpoints("")
	for _, bp := range lines {
		if !bp.Verified {
			msg += "; the debugger did not verify the breakpoint"
			if bp.Message != "" {
				msg += ": " + bp.Message
			}
		}
	}
	return errors.New(msg)
}

// fail makes the failed Result of a step, with the hint that fits the
// error: the install command for a missing adapter, the compiler to
// install for a build failure, a longer timeout when time ran out, else
// what the probe says to look at.
func (c *checker) fail(ctx context.Context, step string, err error) Result {
	res := Result{Language: c.lang, Status: StatusFailed, Duration: time.Since(c.start), Step: step, Error: err.Error(), Hint: c.probe.fix}
	var ue *adapter.UnavailableError
	var be *adapter.BuildError
	switch {
	case errors.As(err, &ue) && ue.InstallHint != "":
		res.Hint = ue.InstallHint
	case errors.As(err, &be) && c.probe.buildFix != "":
		res.Hint = c.probe.buildFix
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		// The limit, not the time taken: a step cut short still closes
		// its session before it returns.
		limit := time.Since(c.start)
		if d, ok := ctx.Deadline(); ok {
			limit = d.Sub(c.start)
		}
		res.Error = fmt.Sprintf("timed out after %s: %v", limit.Round(100*time.Millisecond), err)
		res.Hint = "a busy machine or a first build (Go compiles its standard library for debugging once) takes longer: run the check again, or give it a longer timeout; if it keeps timing out, " + c.probe.fix
	case ctx.Err() != nil:
		res.Error = fmt.Sprintf("cancelled: %v", err)
		res.Hint = "the check was interrupted, not failed: run it again"
	}
	return res
}

// plannedBuild is the program the adapter will build for spec when it lies
// outside dir and does not exist yet, "" otherwise. The lldb adapter
// compiles a lone .c or .cpp file into the user's cache, keyed by the
// source's path, which no later run will use again; a dry run names it
// before it exists, so that the check can remove it afterwards.
func plannedBuild(ctx context.Context, s *session.Session, spec session.LaunchSpec, dir string) string {
	plan, err := s.PlanLaunch(ctx, spec)
	if err != nil {
		// The real start reports the same failure, with its step.
		return ""
	}
	prog, _ := plan.Arguments["program"].(string)
	if prog == "" || !filepath.IsAbs(prog) || within(dir, prog) {
		return ""
	}
	if _, err := os.Lstat(prog); err == nil {
		return ""
	}
	return prog
}

// removeBuild removes a build product of the check, and its directory when
// nothing else is left in it (the lldb adapter gives each build its own).
func removeBuild(path string) {
	if path == "" {
		return
	}
	os.Remove(path)
	os.Remove(filepath.Dir(path))
}

// within reports whether path lies inside dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// remaining is the time left before ctx's deadline.
func remaining(ctx context.Context) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		return time.Until(d)
	}
	return session.DefaultWaitTimeout
}

// describe lists variables as name=value, for a failure message.
func describe(vars []session.Variable) string {
	if len(vars) == 0 {
		return "no such local"
	}
	parts := make([]string, len(vars))
	for i, v := range vars {
		parts[i] = v.Name + "=" + v.Value
	}
	return strings.Join(parts, ", ")
}
