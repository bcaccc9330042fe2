package server

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// defaultMaxBytes is the size an answer is cut to when the agent sets no
// maxBytes: a few KB, about a thousand tokens.
const defaultMaxBytes = 8000

// minMaxBytes is the smallest budget honoured: below it even the location
// would not fit.
const minMaxBytes = 1000

// budgetNote says what an answer left out to stay within maxBytes, and how
// to get it.
type budgetNote struct {
	MaxBytes int      `json:"maxBytes"`
	LeftOut  []string `json:"leftOut"`
}

func budgetOf(maxBytes Int) int {
	switch {
	case maxBytes <= 0:
		return defaultMaxBytes
	case maxBytes < minMaxBytes:
		return minMaxBytes
	}
	return int(maxBytes)
}

// sizeOf is how many bytes v takes in an answer, encoded as answers are.
func sizeOf(v any) int {
	b, err := marshalAnswer(v)
	if err != nil {
		return 0
	}
	return len(b)
}

// onlyChanges keeps the locals that changed or are new since the previous
// stop in the same frame. The first stop in a frame keeps them all.
func onlyChanges(snap *session.Snapshot) {
	if !snap.Compared || len(snap.Locals) == 0 {
		return
	}
	keep := map[string]bool{}
	for _, c := range snap.Changed {
		keep[c.Name] = true
	}
	for _, n := range snap.New {
		keep[n] = true
	}
	// A local left out is named in unchanged with those the engine left
	// out (shown before with this value): the note's count is the list's.
	snap.Locals = slices.DeleteFunc(snap.Locals, func(v session.Variable) bool {
		if !keep[v.Name] {
			snap.Unchanged = append(snap.Unchanged, v.Name)
			return true
		}
		return false
	})
	if n := len(snap.Unchanged); n > 0 {
		note := fmt.Sprintf("%d unchanged locals not shown (changesOnly; named in unchanged); get_local_variables lists all", n)
		if snap.LocalsNote != "" {
			note = snap.LocalsNote + "; " + note
		}
		snap.LocalsNote = note
	}
}

// fit renders a run-control answer's output and cuts the answer to
// maxBytes, dropping the least useful parts first: long values, older
// output, the exception's stack text, source lines, then locals and output
// altogether. It says what went.
func (res *runResult) fit(maxBytes int) {
	showOutput(&res.Snapshot)
	if sizeOf(res) <= maxBytes {
		return
	}
	note := &budgetNote{MaxBytes: maxBytes}
	res.Budget = note
	snap := &res.Snapshot
	var firstOutputCut string
	stages := []func() string{
		func() string {
			if shortenValues(snap.Locals, 120)+shortenWatches(snap.Watches, 120)+shortenChanges(snap.Changed, 120) == 0 {
				return ""
			}
			return "long values shortened to 120 bytes: evaluate_expression or get_variables shows them whole"
		},
		func() string {
			firstOutputCut = trimOutput(snap, 10, 300)
			return firstOutputCut
		},
		func() string {
			if ex := snap.Exception; ex != nil && len(ex.StackTrace) > 600 {
				ex.StackTrace = cutValue(ex.StackTrace, 600)
				return "the exception's stack text was shortened: get_stack_trace lists the frames"
			}
			return ""
		},
		func() string {
			if c := snap.Context; c != nil && len(c.Surrounding) > 3 {
				c.Surrounding = aroundCurrent(c.Surrounding, 1)
				return "source lines around the stop reduced to one either side: get_source_context shows more"
			}
			return ""
		},
		func() string {
			if shortenValues(snap.Locals, 40)+shortenWatches(snap.Watches, 40)+shortenChanges(snap.Changed, 40) == 0 {
				return ""
			}
			return "values shortened to 40 bytes"
		},
		func() string {
			// This cut supersedes the earlier one's note.
			note.LeftOut = slices.DeleteFunc(note.LeftOut, func(s string) bool { return s == firstOutputCut })
			return trimOutput(snap, 0, 0)
		},
	}
	for _, stage := range stages {
		if what := stage(); what != "" {
			note.LeftOut = append(note.LeftOut, what)
		}
		if sizeOf(res) <= maxBytes {
			return
		}
	}
	// Last, locals from the end, then watches; each note is in the answer
	// while it is measured, so that the cut answer, note included, fits.
	cutToFit(res, maxBytes, len(snap.Locals), func(k int) { snap.Locals = snap.Locals[:k] },
		"%d of %d locals left out: get_local_variables lists them")
	cutToFit(res, maxBytes, len(snap.Watches), func(k int) { snap.Watches = snap.Watches[:k] },
		"%d of %d watches left out: list_watches shows them")
	if n := len(snap.Changed); n > 0 && sizeOf(res) > maxBytes {
		snap.Changed = nil
		note.LeftOut = append(note.LeftOut, fmt.Sprintf("%d changed values left out", n))
	}
}

