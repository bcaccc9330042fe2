package recording

import (
	"encoding/json"
	"slices"
)

// recentKept is how many of the latest ended calls the index remembers
// at each raise: the report's "last calls before the failure".
const recentKept = 6

// catchesKept bounds the swallowed exceptions the index remembers (the
// latest ones: those nearest the failure).
const catchesKept = 20

// exception is an exception on its way through the user's calls.
type exception struct {
	Type, Msg  string
	raisedIn   int
	raisedLine int
	// stack is the chain of open calls at the raise, outermost first.
	stack []int
	// lines is, per call it passed through, the line it passed.
	lines map[int]int
	// before holds the calls that ended last before the raise.
	before []int
	test   string
}

// caught is an exception a user function handled.
type caught struct {
	Type, Msg  string
	raisedIn   int
	raisedLine int
	caughtIn   int
	line       int
}

// indexer builds a Recording's index as the events stream by.
type indexer struct {
	r       *Recording
	strings map[string]string
	stacks  map[string][]int
	active  map[string]*exception
	// escaped is the latest exception that left a call with no user
	// caller: into the test runner, or out of the program.
	escaped *exception
	recent  []int
}

func newIndexer(r *Recording) *indexer {
	return &indexer{r: r, strings: map[string]string{}, stacks: map[string][]int{}, active: map[string]*exception{}}
}

// intern keeps one copy of the names and paths that every call repeats.
func (ix *indexer) intern(s string) string {
	if v, ok := ix.strings[s]; ok {
		return v
	}
	ix.strings[s] = s
	return s
}

func (ix *indexer) add(e *event, at span) {
	r := ix.r
	r.Events++
	r.durationNanos = max(r.durationNanos, e.T)
	th := string(e.Th)
	switch e.K {
	case "start":
		r.Lang, r.Cwd, r.Argv, r.Runtime = e.Lang, e.Cwd, e.Argv, e.Runtime
	case "call":
		ix.call(e, at, th)
	case "ret", "unwind":
		ix.end(e, at, th)
	case "exc":
		ix.exc(e, th)
	case "catch":
		ix.catch(e, th)
	case "line":
		if c := r.calls[e.ID]; c != nil {
			r.hasLines[c.Fn] = true
		}
	case "test":
		ix.test(e)
	case "gap":
		var n int
		_ = jsonNumber(e.N, &n)
		r.Dropped += n
		if e.First > 0 && (r.gapFirst == 0 || e.First < r.gapFirst) {
			r.gapFirst = e.First
		}
		r.gapLast = max(r.gapLast, e.Last)
	case "end":
		r.Ended, r.Exit, r.EndType, r.EndMsg = true, e.Exit, e.Type, e.Msg
		if e.Type != "" && r.failure == nil {
			r.failure = ix.uncaught(e, th)
		}
	}
}

// uncaught is the exception that ended the program: the one that left
// the user's outermost call, else the one on its way, else the calls
// still open at the end (a recorder that lost its tracing at a
// RecursionError: sys.settrace is turned off when the limit is reached
// in its trace function).
func (ix *indexer) uncaught(end *event, th string) *exception {
	if x := ix.escaped; x != nil && x.Type == end.Type {
		return x
	}
	if x := ix.active[th]; x != nil && x.Type == end.Type {
		return x
	}
	return &exception{Type: end.Type, Msg: end.Msg, stack: slices.Clone(ix.stacks[th]), lines: map[int]int{}, before: slices.Clone(ix.recent)}
}

func (ix *indexer) call(e *event, at span, th string) {
	c := &Call{ID: e.ID, Parent: e.P, Fn: ix.intern(e.Fn), File: ix.intern(e.File), Line: e.Line, thread: th, start: at}
	ix.r.calls[c.ID] = c
	ix.r.ids = append(ix.r.ids, c.ID)
	ix.r.byFn[c.Fn] = append(ix.r.byFn[c.Fn], c.ID)
	ix.stacks[th] = append(ix.resync(ix.stacks[th], c.Parent), c.ID)
}

// resync makes the caller the top of a thread's stack: the recorder may
// leave out the ends of calls (an exception through a deep recursion, a
// gap), and a call's parent says where it stands.
func (ix *indexer) resync(stack []int, parent int) []int {
	if parent == 0 {
		return stack[:0]
	}
	if i := slices.Index(stack, parent); i >= 0 {
		return stack[:i+1]
	}
	var chain []int
	for id := parent; id != 0; {
		chain = append(chain, id)
		c := ix.r.calls[id]
		if c == nil {
			break
		}
		id = c.Parent
	}
	slices.Reverse(chain)
	return chain
}

func (ix *indexer) end(e *event, at span, th string) {
	c := ix.r.calls[e.ID]
	if c == nil {
		return
	}
	c.end = at
	if e.K == "unwind" {
		c.Unwound, c.ExcType = true, ix.intern(e.Type)
		if a := ix.active[th]; a != nil && c.Parent == 0 {
			ix.escaped = a
		}
	}
	stack := ix.stacks[th]
	if i := slices.Index(stack, c.ID); i >= 0 {
		ix.stacks[th] = stack[:i]
	}
	if len(ix.recent) == recentKept {
		ix.recent = ix.recent[1:]
	}
	ix.recent = append(ix.recent, c.ID)
}

func (ix *indexer) exc(e *event, th string) {
	a := ix.active[th]
	if e.Raised || a == nil || a.Type != e.Type {
		a = &exception{Type: e.Type, Msg: e.Msg, raisedIn: e.ID, raisedLine: e.Line,
			stack: slices.Clone(ix.stacks[th]), lines: map[int]int{}, before: slices.Clone(ix.recent)}
		ix.active[th] = a
	}
	if _, seen := a.lines[e.ID]; !seen {
		a.lines[e.ID] = e.Line
	}
}

func (ix *indexer) catch(e *event, th string) {
	r := ix.r
	r.catchCount++
	c := caught{Type: e.Type, caughtIn: e.ID, line: e.Line}
	if a := ix.active[th]; a != nil {
		c.Msg, c.raisedIn, c.raisedLine = a.Msg, a.raisedIn, a.raisedLine
	}
	if len(r.catches) == catchesKept {
		r.catches = r.catches[1:]
	}
	r.catches = append(r.catches, c)
	delete(ix.active, th)
}

func (ix *indexer) test(e *event) {
	r := ix.r
	r.Tests = append(r.Tests, Test{Name: e.Name, Outcome: e.Outcome, Msg: e.Msg, File: e.File, Line: e.Line})
	if (e.Outcome == "failed" || e.Outcome == "error") && r.failure == nil && ix.escaped != nil {
		r.failure = ix.escaped
		r.failure.test = e.Name
	}
	ix.escaped = nil
}

// finish keeps the calls that ended last, for a run that did not fail.
func (ix *indexer) finish() {
	ix.r.lastEnded = ix.recent
}

// jsonNumber decodes a number field that another kind of event uses for a
// string (n: a gap's count, a set's local).
func jsonNumber(raw json.RawMessage, n *int) error {
	return json.Unmarshal(raw, n)
}
