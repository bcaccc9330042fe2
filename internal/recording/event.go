package recording

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Kinds of events a live run can stop at.
const (
	// EventCall is a call's entry: its first line, before it runs.
	EventCall = "call"
	// EventReturn is a call's return: the caller, just after it.
	EventReturn = "return"
	// EventLine is a line of a call, before it runs.
	EventLine = "line"
	// EventRaise is the line of a call an exception passed, before it
	// runs: where the exception was raised or came through.
	EventRaise = "raise"
)

// ErrEventSyntax means an event was not named in a form ParseEvent reads.
var ErrEventSyntax = errors.New(`name an event as "#7" (call 7's entry), "#7 return", "#7 raise", "#7 line 27" (its 2nd run: "#7 line 27 x2") or "failure"`)

// ErrNoFailure means the recorded run had no failure raised in the user's
// code to stop at.
var ErrNoFailure = errors.New("the recording has no failure raised in your code")

// Event names one event of a recording, as an agent writes it.
type Event struct {
	// Call is the call's id; 0 with Failure.
	Call int
	Kind string
	// Line and Run, for a line: the line and which of its runs in the
	// call (1 for the first).
	Line, Run int
	// Failure: the event is where the run's failure was raised.
	Failure bool
}

// ParseEvent reads an event: "#7" or "7" (call 7's entry), "#7 return",
// "#7 raise", "#7 line 27", "#7 line 27 x2", or "failure".
func ParseEvent(s string) (Event, error) {
	words := strings.Fields(strings.ToLower(s))
	if len(words) == 1 && words[0] == "failure" {
		return Event{Failure: true, Kind: EventRaise}, nil
	}
	if len(words) == 0 {
		return Event{}, ErrEventSyntax
	}
	id, err := strconv.Atoi(strings.TrimPrefix(words[0], "#"))
	if err != nil || id <= 0 {
		return Event{}, ErrEventSyntax
	}
	ev := Event{Call: id, Kind: EventCall}
	switch {
	case len(words) == 1:
	case len(words) == 2 && (words[1] == EventReturn || words[1] == EventRaise):
		ev.Kind = words[1]
	case (len(words) == 3 || len(words) == 4) && words[1] == EventLine:
		ev.Kind, ev.Run = EventLine, 1
		if ev.Line, err = strconv.Atoi(words[2]); err != nil || ev.Line <= 0 {
			return Event{}, ErrEventSyntax
		}
		if len(words) == 4 {
			if ev.Run, err = strconv.Atoi(strings.TrimPrefix(words[3], "x")); err != nil || ev.Run <= 0 || !strings.HasPrefix(words[3], "x") {
				return Event{}, ErrEventSyntax
			}
		}
	default:
		return Event{}, ErrEventSyntax
	}
	return ev, nil
}

// Target is where a live run of the recorded program meets an event: the
// call's entry is the Entry-th run of its first line (File:Line of Call)
// in the run; from there Kind says what follows.
type Target struct {
	Call *Call
	// Entry counts the calls that began on the same first line up to this
	// one, this one included.
	Entry int
	Kind  string
	// Line and Run, for a line or a raise: the line of the call and which
	// of its runs in the call.
	Line, Run int
	// Name is the event in words: "#7 scale(x=3, factor=13)" and what of
	// it.
	Name string
	// Args are the call's recorded arguments, name and value.
	Args [][]string
}

// Locate finds where a live run meets the event.
func (r *Recording) Locate(ev Event) (*Target, error) {
	if ev.Failure {
		var err error
		if ev.Call, ev.Line, err = r.failurePoint(); err != nil {
			return nil, err
		}
	}
	c, ok := r.calls[ev.Call]
	if !ok {
		return nil, fmt.Errorf("the recording has no call #%d (it has %d calls)", ev.Call, len(r.ids))
	}
	f, err := os.Open(r.path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	args, err := r.argsOf(f, c)
	if err != nil {
		return nil, err
	}
	t := &Target{Call: c, Entry: r.entryRun(c), Kind: ev.Kind, Line: ev.Line, Run: ev.Run, Args: args}
	t.Name = fmt.Sprintf("#%d %s(%s)", c.ID, c.Fn, formatArgs(args))
	switch ev.Kind {
	case EventReturn:
		t.Name += " returning"
	case EventLine:
		t.Name += fmt.Sprintf(" at line %d", t.Line)
		if t.Run > 1 {
			t.Name += fmt.Sprintf(" (run %d)", t.Run)
		}
	case EventRaise:
		if err := r.locateRaise(f, t, ev); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// failurePoint is the call and line where the run's failure was raised:
// as the index followed it, else (a recorder that left out the exception's
// passage, as an async test function's may) the latest call an exception
// ended, at the line it left.
func (r *Recording) failurePoint() (call, line int, err error) {
	if x := r.failure; x != nil && x.raisedIn != 0 {
		return x.raisedIn, x.raisedLine, nil
	}
	if !r.failed() {
		return 0, 0, ErrNoFailure
	}
	for i := len(r.ids) - 1; i >= 0; i-- {
		if c := r.calls[r.ids[i]]; c.Unwound {
			return c.ID, 0, nil
		}
	}
	return 0, 0, ErrNoFailure
}

// failed reports whether a test failed or an exception ended the program.
func (r *Recording) failed() bool {
	for _, t := range r.Tests {
		if t.Outcome == "failed" || t.Outcome == "error" {
			return true
		}
	}
	return r.EndType != ""
}

// entryRun counts the calls that began on c's first line up to c: the
// run of that line that is c's entry (one thread's order).
func (r *Recording) entryRun(c *Call) int {
	n := 0
	for _, id := range r.ids {
		o := r.calls[id]
		if o.File == c.File && o.Line == c.Line {
			n++
		}
		if id == c.ID {
			break
		}
	}
	return n
}

// locateRaise finds the line of the call an exception passed first, and
// which of that line's runs it was when the call's lines were recorded
// (else the first).
func (r *Recording) locateRaise(f *os.File, t *Target, ev Event) error {
	c := t.Call
	end := c.end.off + int64(c.end.n)
	if !c.Ended() {
		st, err := f.Stat()
		if err != nil {
			return fmt.Errorf("read recording: %w", err)
		}
		end = st.Size()
	}
	line, runs := ev.Line, map[int]int{}
	err := scanEvents(io.NewSectionReader(f, c.start.off, end-c.start.off), func(e *event, _ span) error {
		switch {
		case e.ID != c.ID:
		case e.K == "line":
			runs[e.Line]++
		case (e.K == "exc" || e.K == "unwind") && (line == 0 || e.Line == line):
			line = e.Line
			return io.EOF
		}
		return nil
	})
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read recording: %w", err)
	}
	if !errors.Is(err, io.EOF) {
		return fmt.Errorf("call #%d raised nothing in the recording", c.ID)
	}
	t.Line, t.Run = line, max(runs[line], 1)
	t.Name += fmt.Sprintf(" at line %d, where the exception came", line)
	return nil
}
