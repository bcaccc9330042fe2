package recording

import (
	"fmt"
	"os"
	"strings"
)

// Bounds of the report's parts: enough to see the failure, small enough
// that the report stays within a few KB.
const (
	pathInnerShown = 6
	pathOuterShown = 2
	swallowedShown = 4
	argCut         = 80
	argsCut        = 240
)

// Report is how the recorded run ended and how it got there.
type Report struct {
	// Outcome says in one line how the run ended.
	Outcome string `json:"outcome"`
	// Warning says the recording is incomplete: maxEvents was reached.
	Warning string `json:"warning,omitempty"`
	// Test is the failing test, when a test failed.
	Test *Test `json:"test,omitempty"`
	// Path is the chain of calls open where the failure was raised,
	// outermost first; PathLeftOut counts the frames between the outer
	// and the inner ones that are not shown (a deep recursion).
	Path        []Frame `json:"path,omitempty"`
	PathLeftOut int     `json:"pathLeftOut,omitempty"`
	// LastCalls are the calls that ended last before the failure (or the
	// end), oldest first: "#id fn(args) -> value". What the path or a
	// later line shows is not repeated (see shown): an object's fields, a
	// long argument.
	LastCalls []string `json:"lastCalls,omitempty"`
	// Swallowed are exceptions user code caught before the failure,
	// latest last; SwallowedCount counts them all.
	Swallowed      []string `json:"swallowed,omitempty"`
	SwallowedCount int      `json:"swallowedCount,omitempty"`
	Counts         Counts   `json:"counts"`
}

// Frame is one call on the path to the failure.
type Frame struct {
	ID int `json:"id"`
	// Call is the function with its arguments: fn(a=1, b='x').
	Call string `json:"call"`
	// At is the file and line the failure passed in this call.
	At string `json:"at"`
}

// Counts says how much the recording holds.
type Counts struct {
	Calls  int `json:"calls"`
	Events int `json:"events"`
	// Dropped events were not kept: maxEvents was reached.
	Dropped int `json:"dropped,omitempty"`
	Passed  int `json:"testsPassed,omitempty"`
	Failed  int `json:"testsFailed,omitempty"`
}

