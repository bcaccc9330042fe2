package lldb

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// quirks are lldb-dap's departures from plain DAP that the engine handles
// (docs/adapter-quirks.md, lldb-*). Those the engine copes with unaided, and
// verified by the integration tests: the launch response held until
// configurationDone, OS thread ids, the Registers scope (never picked as
// locals), output lines ending in "\r\n" (normalised by the engine).
// panicBreakpoint says that panicCommand set breakpoint 1; stopOnEntry
// that the program was asked to stop on entry.
func quirks(panicBreakpoint, stopOnEntry bool) adapter.Quirks {
	// Only the session's event goroutine calls StopReason; atomic anyway,
	// as nothing in Quirks promises that.
	var entryPending atomic.Bool
	entryPending.Store(stopOnEntry)
	return adapter.Quirks{
		// "repl" answers in lldb's print form, "(int) $0 = 6", and creates a
		// $N variable each time; "watch" answers "6".
		EvaluateContext:     "watch",
		IsNoise:             isNoise,
		FrameName:           frameName,
		InternalFrame:       internalFrame,
		WaitingOn:           waitingOn,
		LibraryFrame:        libraryFrame,
		BeforeContinue:      discardStalePlans,
		BreakpointLocations: breakpointLocations,
		ElementCount:        elementCount,
		EvaluationHint:      evaluationHint,
		StopReason: func(reason, description string) (string, string) {
			// The first stop of a program asked to stop on entry:
			// lldb-dap 22.1.8 reports it as reason "entry", description
			// "signal SIGSTOP"; lldb-dap 19.1.7 as reason "exception",
			// "signal SIGSTOP", what it also says of a pause (stopReason).
			// Only the order tells them apart: the entry comes first.
			if entryPending.Swap(false) && reason == "exception" && isSIGSTOP(description) {
				return "entry", description
			}
			return stopReason(reason, description, panicBreakpoint)
		},
	}
}

func isSIGSTOP(description string) bool {
	return strings.HasPrefix(description, "signal SIGSTOP")
}

// stopReason corrects two of lldb-dap's stop reasons. A pause: lldb-dap
// interrupts a program with SIGSTOP and, when the signal arrives during a
// system call (sleep, read), reports reason "exception", description
// "signal SIGSTOP"; nothing else sends SIGSTOP to a debuggee in practice,
// and stopping there is what a pause is anyway. A Rust panic: lldb-dap
// has no exception filter for it, so panicCommand sets breakpoint 1 on
// std's rust_panic, reported as an ordinary "breakpoint 1.1".
// docs/adapter-quirks.md: lldb-13, lldb-15.
func stopReason(reason, description string, panicBreakpoint bool) (string, string) {
	switch {
	case reason == "exception" && isSIGSTOP(description):
		return "pause", description
	case panicBreakpoint && reason == "breakpoint" && strings.HasPrefix(description, "breakpoint "+panicBreakpointID+"."):
		return "exception", "Rust panic: its message is in the program's output"
	}
	return reason, description
}

// panicCommand stops a Rust program where it panics: std calls
// rust_panic (kept unmangled for debuggers) after printing the message
// and before unwinding. Run as the first of the launch's preRunCommands,
// before lldb-dap creates the client's breakpoints (which come after
// "initialized", itself sent after the launch request is handled), it
// gets id panicBreakpointID. Every panic stops, caught ones too.
const panicCommand = "breakpoint set --name rust_panic"

// panicBreakpointID is the id LLDB gives panicCommand's breakpoint.
const panicBreakpointID = "1"

// isNoise keeps lldb-dap's own console chatter out of the program's
// output: the two-line banner sent on launch ("To get started with the
// debug console try …", "For more information visit …"), LLDB's process
// notes ("Executable binary set to …", "Attached to process N." even on
// launch, "Process N exited with status = 3", which the snapshot reports as
// exitCode) and the echo of commands it runs for us, with the answer to
// panicCommand. Program output comes
// as stdout and stderr, never console, so only console lines are looked at;
// other console lines (warnings about debug information, say) stay.
// docs/adapter-quirks.md: lldb-5.
func isNoise(category, text string) bool {
	if category != "console" {
		return false
	}
	t := strings.TrimSpace(text)
	for _, p := range noisePrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return processExited.MatchString(t) || panicBreakpointSet.MatchString(t)
}

