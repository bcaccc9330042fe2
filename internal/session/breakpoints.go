package session

import (
	"errors"
	"slices"
	"sort"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

// Breakpoint is a line breakpoint as the session tracks it. IDs are the
// session's own and stay stable across re-sends, restarts and adapters.
type Breakpoint struct {
	ID            int    `json:"id"`
	File          string `json:"file"`
	Line          int    `json:"line"`
	RequestedLine int    `json:"requestedLine,omitempty"`
	Verified      bool   `json:"verified"`
	Condition     string `json:"condition,omitempty"`
	HitCondition  string `json:"hitCondition,omitempty"`
	LogMessage    string `json:"logMessage,omitempty"`
	Message       string `json:"message,omitempty"`
	Anchor        string `json:"anchor,omitempty"`
	// Collect, for a tracepoint: expressions recorded at each hit.
	Collect []string `json:"collect,omitempty"`
	MaxHits int      `json:"maxHits,omitempty"`
	// Hits counts a tracepoint's recorded hits.
	Hits int `json:"hits,omitempty"`
	// TraceMode says how a tracepoint collects: by logpoint, without
	// stopping, or by stopping, evaluating and continuing.
	TraceMode string `json:"traceMode,omitempty"`
	// Locations is how many places the line compiles to, when more than
	// one and the adapter tells.
	Locations int `json:"locations,omitempty"`
	// holdsContainers: a value the tracepoint's logpoint reported was a
	// container the adapter shows by its count alone (lldb-dap's
	// "size=3"); it traces by stopping from its next sending on (a
	// restart), to read the elements as a stop does. Not at once: taking
	// a logpoint back takes removing it (lldb-32), and a pass over the
	// line meanwhile would leave no row.
	holdsContainers bool

	// sendLine is the line sent to the adapter; Line is where the adapter
	// put it. askedLine is the agent's line when the source placed the
	// breakpoint elsewhere (it had no code), 0 otherwise.
	sendLine  int
	askedLine int
	adapterID int
	// internal: the server placed it for itself (see newInternalID).
	internal bool
}

// FunctionBreakpoint is a breakpoint on a function name.
type FunctionBreakpoint struct {
	ID           int    `json:"id"`
	FunctionName string `json:"functionName"`
	Condition    string `json:"condition,omitempty"`
	HitCondition string `json:"hitCondition,omitempty"`
	Verified     bool   `json:"verified"`
	Message      string `json:"message,omitempty"`
	// BoundFile and BoundLine: where the function the adapter bound it
	// to is, when the adapter tells.
	BoundFile string `json:"boundFile,omitempty"`
	BoundLine int    `json:"boundLine,omitempty"`
	// AdapterID is the adapter's id for it once sent (stopped events name
	// hit breakpoints by it).
	AdapterID int `json:"adapterId,omitempty"`
	// Trace: the breakpoint records calls and returns (trace_function)
	// instead of stopping, MaxCalls of them (0: no limit); Calls counts.
	Trace    bool `json:"trace,omitempty"`
	MaxCalls int  `json:"maxCalls,omitempty"`
	Calls    int  `json:"calls,omitempty"`

	// internal: the server placed it for itself (see newInternalID).
	internal bool
	// stopReason, for an internal one, is the reason a stop that hit only
	// it shows: what the server placed it for ("test failure"), never a
	// "function breakpoint" the agent did not set.
	stopReason string
}

// breakpointRegistry keeps every breakpoint per file: DAP's setBreakpoints
// replaces a file's whole set, so the set is always sent whole. A file is
// keyed by the first spelling of its path the agent used; another
// spelling of it (case on macOS and Windows, a drive letter's case or
// separators on Windows) is the same key, by os's rules. It is guarded by
// the session's mutex.
type breakpointRegistry struct {
	nextID         int
	lastInternalID int
	files          map[string][]*Breakpoint
	functions      []*FunctionBreakpoint
	os             platform.OS
}

func newBreakpointRegistry(o platform.OS) *breakpointRegistry {
	return &breakpointRegistry{files: map[string][]*Breakpoint{}, os: o}
}

// canonical is the key of the file path names: the spelling already
// registered for it, else path itself.
func (r *breakpointRegistry) canonical(path string) string {
	if _, ok := r.files[path]; ok {
		return path
	}
	for f := range r.files {
		if r.os.SamePath(f, path) {
			return f
		}
	}
	return path
}

// linesAt returns the line breakpoints of the file path names, in any
// spelling (a stack frame's path is the adapter's, not the agent's).
func (r *breakpointRegistry) linesAt(path string) []*Breakpoint {
	return r.files[r.canonical(path)]
}

func (r *breakpointRegistry) newID() int {
	r.nextID++
	return r.nextID
}

// newInternalID numbers a breakpoint the server places for itself
// (run_to's target, debug_test's catcher of failed tests). Such ids are
// negative and drawn apart from the agent's, so the agent's ids are the
// same with or without them, and no answer shows or counts them.
func (r *breakpointRegistry) newInternalID() int {
	r.lastInternalID--
	return r.lastInternalID
}

func (r *breakpointRegistry) idFor(internal bool) int {
	if internal {
		return r.newInternalID()
	}
	return r.newID()
}

func (r *breakpointRegistry) addLine(bp *Breakpoint) {
	bp.ID = r.idFor(bp.internal)
	r.files[bp.File] = append(r.files[bp.File], bp)
}

func (r *breakpointRegistry) addFunction(fb *FunctionBreakpoint) {
	fb.ID = r.idFor(fb.internal)
	r.functions = append(r.functions, fb)
}

// adoptLine makes an internal breakpoint the agent's, which asked for one
// on the same line: it gets an id of the agent's, and the server's
// removal of its own (by the internal id) leaves it in place.
func (r *breakpointRegistry) adoptLine(bp *Breakpoint) {
	if bp.internal {
		bp.internal, bp.ID = false, r.newID()
	}
}

// agentLines counts the agent's breakpoints among bps.
func agentLines(bps []*Breakpoint) int {
	n := 0
	for _, bp := range bps {
		if !bp.internal {
			n++
		}
	}
	return n
}

// agentFunctions counts the agent's function breakpoints among fbs.
func agentFunctions(fbs []*FunctionBreakpoint) int {
	n := 0
	for _, fb := range fbs {
		if !fb.internal {
			n++
		}
	}
	return n
}

// sortedFiles returns the files with breakpoints, in a stable order.
func (r *breakpointRegistry) sortedFiles() []string {
	files := make([]string, 0, len(r.files))
	for f := range r.files {
		files = append(files, f)
	}
	sort.Strings(files)
	return files
}

func (r *breakpointRegistry) lines() []*Breakpoint {
	var out []*Breakpoint
	for _, f := range r.sortedFiles() {
		out = append(out, r.files[f]...)
	}
	return out
}

// remove deletes the breakpoints matched by keep==false and returns them.
func (r *breakpointRegistry) removeLines(match func(*Breakpoint) bool) []*Breakpoint {
	var removed []*Breakpoint
	for f, bps := range r.files {
		kept := bps[:0:0]
		for _, bp := range bps {
			if match(bp) {
				removed = append(removed, bp)
			} else {
				kept = append(kept, bp)
			}
		}
		if len(kept) == 0 {
			delete(r.files, f)
		} else {
			r.files[f] = kept
		}
	}
	return removed
}

func (r *breakpointRegistry) removeFunctions(match func(*FunctionBreakpoint) bool) []*FunctionBreakpoint {
	var removed []*FunctionBreakpoint
	kept := r.functions[:0:0]
	for _, fb := range r.functions {
		if match(fb) {
			removed = append(removed, fb)
		} else {
			kept = append(kept, fb)
		}
	}
	r.functions = kept
	return removed
}

// sourceBreakpoints is a file's breakpoint list as sent; tracepoints go as
// logpoints when logpoints is set and their line has one location, as
// plain breakpoints otherwise; logpoints
// go as plain breakpoints when emulatedLogpoints (see logpoint.go).
func sourceBreakpoints(bps []*Breakpoint, logpoints logpointForm, emulatedLogpoints bool) []dap.SourceBreakpoint {
	out := make([]dap.SourceBreakpoint, len(bps))
	for i, bp := range bps {
		out[i] = dap.SourceBreakpoint{Line: bp.sendLine, Condition: bp.Condition, HitCondition: bp.HitCondition, LogMessage: bp.LogMessage}
		if emulatedLogpoints {
			out[i].LogMessage = ""
		}
		if len(bp.Collect) > 0 {
			bp.TraceMode = TraceByStopping
			if logpoints != nil && !bp.tracesByStopping() {
				bp.TraceMode = TraceByLogpoint
				out[i].LogMessage = traceLogMessage(bp, logpoints)
			}
		}
	}
	return out
}

// tracesByStopping says that a tracepoint cannot ride on a logpoint: its
// line compiles to several places, each of which would log (one row a pass
// needs stops: samepass.go), or its values hold containers that a logpoint
// shows by their count alone.
func (bp *Breakpoint) tracesByStopping() bool {
	return bp.Locations > 1 || bp.holdsContainers
}

// hasSessionAnswered reports whether a stop at any line breakpoint is the
// session's to answer (answeredBySession).
func (r *breakpointRegistry) hasSessionAnswered(emulatedLogpoints bool) bool {
	for _, bps := range r.files {
		for _, bp := range bps {
			if bp.answeredBySession(emulatedLogpoints) {
				return true
			}
		}
	}
	return false
}

// lineByID finds a line breakpoint by our id.
func (r *breakpointRegistry) lineByID(id int) *Breakpoint {
	for _, bps := range r.files {
		for _, bp := range bps {
			if bp.ID == id {
				return bp
			}
		}
	}
	return nil
}

// functionBreakpoints is the setFunctionBreakpoints list, names in the
// adapter's spelling (see adapter.Quirks.FunctionBreakpointName).
func functionBreakpoints(fbs []*FunctionBreakpoint, q adapter.Quirks) []dap.FunctionBreakpoint {
	out := make([]dap.FunctionBreakpoint, len(fbs))
	for i, fb := range fbs {
		out[i] = dap.FunctionBreakpoint{Name: q.FunctionName(fb.FunctionName), Condition: fb.Condition, HitCondition: fb.HitCondition}
	}
	return out
}

// applyLines records the adapter's answer for a file's set (same order as sent).
func applyLines(bps []*Breakpoint, answer []dap.Breakpoint) {
	for i, bp := range bps {
		if i >= len(answer) {
			bp.Verified, bp.Message = false, "the debug adapter did not answer for this breakpoint"
			continue
		}
		applyLine(bp, answer[i])
	}
}

func applyLine(bp *Breakpoint, a dap.Breakpoint) {
	bp.adapterID = a.Id
	bp.Verified = a.Verified
	bp.Message = a.Message
	bp.placeAt(bp.sendLine)
	if a.Line > 0 && a.Line != bp.sendLine {
		bp.placeAt(a.Line)
	}
}

// placeAt records where the breakpoint is: RequestedLine is set when that
// is not the line the agent asked for.
func (bp *Breakpoint) placeAt(line int) {
	asked := bp.sendLine
	if bp.askedLine != 0 {
		asked = bp.askedLine
	}
	bp.Line, bp.RequestedLine = line, 0
	if line != asked {
		bp.RequestedLine = asked
	}
}

// refusedMessage is what a breakpoint says when the adapter failed the
// whole request that carried it (rdbg 1.6 answers setBreakpoints with
// "<path> is not available" for a path it does not map;
// docs/adapter-quirks.md, rdbg-9): the agent reads
// it in the breakpoint's message, not only in a log line.
func refusedMessage(err error) string {
	var re *dapc.ResponseError
	if errors.As(err, &re) {
		return "refused by the debugger: " + re.Text()
	}
	return "the debug adapter did not answer: " + err.Error()
}

// refuseLines records a failed setBreakpoints: none of the file's set is in
// place.
func refuseLines(bps []*Breakpoint, err error) {
	msg := refusedMessage(err)
	for _, bp := range bps {
		bp.adapterID, bp.Verified, bp.Message = 0, false, msg
		bp.placeAt(bp.sendLine)
	}
}

// refuseFunctions records a failed setFunctionBreakpoints.
func refuseFunctions(fbs []*FunctionBreakpoint, err error) {
	msg := refusedMessage(err)
	for _, fb := range fbs {
		fb.AdapterID, fb.Verified, fb.Message = 0, false, msg
	}
}

func applyFunctions(fbs []*FunctionBreakpoint, answer []dap.Breakpoint) {
	for i, fb := range fbs {
		if i >= len(answer) {
			fb.Verified, fb.Message = false, "the debug adapter did not answer for this breakpoint"
			continue
		}
		applyFunction(fb, answer[i])
	}
}

func applyFunction(fb *FunctionBreakpoint, a dap.Breakpoint) {
	fb.AdapterID, fb.Verified, fb.Message = a.Id, a.Verified, a.Message
	fb.BoundFile, fb.BoundLine = "", 0
	if a.Verified && a.Source != nil && a.Source.Path != "" {
		fb.BoundFile, fb.BoundLine = a.Source.Path, a.Line
	}
}

// splitHits separates the agent's breakpoint ids among a stop's hits from
// the server's own (negative: see newInternalID).
func splitHits(ids []int) (agent, internal []int) {
	for _, id := range ids {
		if id < 0 {
			internal = append(internal, id)
		} else {
			agent = append(agent, id)
		}
	}
	return agent, internal
}

// byAdapterID maps an adapter's breakpoint id to ours (0 when unknown).
func (r *breakpointRegistry) byAdapterID(id int) int {
	if id == 0 {
		return 0
	}
	for _, bps := range r.files {
		for _, bp := range bps {
			if bp.adapterID == id {
				return bp.ID
			}
		}
	}
	for _, fb := range r.functions {
		if fb.AdapterID == id {
			return fb.ID
		}
	}
	return 0
}

// hitReason is a breakpoint stop's reason: "function breakpoint" when
// every breakpoint it hit (our ids) is a function breakpoint. lldb-dap
// reports such a stop as a plain "breakpoint", naming the hit breakpoint
// (docs/adapter-quirks.md, lldb-21).
func (r *breakpointRegistry) hitReason(reason string, hits []int) string {
	if reason != "breakpoint" && reason != "function breakpoint" || len(hits) == 0 {
		return reason
	}
	if own := r.internalReason(hits); own != "" {
		return own
	}
	if reason != "breakpoint" {
		return reason
	}
	for _, id := range hits {
		if !slices.ContainsFunc(r.functions, func(fb *FunctionBreakpoint) bool { return fb.ID == id }) {
			return reason
		}
	}
	return "function breakpoint"
}

// internalReason is the stop reason of a stop that hit only internal
// function breakpoints placed with one ("" otherwise).
func (r *breakpointRegistry) internalReason(hits []int) string {
	own := ""
	for _, id := range hits {
		i := slices.IndexFunc(r.functions, func(fb *FunctionBreakpoint) bool { return fb.ID == id })
		if id >= 0 || i < 0 || r.functions[i].stopReason == "" {
			return ""
		}
		own = r.functions[i].stopReason
	}
	return own
}

// updateFromEvent applies a "breakpoint changed" event to the breakpoint
// with that adapter id, if any: a line breakpoint, or a function
// breakpoint that binds once its function's code loads.
func (r *breakpointRegistry) updateFromEvent(a dap.Breakpoint) {
	if a.Id == 0 {
		return
	}
	for _, bps := range r.files {
		for _, bp := range bps {
			if bp.adapterID == a.Id {
				applyLine(bp, a)
				return
			}
		}
	}
	for _, fb := range r.functions {
		if fb.AdapterID == a.Id {
			applyFunction(fb, a)
			return
		}
	}
}