// Report builds the recording's report.
func (r *Recording) Report() (*Report, error) {
	f, err := os.Open(r.path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	rep := &Report{Counts: r.counts()}
	rep.Outcome, rep.Test = r.outcome()
	rep.Warning = r.gapWarning()
	seen := newShown()
	last := r.lastEnded
	if x := r.failure; x != nil {
		last = x.before
		if rep.Path, rep.PathLeftOut, err = r.failurePath(f, x, seen); err != nil {
			return nil, err
		}
	}
	// Latest first: a line refers only to the path and to later lines,
	// which a report cut to its budget keeps longer (it drops the
	// earliest last calls first).
	rep.LastCalls = make([]string, len(last))
	for i := len(last) - 1; i >= 0; i-- {
		if rep.LastCalls[i], err = r.callLine(f, r.calls[last[i]], seen); err != nil {
			return nil, err
		}
	}
	rep.SwallowedCount = r.catchCount
	for _, c := range r.catches[max(len(r.catches)-swallowedShown, 0):] {
		rep.Swallowed = append(rep.Swallowed, r.describeCatch(c))
	}
	return rep, nil
}

func (r *Recording) counts() Counts {
	c := Counts{Calls: len(r.ids), Events: r.Events, Dropped: r.Dropped}
	for _, t := range r.Tests {
		switch t.Outcome {
		case "passed":
			c.Passed++
		case "failed", "error":
			c.Failed++
		}
	}
	return c
}

// gapWarning says what a recording that reached maxEvents lacks and how
// to record it whole, or nothing for a whole recording.
func (r *Recording) gapWarning() string {
	if r.Dropped == 0 {
		return ""
	}
	calls := ""
	if r.gapFirst > 0 {
		calls = fmt.Sprintf(" (of calls #%d to #%d)", r.gapFirst, r.gapLast)
	}
	return fmt.Sprintf("maxEvents was reached: %d events%s were not recorded, so queries miss them; record again with a higher maxEvents, or a narrower include or lines", r.Dropped, calls)
}

// outcome is the one line saying how the run ended, with the failing
// test when one failed.
func (r *Recording) outcome() (string, *Test) {
	for i := range r.Tests {
		t := r.Tests[i]
		if t.Outcome == "failed" || t.Outcome == "error" {
			t.File = r.shortPath(t.File)
			return fmt.Sprintf("test %s %s: %s", t.Name, t.Outcome, firstLine(t.Msg)), &t
		}
	}
	switch {
	case !r.Ended && r.Unwritable != "":
		return "the recording has no end: " + r.Unwritable, nil
	case !r.Ended:
		return "the recording has no end: the program was killed or the recorder could not finish", nil
	case r.EndType != "" && r.Exit == nil:
		return fmt.Sprintf("uncaught %s: %s", r.EndType, r.EndMsg), nil
	case r.EndType != "":
		return fmt.Sprintf("uncaught %s: %s (exit code %d)", r.EndType, r.EndMsg, *r.Exit), nil
	case r.Exit == nil:
		return "ended without an exit code", nil
	case len(r.Tests) > 0:
		return fmt.Sprintf("%d tests, none failed (exit code %d)", len(r.Tests), *r.Exit), nil
	}
	return fmt.Sprintf("exited with code %d", *r.Exit), nil
}

// path lays out the failure's chain of calls: the outer frames and the
// inner ones, those between counted.
func (r *Recording) failurePath(f *os.File, x *exception, seen *shown) ([]Frame, int, error) {
	ids := x.stack
	leftOut := 0
	if len(ids) > pathOuterShown+pathInnerShown {
		leftOut = len(ids) - pathOuterShown - pathInnerShown
		ids = append(ids[:pathOuterShown:pathOuterShown], ids[len(ids)-pathInnerShown:]...)
	}
	frames := make([]Frame, 0, len(ids))
	for _, id := range ids {
		c := r.calls[id]
		if c == nil {
			continue
		}
		args, err := r.argsOf(f, c)
		if err != nil {
			return nil, 0, err
		}
		line, ok := x.lines[id]
		if !ok {
			line = c.Line
		}
		frames = append(frames, Frame{ID: id, Call: c.Fn + "(" + seen.callArgs(id, args) + ")", At: fmt.Sprintf("%s:%d", r.shortPath(c.File), line)})
	}
	return frames, leftOut, nil
}

// callLine is a call in one line: "#12 fn(a=1) -> 2 (line 20)", or
// "raised E" for one that an exception ended.
func (r *Recording) callLine(f *os.File, c *Call, seen *shown) (string, error) {
	args, err := r.argsOf(f, c)
	if err != nil {
		return "", err
	}
	out, err := r.outcomeOf(f, c)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("#%d %s(%s) -> %s", c.ID, c.Fn, seen.callArgs(c.ID, args), seen.value(out)), nil
}

// outcomeOf is how a call ended: its return value and line, or the
// exception that left it. A recorder that does not know the line (lldb's
// step out of a call) records 0, and no line is shown.
func (r *Recording) outcomeOf(f *os.File, c *Call) (string, error) {
	if !c.Ended() {
		return "(no end recorded)", nil
	}
	e, err := r.readEvent(f, c.end)
	if err != nil {
		return "", err
	}
	at := ""
	if e.Line > 0 {
		at = fmt.Sprintf(" (line %d)", e.Line)
	}
	if c.Unwound {
		return "raised " + c.ExcType + at, nil
	}
	return deref(e.V) + at, nil
}

func (r *Recording) describeCatch(c caught) string {
	where := "?"
	if in := r.calls[c.caughtIn]; in != nil {
		where = fmt.Sprintf("%s (%s:%d)", in.Fn, r.shortPath(in.File), c.line)
	}
	from := ""
	if in := r.calls[c.raisedIn]; in != nil {
		from = fmt.Sprintf(" raised in %s (%s:%d),", in.Fn, r.shortPath(in.File), c.raisedLine)
	}
	msg := ""
	if c.Msg != "" {
		msg = ": " + cut(firstLine(c.Msg), argCut)
	}
	return fmt.Sprintf("%s%s%s caught in %s", c.Type, msg, from, where)
}

// argsOf reads a call's arguments back from the file.
func (r *Recording) argsOf(f *os.File, c *Call) ([][]string, error) {
	e, err := r.readEvent(f, c.start)
	if err != nil {
		return nil, err
	}
	return e.Args, nil
}

// formatArgs shows one call's arguments as a call would: a=1, b='x'.
func formatArgs(args [][]string) string {
	return newShown().callArgs(0, args)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func deref(s *string) string {
	if s == nil {
		return "?"
	}
	return *s
}