// cutToFit keeps fewer and fewer of a list's n items (keep(k) keeps the
// first k) until res fits maxBytes with a note, from format given the
// counts left out and in all, saying so.
func cutToFit(res *runResult, maxBytes, n int, keep func(k int), format string) {
	if n == 0 || sizeOf(res) <= maxBytes {
		return
	}
	note := res.Budget
	at := len(note.LeftOut)
	note.LeftOut = append(note.LeftOut, "")
	for k := n - 1; k >= 0; k-- {
		keep(k)
		note.LeftOut[at] = fmt.Sprintf(format, n-k, n)
		if sizeOf(res) <= maxBytes {
			return
		}
	}
}

// showOutput renders a snapshot's output as the text the answer carries,
// each line cut to session.MaxValueLen.
func showOutput(snap *session.Snapshot) {
	snap.OutputText = strings.Join(session.OutputLines(snap.Output, session.MaxValueLen), "")
}

// trimOutput keeps the last keep lines of the output (none when 0), each
// cut to n bytes.
func trimOutput(snap *session.Snapshot, keep, n int) string {
	if len(snap.Output) == 0 {
		return ""
	}
	lines := session.OutputLines(snap.Output, session.MaxValueLen)
	from := snap.Output[0].Seq
	dropped := max(0, len(lines)-keep)
	lines = lines[dropped:]
	cutAny := false
	for i, line := range lines {
		text, end := strings.CutSuffix(line, "\n")
		if short, cut := session.Cut(text, n); cut {
			lines[i], cutAny = short, true
			if end {
				lines[i] += "\n"
			}
		}
	}
	snap.OutputText = strings.Join(lines, "")
	switch {
	case dropped > 0:
		return fmt.Sprintf("%d output lines left out: get_output with since=%d reads them", dropped, from-1)
	case cutAny:
		return fmt.Sprintf("output lines shortened: get_output with since=%d reads them whole", from-1)
	}
	return ""
}

func aroundCurrent(lines []session.SourceLine, side int) []session.SourceLine {
	for i, l := range lines {
		if l.Current {
			return lines[max(0, i-side):min(len(lines), i+side+1)]
		}
	}
	return lines
}

func shortenValues(vars []session.Variable, n int) int {
	cut := 0
	for i := range vars {
		if len(vars[i].Value) > n {
			vars[i].Value, vars[i].Truncated = cutValue(vars[i].Value, n), true
			cut++
		}
	}
	return cut
}

func shortenWatches(ws []session.WatchValue, n int) int {
	cut := 0
	for i := range ws {
		if len(ws[i].Value) > n {
			ws[i].Value, ws[i].Truncated = cutValue(ws[i].Value, n), true
			cut++
		}
	}
	return cut
}

func shortenChanges(cs []session.Change, n int) int {
	cut := 0
	for i := range cs {
		if len(cs[i].From) > n || len(cs[i].To) > n {
			cs[i].From, cs[i].To = cutValue(cs[i].From, n), cutValue(cs[i].To, n)
			cut++
		}
	}
	return cut
}

