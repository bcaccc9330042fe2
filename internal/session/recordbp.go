package session

// Recording through breakpoints: for the languages without an in-process
// recorder (Go under Delve; C, C++ and Rust under lldb-dap) the session
// records a run by putting a function breakpoint on each of the user's
// functions and answering every stop itself (recordstops.go): a call event
// with the arguments, a step out whose end shows the return value, and,
// for the functions named in Lines, a step over each line with the locals
// it changed. Every event costs the program a stop and a few requests: far
// slower than the in-process recorders (docs/benchmarks.md, "Recording Go,
// C, C++, Rust").

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// recordStartTimeout bounds building and launching the program when ctx
// sets no deadline.
const recordStartTimeout = 2 * time.Minute

// RecordByBreakpoints runs cfg's program in this session, recording the
// calls of the user's functions into cfg.EventsFile as
// docs/recording-format.md describes; it returns once the program has
// ended (or ctx has, which ends the program and says so in the end event).
func (s *Session) RecordByBreakpoints(ctx context.Context, cfg adapter.RecordConfig) (*adapter.RecordResult, error) {
	spec, plan, err := s.recordLaunch(ctx, cfg)
	if err != nil {
		return nil, err
	}
	roots := userRoots(cmp.Or(cfg.Cwd, spec.Cwd, programDir(spec.Program)), cfg.Include)
	var funcs []userFunction
	if s.Language.ID == "go" {
		if funcs, err = goUserFunctions(roots, plan != nil); err == nil {
			err = checkFunctionCount(funcs)
		}
		if err != nil {
			return nil, err
		}
	}
	res, err := s.startRecorded(ctx, spec)
	if err != nil {
		return nil, err
	}
	if s.Language.ID != "go" {
		if funcs, err = s.builtFunctions(roots); err == nil {
			err = checkFunctionCount(funcs)
		}
		if err != nil {
			s.Close()
			return nil, err
		}
	}
	w, err := newEventWriter(cfg.EventsFile, cfg.MaxEvents)
	if err != nil {
		s.Close()
		return nil, err
	}
	rec := newBPRecorder(s, w, funcs, cfg.Lines)
	w.add(recordEvent{kind: "start", fields: []field{{"lang", s.Language.ID}, {"pid", s.debuggeePID()}, {"version", 1}, {"cwd", spec.Cwd}, {"argv", append([]string{spec.Program}, spec.Args...)}, {"runtime", res.Runtime}}})
	if err := s.armRecorder(ctx, rec, funcs, plan); err != nil {
		w.close()
		s.Close()
		return nil, err
	}
	stopCopy := copyProgramOutput(s.out, cfg.Output)
	ended := s.awaitEnd(ctx)
	stopCopy()
	s.mu.Lock()
	s.recorder = nil
	// The recording's breakpoints end with it: a later start in this
	// session (stopAt's re-run) stops only where the agent asked.
	s.bps.removeLines(func(bp *Breakpoint) bool { return rec.owns(bp.ID) })
	s.bps.removeFunctions(func(fb *FunctionBreakpoint) bool { return rec.owns(fb.ID) })
	s.mu.Unlock()
	rec.writeEnd(s.Info(), ended)
	if err := w.close(); err != nil {
		return nil, err
	}
	out := &adapter.RecordResult{Runtime: res.Runtime, Mechanism: rec.mechanism()}
	if plan != nil {
		out.Runner = plan.Runner
	}
	if info := s.Info(); info.ExitCode != nil {
		out.ExitCode = *info.ExitCode
	}
	return out, nil
}

// builtFunctions are the user's functions in the binary the session
// launched (C, C++, Rust), read from its DWARF: the adapter built it from
// the sources when it was given them, so it is known only now.
func (s *Session) builtFunctions(roots []string) ([]userFunction, error) {
	s.mu.Lock()
	var bin string
	if s.r != nil {
		bin, _ = s.r.conn.Arguments["program"].(string)
	}
	s.mu.Unlock()
	if bin == "" {
		return nil, errorf("pass the built binary as scriptPath", "the launched program's binary is not known")
	}
	return nativeUserFunctions(bin, roots)
}

// programDir is the directory of a program given as a file, the program
// itself when it is a directory (a Go package, a Cargo project).
func programDir(program string) string {
	if st, err := os.Stat(program); err == nil && !st.IsDir() {
		return filepath.Dir(program)
	}
	return program
}

// checkFunctionCount refuses a recording with nothing to record, or with
// more breakpoints than a recording may set.
func checkFunctionCount(funcs []userFunction) error {
	switch {
	case len(funcs) == 0:
		return errorf("pass the program's directory as cwd, or its sources in include", "no functions of the user's code were found to record")
	case len(funcs) > maxRecordedFunctions:
		return errorf("narrow cwd/include to the code under suspicion", "the user's code has %d functions; a recording through breakpoints sets at most %d", len(funcs), maxRecordedFunctions)
	}
	return nil
}

