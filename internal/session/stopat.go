package session

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/recording"
)

// StopAtResult is the live stop a recorded event led to.
type StopAtResult struct {
	Snapshot *Snapshot
	// Reached is false when something else stopped the program first (a
	// breakpoint, an exception, the end): the run did not repeat the
	// recorded one, or another stop came before.
	Reached bool
	// Runtime is the run's (StartResult.Runtime).
	Runtime string
	// BeforePrologue: lldb stopped at the call's function's entry, before
	// its prologue stored the arguments (a function GCC compiled on one
	// line): the live locals are not its arguments yet.
	BeforePrologue bool
	// Differs, when the live call's arguments are not the recorded ones
	// ("x=4 (recorded 3)"), says this run did not repeat the recorded one
	// (another input, the time, threads taking turns differently): the
	// stop is at the same call of the function by count, not the same
	// call.
	Differs string
}

// StartAt launches spec and stops live at a recorded event: the program
// is the recorded one, run again, and deterministic.
func (s *Session) StartAt(ctx context.Context, spec LaunchSpec, t *recording.Target, wait WaitOptions) (*StopAtResult, error) {
	return s.runToEvent(ctx, t, wait, func(ctx context.Context) (*StartResult, error) {
		return s.Start(ctx, spec, wait)
	})
}

// TestAt runs a test under the debugger, as debug_test does, and stops
// live at a recorded event of the same test's recorded run.
func (s *Session) TestAt(ctx context.Context, req adapter.TestRequest, t *recording.Target, wait WaitOptions) (*StopAtResult, error) {
	return s.runToEvent(ctx, t, wait, func(ctx context.Context) (*StartResult, error) {
		_, started, err := s.launchTest(ctx, req, wait)
		return started, err
	})
}

// eventRun is one run towards a recorded event: the breakpoint on the
// call's first line and how many of its hits the run has seen.
type eventRun struct {
	s       *Session
	t       *recording.Target
	wait    WaitOptions
	entryBP int
	// entryLine is where the adapter placed the entry breakpoint.
	entryLine int
	// own: the entry breakpoint is the server's, not one the agent had on
	// the line already.
	own bool
	// output is what the program wrote by the stops passed on the way,
	// which the agent never sees but in the last stop's answer.
	output []OutputEntry
}

// runToEvent reaches the call's entry (a breakpoint on its first line
// that stops at the Entry-th run), then goes on to the event: a step out
// for a return, the line's run in the same call for a line or a raise.
func (s *Session) runToEvent(ctx context.Context, t *recording.Target, wait WaitOptions, start func(context.Context) (*StartResult, error)) (*StopAtResult, error) {
	set, err := s.SetBreakpoint(ctx, LineBreakpointRequest{File: t.Call.File, Line: t.Call.Line, Temporary: true, HitCondition: strconv.Itoa(t.Entry)})
	if err != nil {
		return nil, fmt.Errorf("stop at %s: %w", t.Name, err)
	}
	run := &eventRun{s: s, t: t, wait: wait, entryBP: set.Breakpoint.ID, entryLine: set.Breakpoint.Line, own: !set.Existing}
	started, err := start(ctx)
	if err != nil {
		run.removeEntry(ctx)
		return nil, err
	}
	res := &StopAtResult{Snapshot: started.Snapshot, Runtime: started.Runtime}
	res.Snapshot, res.Reached, err = run.toEntry(ctx, started.Snapshot)
	run.removeEntry(ctx)
	if err != nil || !res.Reached {
		return res, err
	}
	res.BeforePrologue = s.beforePrologue(t, res.Snapshot)
	if !res.BeforePrologue {
		res.Differs = argumentsDiffer(t.Args, res.Snapshot.Locals)
	}
	switch t.Kind {
	case recording.EventReturn:
		res.Snapshot, err = run.resume(ctx, StepOut, res.Snapshot)
		res.Reached = err == nil && res.Snapshot.State == StatePaused
	case recording.EventLine, recording.EventRaise:
		res.Snapshot, res.Reached, err = run.toLine(ctx, res.Snapshot)
	}
	if err == nil {
		res.Snapshot.Output = append(run.output, res.Snapshot.Output...)
	}
	return res, err
}

// resume goes on from a stop on the way, which the agent is not shown:
// its output joins the last stop's, and the last stop is shown whole (no
// locals left out as already seen, no changes against a stop unseen).
func (run *eventRun) resume(ctx context.Context, kind string, passed *Snapshot) (*Snapshot, error) {
	run.output = append(run.output, passed.Output...)
	s := run.s
	s.mu.Lock()
	s.lastValues, s.shownLocals, s.shown = nil, nil, nil
	s.mu.Unlock()
	return s.Resume(ctx, kind, 0, run.wait)
}