// fitVariables cuts a variable listing to maxBytes (besides fixed bytes of
// the rest of the answer): nested children below the first level go first,
// then long values, then variables from the end.
func fitVariables(vars []session.Variable, maxBytes, fixed int) ([]session.Variable, *budgetNote) {
	if sizeOf(vars)+fixed <= maxBytes {
		return vars, nil
	}
	note := &budgetNote{MaxBytes: maxBytes}
	if pruneDepth(vars, 1) > 0 {
		note.LeftOut = append(note.LeftOut, "values nested more than one level deep: get_variables with scope set to a value's variablesReference expands it")
		if sizeOf(vars)+fixed <= maxBytes {
			return vars, note
		}
	}
	if shortenTree(vars, 120) > 0 {
		note.LeftOut = append(note.LeftOut, "long values shortened to 120 bytes: evaluate_expression shows one whole")
		if sizeOf(vars)+fixed <= maxBytes {
			return vars, note
		}
	}
	if pruneDepth(vars, 0) > 0 {
		note.LeftOut = append(note.LeftOut, "all nested values: expand one with get_variables")
	}
	n := len(vars)
	for len(vars) > 0 && sizeOf(vars)+fixed > maxBytes {
		vars = vars[:len(vars)-1]
	}
	if len(vars) < n {
		note.LeftOut = append(note.LeftOut, fmt.Sprintf("%d of %d variables left out: ask for them by names, or page with start=%d and count", n-len(vars), n, len(vars)))
	}
	return vars, note
}

// pruneDepth drops children deeper than depth levels; it returns how many
// values lost theirs.
func pruneDepth(vars []session.Variable, depth int) int {
	pruned := 0
	for i := range vars {
		if len(vars[i].Children) == 0 {
			continue
		}
		if depth == 0 {
			vars[i].Children = nil
			pruned++
			continue
		}
		pruned += pruneDepth(vars[i].Children, depth-1)
	}
	return pruned
}

func shortenTree(vars []session.Variable, n int) int {
	cut := shortenValues(vars, n)
	for i := range vars {
		cut += shortenTree(vars[i].Children, n)
	}
	return cut
}

// cutValue shortens s to about n bytes (session.Cut, without its bool).
func cutValue(s string, n int) string {
	v, _ := session.Cut(s, n)
	return v
}

// maxErrorBytes bounds a failure's error text. Errors quote the agent's
// input (session.Brief) and the adapter's answer, which may repeat that
// input whole; this keeps every failure small whatever either says.
const maxErrorBytes = 1000

// cutError shortens an error message to maxErrorBytes, saying how long it
// was.
func cutError(msg string) string {
	if len(msg) <= maxErrorBytes {
		return msg
	}
	return fmt.Sprintf("%s (%d bytes)", cutValue(msg, maxErrorBytes), len(msg))
}

// watchQuoteLimit bounds the expression, value and error of a watch as
// add_watch and list_watches echo them: the agent wrote the expression,
// and snapshots and evaluate_expression show values in full.
const watchQuoteLimit = 300

// briefWatch shortens what a watch answer repeats. The watch itself keeps
// its whole expression; remove_watch takes its id.
func briefWatch(w session.WatchValue) session.WatchValue {
	w.Expression = session.Brief(w.Expression)
	if len(w.Value) > watchQuoteLimit {
		w.Value, w.Truncated = cutValue(w.Value, watchQuoteLimit), true
	}
	w.Error = cutValue(w.Error, watchQuoteLimit)
	return w
}

// noteReserve is room kept for the budget note itself when a list is cut
// to fit.
const noteReserve = 300