// startRecorded launches the program stopped at its entry, where the
// recording's breakpoints are set.
func (s *Session) startRecorded(ctx context.Context, spec LaunchSpec) (*StartResult, error) {
	timeout := recordStartTimeout
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	res, err := s.Start(ctx, spec, WaitOptions{Wait: true, Timeout: timeout})
	if err != nil {
		return nil, err
	}
	if st := s.State(); st != StatePaused {
		s.Close()
		return nil, errorf("run it with start_debugging to see why", "the program did not stop at its entry to be recorded (state %s)", st)
	}
	return res, nil
}

// armRecorder sets a function breakpoint on each of funcs (and on the
// test plan's failure functions), hands the session's stops to rec and
// lets the program run.
func (s *Session) armRecorder(ctx context.Context, rec *bpRecorder, funcs []userFunction, plan *adapter.TestPlan) error {
	s.mu.Lock()
	r := s.liveRunLocked()
	if r == nil {
		s.mu.Unlock()
		return errorf("start over", "the program ended before it could be recorded")
	}
	// internalFunction sets a breakpoint of the recording's own, never
	// shown to the agent, on a function, and returns its id.
	internalFunction := func(name string) int {
		fb := &FunctionBreakpoint{FunctionName: name, internal: true}
		s.bps.addFunction(fb)
		return fb.ID
	}
	if plan != nil {
		rec.tests = newRecordedTests()
		for _, name := range plan.FunctionBreakpoints {
			rec.tests.failures[internalFunction(name)] = true
		}
		rec.tests.logs[internalFunction(goTestLog)] = true
	}
	switch s.Language.ID {
	case "rust":
		rec.rustCatch = internalFunction(rustPanicCleanup)
	case "go":
		rec.goPanics = goPanics{panics: internalFunction(goPanic), recovers: internalFunction(goRecover)}
	}
	files := map[string]bool{}
	for _, f := range funcs {
		rec.breakpoints[internalFunction(f.name)] = true
		for _, site := range f.returns {
			bp := &Breakpoint{File: s.bps.canonical(f.file), internal: true}
			s.bps.addLine(bp)
			bp.sendLine = site.line
			bp.placeAt(site.line)
			rec.returnSites[bp.ID] = siteOf{fn: f.name, site: site}
			files[bp.File] = true
		}
	}
	s.mu.Unlock()
	s.bpMu.Lock()
	err := s.sendFunctions(ctx, r)
	for file := range files {
		if err == nil {
			err = s.sendFile(ctx, r, file)
		}
	}
	s.bpMu.Unlock()
	if err != nil {
		return fmt.Errorf("setting the recording's breakpoints: %w", err)
	}
	if s.Language.ID == "cpp" {
		rec.cppExceptions = watchCppExceptions(ctx, r)
	}
	s.mu.Lock()
	s.recorder = rec
	threadID := 0
	if s.stop != nil {
		threadID = s.stop.ThreadID
	}
	s.mu.Unlock()
	_, err = s.resume(ctx, Continue, threadID)
	return err
}

// awaitEnd waits until the program has ended, or ctx has (the program is
// then ended); it reports whether the program ended on its own.
func (s *Session) awaitEnd(ctx context.Context) bool {
	for {
		_, changed := s.Changed()
		if st := s.State(); st == StateStopped || st == StateError {
			return true
		}
		select {
		case <-changed:
		case <-ctx.Done():
			s.mu.Lock()
			s.recorder = nil
			s.mu.Unlock()
			if _, err := s.Detach(true); err != nil {
				s.log.Warn("ending a recorded program past its time", "err", err)
			}
			return false
		}
	}
}

// debuggeePID is the program's process id, 0 when unknown.
func (s *Session) debuggeePID() int {
	s.mu.Lock()
	r := s.r
	s.mu.Unlock()
	if r == nil {
		return 0
	}
	if w := r.debuggeeWatcher(); w != nil {
		return w.Pid()
	}
	return 0
}

// copyProgramOutput copies the program's output to w as it arrives; the
// returned function copies what is left and stops.
func copyProgramOutput(out *OutputBuffer, w io.Writer) func() {
	if w == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	since := out.Cursor()
	copyNew := func() {
		page := out.Since(since, 0)
		for _, e := range page.Entries {
			if e.Category == "stdout" || e.Category == "stderr" {
				_, _ = io.WriteString(w, e.Output)
			}
		}
		since = page.NextSince
	}
	go func() {
		defer close(done)
		// Wait answers at once while output is there: the context is
		// checked apart, so that stopping ends the copy.
		for ctx.Err() == nil && out.Wait(ctx, since) {
			copyNew()
		}
	}()
	return func() {
		cancel()
		<-done
		copyNew()
	}
}

// errRecordingTimedOut is the end event's message for a run cut short.
var errRecordingTimedOut = errors.New("the recording ran out of time and the program was ended")

// mechanismFor names how a language is recorded, for the report, with
// what it costs: the agent reads why a recording took seconds.
func mechanismFor(language string) string {
	const cost = ": a stop of the program per call, far slower than in-process recording"
	if strings.EqualFold(language, "go") {
		return "Delve function breakpoints and line breakpoints on return statements" + cost
	}
	return "lldb-dap function breakpoints with a step out per call" + cost
}