var noisePrefixes = []string{
	"To get started with the debug console",
	"For more information visit https://lldb.llvm.org",
	"Executable binary set to ",
	"Attached to process ",
	"Running initCommands:",
	"Running attachCommands:",
	"Running preRunCommands:",
	"Running postRunCommands:",
	"(lldb) command script import ",
	"(lldb) command source ",
	"(lldb) " + panicCommand,
	"(lldb) " + inputPathCommand,
}

var processExited = regexp.MustCompile(`^Process \d+ exited with status = `)

// panicBreakpointSet is LLDB's answer to panicCommand, resolved or not:
// "Breakpoint 1: where = app`__rustc::rust_panic + 8 at …", "Breakpoint 1:
// no locations (pending)."
var panicBreakpointSet = regexp.MustCompile(`^Breakpoint ` + panicBreakpointID + `: (where = \S*rust_panic\b|no locations \(pending\))`)

// rustHash is the hash suffix rustc adds to legacy-mangled symbols.
var rustHash = regexp.MustCompile(`::h[0-9a-f]{16}$`)

// legacyEscape is one of the legacy mangling's escapes: $u7b$ (a code
// point) or $LT$, $GT$, $RF$, $BP$, $SP$, $LP$, $RP$, $C$.
var legacyEscape = regexp.MustCompile(`\$(u[0-9a-f]{1,6}|LT|GT|RF|BP|SP|LP|RP|C)\$`)

var legacyNames = map[string]string{"LT": "<", "GT": ">", "RF": "&", "BP": "*", "SP": "@", "LP": "(", "RP": ")", "C": ","}

// frameName turns what LLDB shows for a legacy-mangled Rust symbol into
// the name a Rust programmer writes: "loop_rust::main::h038dc1c872b49e46"
// → "loop_rust::main", "_$u7b$$u7b$closure$u7d$$u7d$" → "{{closure}}".
// C and C++ names carry neither form and come back unchanged.
// docs/adapter-quirks.md: lldb-9.
func frameName(name string) string {
	name = rustHash.ReplaceAllString(name, "")
	if !strings.Contains(name, "$") {
		return name
	}
	// A path segment that starts with an escape is prefixed with "_", and
	// ".." stands for "::" inside the escaped parts.
	name = strings.ReplaceAll(name, "::_$", "::$")
	if strings.HasPrefix(name, "_$") {
		name = name[1:]
	}
	name = strings.ReplaceAll(name, "..", "::")
	return legacyEscape.ReplaceAllStringFunc(name, func(esc string) string {
		code := esc[1 : len(esc)-1]
		if s, ok := legacyNames[code]; ok {
			return s
		}
		r, err := strconv.ParseUint(code[1:], 16, 32)
		if err != nil {
			return esc
		}
		return string(rune(r))
	})
}

// internalFrame marks frames an agent did not write and rarely wants:
// Rust's standard library (the panic machinery, the ~17 frames of
// std::rt::lang_start under main), whose source paths are the toolchain's
// build paths (/rustc/<commit>/library/…, or the rust-src component when
// mapped there); libc's start-up frames under main, whose paths are
// relative to glibc's build tree (sysdeps/…, csu/…); and symbols without
// line information, which lldb-dap names "module`symbol".
// docs/adapter-quirks.md: lldb-11.
func internalFrame(name, path string) bool {
	switch {
	case strings.HasPrefix(path, "/rustc/"), strings.Contains(path, "/lib/rustlib/src/rust/library/"):
		return true
	case path != "" && !filepath.IsAbs(path), strings.Contains(path, "`"):
		return true
	}
	return startupFrames[name]
}