// fill puts a get_output page's entries into the answer as runs, cut to
// maxBytes: entries from the end first (the cursor then points before
// them, so the next call reads them), then, when one entry alone is too
// big, its text.
func (res *outputResult) fill(entries []session.OutputEntry, maxBytes int) {
	res.Entries = []session.OutputRun{} // to size the rest of the answer
	if fittingOutput(entries, maxBytes-sizeOf(res)) == len(entries) {
		res.Entries = session.JoinRuns(entries)
		return
	}
	note := &budgetNote{MaxBytes: maxBytes}
	res.Budget = note
	limit := maxBytes - noteReserve
	n := len(entries)
	entries = entries[:max(1, fittingOutput(entries, limit-sizeOf(res)))]
	res.Entries = session.JoinRuns(entries)
	if len(entries) < n {
		res.NextSince, res.HasMore = entries[len(entries)-1].Seq, true
		note.LeftOut = append(note.LeftOut, fmt.Sprintf("%d of %d entries left out: get_output with since=%d reads them", n-len(entries), n, res.NextSince))
	}
	if sizeOf(res) <= maxBytes {
		return
	}
	limit -= noteReserve
	e := &res.Entries[0]
	text := e.Output
	// JSON escaping makes the text up to six times longer than its bytes:
	// search for the longest prefix that fits.
	keep, lo, hi := 0, 0, min(len(text), limit)
	for lo <= hi {
		mid := (lo + hi) / 2
		if e.Output = cutValue(text, mid); sizeOf(res) <= limit {
			keep, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	e.Output = cutValue(text, keep)
	note.LeftOut = append(note.LeftOut, fmt.Sprintf("entry %d cut to its first %d of %d bytes: get_output with since=%d and a larger maxBytes reads it whole", e.Seq, keep, len(text), e.Seq-1))
}

// fittingOutput says how many entries from the start fit in room bytes
// once joined into runs. JSON escapes text character by character, so a
// run's size is its fields' plus each joined text's, sized once.
func fittingOutput(entries []session.OutputEntry, room int) int {
	used := 0
	for i, e := range entries {
		if i == 0 || entries[i-1].Category != e.Category {
			run := session.JoinRuns(entries[i : i+1])[0]
			run.Output = ""
			used += sizeOf(run) + 1 // the comma
		}
		used += sizeOf(e.Output) - len(`""`)
		if used > room {
			return i
		}
	}
	return len(entries)
}

// fit cuts a list_threads page to maxBytes, threads from the end first, and
// says where the next page starts.
func (res *threadsResult) fit(maxBytes int) {
	if sizeOf(res) <= maxBytes {
		return
	}
	asked := len(res.Threads)
	threads := res.Threads
	res.Threads = nil // to size the rest of the answer
	room := maxBytes - noteReserve - sizeOf(res)
	res.Threads = threads[:fitting(threads, room)]
	res.Count = len(res.Threads)
	next := res.Start + res.Count
	res.Budget = &budgetNote{MaxBytes: maxBytes, LeftOut: []string{
		fmt.Sprintf("%d of the %d threads asked for left out (%d listed by the adapter): list_threads with start=%d reads on", asked-res.Count, asked, res.Total, next),
	}}
}

// fit cuts a stack page to maxBytes, indexes being its frames' indexes
// in the whole stack, and says how to read on.
func (res *stackResult) fit(maxBytes int, indexes []int) {
	if sizeOf(res) > maxBytes {
		frames := res.StackFrames
		res.StackFrames = nil               // to size the rest of the answer
		res.More = strings.Repeat("m", 200) // room for the note below
		room := maxBytes - sizeOf(res)
		res.StackFrames = frames
		if keep := max(1, fitting(frames, room)); keep < len(frames) {
			res.StackFrames, res.NextStartFrame = frames[:keep], indexes[keep]
		}
	}
	res.Count = len(res.StackFrames)
	res.More = ""
	switch {
	case res.NextStartFrame > 0 && res.TotalFramesEstimated:
		res.More = fmt.Sprintf("more frames below these (at least %d in all): get_stack_trace with startFrame=%d reads on (levels up to %d)",
			res.TotalFrames, res.NextStartFrame, maxStackLevels)
	case res.NextStartFrame > 0:
		res.More = fmt.Sprintf("%d more frames below these (%d in all): get_stack_trace with startFrame=%d reads on (levels up to %d)",
			res.TotalFrames-res.NextStartFrame, res.TotalFrames, res.NextStartFrame, maxStackLevels)
	case res.Count == 0 && res.StartFrame > 0:
		res.More = fmt.Sprintf("startFrame %d is past the bottom of the stack: startFrame=0 lists from the innermost frame", res.StartFrame)
	}
}

// fitting says how many items from the start of a list fit in room bytes of
// JSON. It sizes each item once: cutting a long list by re-encoding the
// whole answer per dropped item takes seconds.
func fitting[T any](items []T, room int) int {
	used := 0
	for i, item := range items {
		used += sizeOf(item) + 1 // the comma
		if used > room {
			return i
		}
	}
	return len(items)
}