// toEntry continues until the entry breakpoint's Entry-th hit. An
// adapter that honours hitCondition stops there at once; with one that
// does not, or with the agent's own breakpoint on the line, the hits are
// counted here.
func (run *eventRun) toEntry(ctx context.Context, snap *Snapshot) (*Snapshot, bool, error) {
	hits := 0
	for {
		if !run.atEntry(snap) {
			return snap, false, nil
		}
		hits++
		if run.own && run.s.honoursHitCondition() {
			hits = run.t.Entry
		}
		if hits >= run.t.Entry {
			return snap, true, nil
		}
		var err error
		if snap, err = run.resume(ctx, Continue, snap); err != nil {
			return nil, false, err
		}
	}
}

// atEntry reports whether the program stopped on the entry breakpoint.
func (run *eventRun) atEntry(snap *Snapshot) bool {
	if snap.State != StatePaused {
		return false
	}
	if slices.Contains(snap.internalHits, run.entryBP) || slices.Contains(snap.HitBreakpointIDs, run.entryBP) {
		return true
	}
	l := snap.Location
	return l != nil && l.Line == run.entryLine && samePath(run.s.bps.os, l.File, run.t.Call.File)
}

// toLine goes from the call's entry to the Run-th run of Line in the same
// call: runs in deeper frames (a recursive call of the same function) do
// not count, and a frame no deeper than the entry's is this call's (an
// async function resumed after an await runs on a shallower stack).
func (run *eventRun) toLine(ctx context.Context, snap *Snapshot) (*Snapshot, bool, error) {
	s, t := run.s, run.t
	depth, err := s.stackDepth(ctx)
	if err != nil {
		return nil, false, err
	}
	set, err := s.SetBreakpoint(ctx, LineBreakpointRequest{File: t.Call.File, Line: t.Line, Temporary: true})
	if err != nil {
		return nil, false, fmt.Errorf("stop at %s: %w", t.Name, err)
	}
	if !set.Existing {
		defer s.removeTemporary(ctx, set.Breakpoint.ID)
	}
	for runs := 0; ; {
		snap, err = run.resume(ctx, Continue, snap)
		if err != nil {
			return nil, false, err
		}
		l := snap.Location
		if snap.State != StatePaused || l == nil || l.Line != set.Breakpoint.Line || !samePath(s.bps.os, l.File, t.Call.File) {
			return snap, false, nil
		}
		d, err := s.stackDepth(ctx)
		if err != nil {
			return nil, false, err
		}
		if d <= depth {
			runs++
		}
		if runs == t.Run {
			return snap, true, nil
		}
	}
}

// removeEntry removes the entry breakpoint when it is the server's own.
func (run *eventRun) removeEntry(ctx context.Context) {
	if run.own {
		run.s.removeTemporary(ctx, run.entryBP)
		run.own = false
	}
}

// honoursHitCondition reports whether the running adapter applies a
// breakpoint's hitCondition.
func (s *Session) honoursHitCondition() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r != nil && s.r.caps.SupportsHitConditionalBreakpoints
}

// stackDepth counts the stopped thread's frames, the adapter's internal
// ones included, without fetching them all: a stack shallower than the
// frames prefetched at the stop is counted from them, a deeper one in a
// few one-frame requests (StackPage).
func (s *Session) stackDepth(ctx context.Context) (int, error) {
	page, err := s.StackPage(ctx, StackRequest{Levels: prefetchFrames, IncludeInternals: true})
	if err != nil {
		return 0, fmt.Errorf("count the stack's frames: %w", err)
	}
	return page.Total, nil
}

// argumentsDiffer compares a call's recorded arguments with the locals of
// the live call at its entry, where both sides show a number or a
// boolean (other values are rendered differently by the recorder and the
// debugger, and are not compared); it names the ones that differ, ""
// when none does.
func argumentsDiffer(recorded [][]string, live []Variable) string {
	now := map[string]string{}
	for _, v := range live {
		now[v.Name] = v.Value
	}
	var differ []string
	for _, a := range recorded {
		if len(a) != 2 {
			continue
		}
		was, is := a[1], now[a[0]]
		if plainScalar.MatchString(was) && plainScalar.MatchString(is) && was != is {
			differ = append(differ, fmt.Sprintf("%s=%s (recorded %s)", a[0], is, was))
		}
	}
	return strings.Join(differ, ", ")
}

// plainScalar is a value every recorder and debugger writes alike.
var plainScalar = regexp.MustCompile(`^(-?[0-9]+(\.[0-9]+)?|true|false|True|False)$`)

// beforePrologue reports a live stop at the entry of a C or C++ function
// lldb stops in before its prologue (userFunction.entryColumn), as the
// binary's line table says.
func (s *Session) beforePrologue(t *recording.Target, snap *Snapshot) bool {
	if snap.Location == nil || s.Language.ID != "c" && s.Language.ID != "cpp" {
		return false
	}
	funcs, err := s.builtFunctions([]string{filepath.Dir(t.Call.File)})
	if err != nil {
		return false
	}
	for _, f := range funcs {
		if f.name == t.Call.Fn {
			return f.entryColumn != 0 && snap.Location.Column == f.entryColumn
		}
	}
	return false
}