// startupFrames run before main (glibc's).
var startupFrames = map[string]bool{
	"_start": true, "__libc_start_main": true, "__libc_start_call_main": true, "__libc_start_main_impl": true,
}

// discardStalePlan is the lldb command that drops every user thread plan
// of the selected thread above the base plan; it fails harmlessly ("no
// such plan") when there is none.
const discardStalePlan = "`thread plan discard 1"

// discardStalePlans removes a step that a breakpoint interrupted from the
// thread's plan stack before a continue. LLDB keeps such a step-over; the
// continue would complete it and stop in the caller with reason "step"
// instead of running to the next breakpoint (docs/adapter-quirks.md,
// lldb-2). The command runs through evaluate (context repl, the backtick marks
// an lldb command) in the thread's top frame, which selects that thread.
// Failures are ignored: there is usually no stale plan, and the continue
// must go ahead either way.
func discardStalePlans(ctx context.Context, call adapter.CallFunc, threadID int) error {
	var stack struct {
		StackFrames []struct {
			ID int `json:"id"`
		} `json:"stackFrames"`
	}
	if err := call(ctx, "stackTrace", map[string]any{"threadId": threadID, "startFrame": 0, "levels": 1}, &stack); err != nil || len(stack.StackFrames) == 0 {
		return nil
	}
	_ = call(ctx, "evaluate", map[string]any{"expression": discardStalePlan, "context": "repl", "frameId": stack.StackFrames[0].ID}, nil)
	return nil
}

// locationCount is the count in LLDB's `breakpoint list ID` header line,
// "2: file = '…', line = 17, exact_match = 0, locations = 2, resolved = 2".
var locationCount = regexp.MustCompile(`\blocations = (\d+)`)

// breakpointLocations asks LLDB how many places its breakpoint id resolved
// to: lldb-dap's setBreakpoints answer has one entry per line whatever the
// count. The command runs through evaluate in context repl (the backtick
// marks an lldb command); 0 when the answer does not say.
// docs/adapter-quirks.md: lldb-16.
func breakpointLocations(ctx context.Context, call adapter.CallFunc, id int) int {
	var body struct {
		Result string `json:"result"`
	}
	if err := call(ctx, "evaluate", map[string]any{"expression": "`breakpoint list " + strconv.Itoa(id), "context": "repl"}, &body); err != nil {
		return 0
	}
	m := locationCount.FindStringSubmatch(body.Result)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// sizeOnly is the whole summary LLDB's formatters give a std::vector, a
// std::list, a Rust Vec or VecDeque: the element count and nothing of the
// elements.
var sizeOnly = regexp.MustCompile(`^size=(\d+)$`)

// elementCount reads the count from a size-only summary.
// docs/adapter-quirks.md: lldb-17.
func elementCount(value string) (int, bool) {
	m := sizeOnly.FindStringSubmatch(value)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// unknownReturn is lldb's refusal to call a function whose return type the
// program's debug information lacks (a libc function: `strlen`), and the
// function's name.
var unknownReturn = regexp.MustCompile(`'([A-Za-z_][A-Za-z0-9_]*)' has unknown return type`)

// evaluationHint turns lldb's "cast the call to its declared return type"
// into the expression to try: the call cast to long, which fits the
// integer and pointer results such functions have.
func evaluationHint(expression, errorText string) string {
	m := unknownReturn.FindStringSubmatch(errorText)
	if m == nil {
		return ""
	}
	call := regexp.MustCompile(`\b` + regexp.QuoteMeta(m[1]) + `\s*\(`)
	loc := call.FindStringIndex(expression)
	if loc == nil {
		return fmt.Sprintf("lldb does not know what %s returns: cast the call to its return type, e.g. (long)%s(…)", m[1], m[1])
	}
	return fmt.Sprintf("lldb does not know what %s returns: cast the call to its return type, e.g. %s(long)%s", m[1], expression[:loc[0]], expression[loc[0]:])
}
