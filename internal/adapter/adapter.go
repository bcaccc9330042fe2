// Package adapter defines the boundary between the session engine and each
// language's debug adapter: how one is found, started or attached to, how
// our launch and attach arguments become the adapter's, and the quirks the
// engine must know about. Each language lives in a sub-package that
// registers itself here.
package adapter

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// Language describes a language id an adapter serves.
type Language struct {
	// ID is the canonical language id ("python", "go", …).
	ID string
	// Aliases are other ids accepted for it ("py", …).
	Aliases []string
	// DisplayName is the human name ("Python").
	DisplayName string
	// Description says which adapter is used.
	Description string
	// RequiresExecutable is true when a runtime or interpreter runs the program.
	RequiresExecutable bool
	// TestOnly marks a language for tests (mock): it works when named, but
	// listings offered to agents leave it out.
	TestOnly bool
	// DefaultExecutable is the runtime looked for by default ("python3").
	DefaultExecutable string
	// PlainTypes are the types whose values' text already says them
	// (Python's 3 is an int, 'a' a str). Stop snapshots leave these type
	// names out of their locals, since every stop carries the locals;
	// get_local_variables still names every type.
	PlainTypes []string
	// VSCodeType is the VS Code debugger type whose UI fits the language
	// ("debugpy", "node", …): expose_session's launch configuration names
	// it, and with debugServer set VS Code speaks DAP to the mirror
	// whatever the type.
	VSCodeType string
	// TestRunner names the runner debug_test drives ("pytest"), for an
	// adapter that implements the TestRunner interface; empty where it
	// runs none for this language (C and C++ have no standard one).
	TestRunner string
}

// ModeStatus says whether launch or attach works.
type ModeStatus struct {
	Supported bool   `json:"supported"`
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

// Availability is the result of looking for an adapter on this machine.
type Availability struct {
	Installed bool
	// Version of the adapter (e.g. debugpy's), when known.
	Version string
	// Path of the adapter or of the runtime that hosts it.
	Path string
	// Reason explains why it is not installed.
	Reason string
	// InstallHint is the exact command that installs what is missing.
	InstallHint string
	Launch      ModeStatus
	Attach      ModeStatus
}

// LaunchConfig is what the agent asked to launch, already validated:
// paths are absolute.
type LaunchConfig struct {
	Program string
	Args    []string
	// Cwd defaults to the program's directory when empty.
	Cwd string
	// Env is added to the server's environment.
	Env         map[string]string
	StopOnEntry bool
	// ExecutablePath is the interpreter or runtime the user chose, if any.
	ExecutablePath string
	// ExecutableReason, when set, says why ExecutablePath was chosen by
	// someone other than the user (a TestPlan's "project venv"), for the
	// Connection's Runtime line.
	ExecutableReason string
	// Extra holds the agent's dapLaunchArgs, passed through to the adapter's
	// launch request (they override what the adapter would send).
	Extra map[string]any
	// Logger receives the adapter's own diagnostics (its stderr, say).
	Logger *slog.Logger
	// DryRun asks for the Connection's Request, Arguments and Command
	// without starting anything (Transport stays nil).
	DryRun bool
	// BreakOnExceptions is the agent's mode ("uncaught", "all", "none";
	// empty means uncaught). The engine maps it onto the adapter's
	// exception filters itself; an adapter reads it only for stops it must
	// arrange on its own (lldb-dap offers no filter for Rust panics).
	BreakOnExceptions string
	// PathMappings are as in AttachConfig.
	PathMappings []PathMapping
	// StdinFile, when set, is a regular file the program reads as its
	// standard input; without it the program reads end of file at once.
	StdinFile string
}

// AttachConfig is what the agent asked to attach to.
type AttachConfig struct {
	Host      string
	Port      int
	ProcessID int
	// SourcePaths maps remote source roots, where the adapter supports it.
	SourcePaths    []string
	StopOnEntry    bool
	ExecutablePath string
	Extra          map[string]any
	Logger         *slog.Logger
	// BreakOnExceptions is as in LaunchConfig.
	BreakOnExceptions string
	// PathMappings pair the agent's source roots with the program's, for
	// adapters that map paths themselves (Connection.MapsPaths).
	PathMappings []PathMapping
}

// PathMapping pairs a source root on the agent's machine with the root the
// program sees its files under (a container's /app).
type PathMapping struct {
	LocalRoot  string `json:"localRoot" jsonschema:"your copy's root"`
	RemoteRoot string `json:"remoteRoot" jsonschema:"the root as the program sees it"`
}

// Builtin is implemented by adapters built into this binary: DAP servers
// written in Go (the Node and JVM adapters) rather than programs of their
// own. `mcp-debugger adapter LANG` serves one on stdin/stdout, so that any
// DAP client (VS Code, nvim-dap) can use it too.
type Builtin interface {
	// ServeDAP serves one DAP client on conn, launching or attaching as its
	// requests ask, until the client disconnects or ctx ends; everything it
	// started has ended by the time it returns.
	ServeDAP(ctx context.Context, conn io.ReadWriteCloser, log *slog.Logger) error
}

// TestRunner is implemented by adapters that can run their language's test
// runner under the debugger (the debug_test tool).
type TestRunner interface {
	// TestPlan says how to run the tests in req.Path (one named test when
	// req.Name is set) so that a failure stops the program; an error says
	// what is missing (the runner itself, say) and how to install it.
	TestPlan(ctx context.Context, req TestRequest) (*TestPlan, error)
}

// ProgramNamer is implemented by adapters whose programs may be named
// rather than given as a file (a JVM main class, "com.example.App").
type ProgramNamer interface {
	// NamesProgram reports whether program, which is no file, names a
	// program the adapter can launch.
	NamesProgram(program string) bool
}

// LaunchArgsNamer is implemented by adapters that launch a program the
// launch arguments name, with no file to give (debugpy's "module", a JVM's
// "mainClass").
type LaunchArgsNamer interface {
	// ProgramInLaunchArgs names the program the launch arguments give, as
	// a message may show it ("-m unittest", "com.example.App"); "" when
	// they give none.
	ProgramInLaunchArgs(args map[string]any) string
}

// FunctionNameAdvisor is implemented by adapters whose debugger may bind
// a function breakpoint's name to another function than the one the agent
// likely means (a bare name).
type FunctionNameAdvisor interface {
	// FunctionNameWarning says how name may go wrong and what to write
	// instead; "" when nothing is to be said.
	FunctionNameWarning(name string) string
}

// LogpointAdvisor is implemented by adapters whose logpoints the agent
// should be warned about when it sets one.
type LogpointAdvisor interface {
	// LogpointWarning says how a logpoint behaves with this adapter.
	LogpointWarning() string
}

// TestRequest is what debug_test asks for. Path is absolute.
type TestRequest struct {
	Path           string
	Name           string
	ExecutablePath string
	// Runner is the runner the agent chose ("unittest"); empty lets the
	// adapter pick the one the project uses. A plan of another runner is
	// refused by the engine.
	Runner string
	// Cwd, when set, is the tests' working directory (absolute), over the
	// plan's; Env is added over the plan's.
	Cwd string
	Env map[string]string
	// StdinFile, when set, is a regular file the tests read as their
	// standard input (LaunchConfig.StdinFile).
	StdinFile string
}

// TestPlan is a launch that runs tests, and how to read a failure.
type TestPlan struct {
	// Runner names the test runner ("pytest", "go test").
	Runner string
	// Program, Args, Cwd and Extra are launched as start_debugging would
	// (Extra as dapLaunchArgs).
	Program string
	Args    []string
	Cwd     string
	Env     map[string]string
	Extra   map[string]any
	// ExecutablePath is the runtime to run them with, when the plan chose
	// one (an interpreter that has the test runner), and ExecutableReason
	// why (LaunchConfig.ExecutableReason).
	ExecutablePath   string
	ExecutableReason string
	// Runtime, when set, is the test answer's runtime line, for a plan
	// that knows it better than the launch does (which package's tests
	// cargo built: a test binary's path cannot say).
	Runtime string
	// BreakOnExceptions is the engine's mode for the run.
	BreakOnExceptions string
	// FunctionBreakpoints catch failures that are not exceptions (Go's
	// t.Errorf calls testing.(*common).Fail).
	FunctionBreakpoints []string
	// TestNameExpression evaluates, at the failure, to the running test's
	// name; empty means the test frame's function name.
	TestNameExpression string
	// TestFrame marks the frame of the test itself among the failure's
	// stack, which the snapshot then shows; nil means the stop's own.
	TestFrame func(name, path string) bool
	// FailureOutput matches the output line carrying the failure message,
	// for runners that print it rather than raise it.
	FailureOutput *regexp.Regexp
	// FailureSummary reads, from the runner's whole output, the failing
	// test's name and the failure's message, for a run that failed
	// without stopping (a failure that raised nothing); nil, or empty
	// strings, when the runner printed neither.
	FailureSummary func(output string) (name, message string)
	// HiddenLocal marks the runner's own locals in the test's frames,
	// which the failure's answer leaves out; nil hides none.
	HiddenLocal func(name string) bool
	// NothingRan says, from the runner's whole output and exit code, that
	// no test ran (the name matched none): such a run passed nothing.
	// nil when the runner cannot tell.
	NothingRan func(output string, exitCode int) bool
	// TestNames lists the tests the runner finds, for the answer that no
	// test matched; nil when it cannot list them.
	TestNames func(ctx context.Context) ([]string, error)
}

// Connection is a started debug adapter, ready for initialize.
type Connection struct {
	// Transport carries DAP messages.
	Transport io.ReadWriteCloser
	// Request is "launch" or "attach", and Arguments its arguments.
	Request   string
	Arguments map[string]any
	// AdapterID is sent in initialize.
	AdapterID string
	// LaunchTimeout bounds the handshake; zero means the engine's default.
	// Adapters that build the program first ask for more.
	LaunchTimeout time.Duration
	// Quirks tells the engine how this adapter departs from the protocol.
	Quirks Quirks
	// AfterRead, when set, runs after every read from Transport (see
	// dap.Options.AfterRead).
	AfterRead func()
	// Reverse answers reverse requests other than runInTerminal (which the
	// session serves), such as startDebugging; nil refuses them.
	Reverse dap.ReverseHandler
	// Event, when set, receives the events named in Events that the
	// session itself has no use for (debugpy's debugpyAttach), each on a
	// goroutine of its own; ctx is bounded and ends with the connection.
	Event  func(ctx context.Context, ev dap.Event)
	Events []string
	// Command is the adapter's command line, for logs and dry runs.
	Command []string
	// Runtime says, in one line, which interpreter, runtime or class path
	// runs the program and why it was chosen ("python: .venv/bin/python
	// (project venv)"); the agent sees it in the start and test answers,
	// so a program run by the wrong environment is noticed at once.
	Runtime string
	// Output lists streams of program output that do not come as DAP
	// output events (rdbg leaves the program's stdout and stderr on its
	// own). The session records each, line by line, under its category
	// ("stdout", "stderr") until the stream ends; the adapter ends them
	// (closing its pipes, killing its process) in Cleanup at the latest.
	Output []OutputStream
	// ExitCode, when set, reports the program's exit code once the
	// connection has ended, for adapters that send no exited event (rdbg
	// just closes the socket: the code is its process's). ok is false
	// when it cannot be known. It may wait briefly, bounded, for the
	// process to finish exiting.
	ExitCode func() (code int, ok bool)
	// DebuggeePid, when set, names the program's process once the launch
	// or attach has been answered, for adapters that send no DAP process
	// event with its systemProcessId; 0 when it cannot be found. The
	// session watches that process to notice its end.
	DebuggeePid func() int
	// Cleanup releases what the adapter started (processes, temp files).
	// It is called once, after the DAP connection has ended or been closed.
	Cleanup func()
	// ExplainFailure, when set, turns the adapter's refusal of the launch
	// or attach (its error text) into a message and a next step for the
	// agent, where the adapter's own words would not say what to do; ok
	// false keeps the text.
	ExplainFailure func(text string) (msg, hint string, ok bool)
	// MapsPaths: the adapter runs on the agent's machine and speaks the
	// agent's paths, applying the path mappings itself (the built-in JVM
	// adapter finds sources by class name under local roots), so the
	// session must not translate its messages.
	MapsPaths bool
}

// OutputStream is program output read from a pipe rather than from
// output events.
type OutputStream struct {
	// Category is the output category it is recorded under ("stdout").
	Category string
	Reader   io.Reader
}

// Quirks are the departures from plain DAP that the engine accounts for.
// The zero value means "behaves as the specification says".
type Quirks struct {
	// EvaluateContext is the evaluate context that yields a plain value
	// ("repl" when empty).
	// docs/adapter-quirks.md: lldb-4, debugpy-3.
	EvaluateContext string
	// NoTerminatedEvent: the adapter ends by closing the connection.
	// docs/adapter-quirks.md: rdbg-6.
	NoTerminatedEvent bool
	// Unsupported lists requests that must never be sent (some adapters drop
	// the connection on an unknown request); tools answer "not supported".
	// docs/adapter-quirks.md: rdbg-4, rdbg-5.
	Unsupported []string
	// LogpointExpression, when set, rewrites an expression a tracepoint
	// collects for the {…} of a logpoint message, so that the value reads
	// as evaluate shows it (debugpy formats {x} with str(), which loses a
	// string's quotes: '1' and 1 would read alike).
	// docs/adapter-quirks.md: debugpy-6, node-17.
	LogpointExpression func(expression string) string
	// UnsupportedWhy, when set, names the adapter in that answer ("rdbg
	// 1.6.3", the version found), so the agent knows it is the adapter's
	// limit, not its call's.
	// docs/adapter-quirks.md: rdbg-12.
	UnsupportedWhy string
	// FunctionBreakpointName, when set, turns the name an agent gave a
	// function breakpoint into the one the adapter resolves (Delve wants
	// "main.weigh" where an agent writes "weigh"). The session keeps the
	// agent's name; only the request carries this one.
	// docs/adapter-quirks.md: delve-10.
	FunctionBreakpointName func(name string) string
	// IsNoise, when set, reports output events that are the adapter's own
	// chatter (banners, help lines), kept out of the program's output.
	// docs/adapter-quirks.md: delve-7, lldb-5.
	IsNoise func(category, text string) bool
	// FrameName, when set, rewrites the name of every stack frame the
	// adapter reports, wherever the session shows one (stack traces, stop
	// locations): lldb-dap leaves Rust's hash suffixes and legacy symbol
	// escapes in names ("main::h038dc…", "$u7b$$u7b$closure$u7d$$u7d$").
	// docs/adapter-quirks.md: lldb-9, debugpy-5.
	FrameName func(name string) string
	// PauseAfterAttach: the adapter's attach request has no stopOnEntry
	// (debugpy's), so an attach that should leave the program paused sends
	// a pause once configured.
	// docs/adapter-quirks.md: debugpy-7.
	PauseAfterAttach bool
	// ExceptionID, when set, cleans the exception id of an exceptionInfo
	// answer (debugpy appends a note about where execution is paused).
	// docs/adapter-quirks.md: debugpy-5.
	ExceptionID func(id string) string
	// InternalFrame, when set, marks further frames as the runtime's own
	// (besides those without source or hinted "subtle"/"label"): stack
	// traces leave them out unless the agent asks for internals, and an
	// exception stop is shown at the first frame that is not one. name is
	// the frame's name after FrameName; path is its source path, empty
	// when it has none. lldb-dap gives
	// Rust's std frames (the panic machinery, the ~17 frames of
	// std::rt::lang_start under main) real /rustc/… paths.
	// docs/adapter-quirks.md: lldb-11, jvm-2.
	InternalFrame func(name, path string) bool
	// BeforeContinue, when set, runs before a continue request that
	// follows a step which stopped for another reason than its own end (a
	// breakpoint hit mid-step, say), with
	// the thread about to be continued and a way to send DAP requests on
	// the session's connection. An error fails the continue (the program
	// stays paused). lldb-dap needs it: a step that a breakpoint
	// interrupted stays on the thread's plan stack, and the next continue
	// would finish that step in the caller instead of running to the next
	// breakpoint (docs/adapter-quirks.md, lldb-2); the hook discards it.
	BeforeContinue func(ctx context.Context, call CallFunc, threadID int) error
	// StopReason, when set, corrects the reason and description of a
	// stopped event from the adapter's own. lldb-dap reports a pause that
	// lands while the program sits in a system call as reason "exception",
	// description "signal SIGSTOP" (an agent that asked for a pause must
	// see "pause", not a crash), and a Rust panic, which it can only catch
	// with a breakpoint of the adapter's own, as that breakpoint.
	// docs/adapter-quirks.md: lldb-13, lldb-14, lldb-15.
	StopReason func(reason, description string) (string, string)
	// BreakpointLocations, when set, tells how many places in the program
	// the adapter's breakpoint adapterID resolved to, 0 when it cannot
	// tell. DAP has no field for it; lldb-dap reports one breakpoint for a
	// line that compiles to several places (a Rust `for` line).
	// docs/adapter-quirks.md: lldb-16.
	BreakpointLocations func(ctx context.Context, call CallFunc, adapterID int) int
	// ElementCount, when set, recognises a value that gives only a
	// container's element count and returns that count: lldb-dap shows a
	// std::vector or a Rust Vec as "size=2". The session then reads the
	// first elements and shows them after the count.
	// docs/adapter-quirks.md: lldb-17.
	ElementCount func(value string) (int, bool)
	// TotalFramesEstimated: a stackTrace answer that does not reach the
	// bottom of the stack gives a guess for totalFrames, not the count
	// (Delve adds its stackTraceDepth), so a frame's depth from the bottom
	// is unknown unless the whole stack was fetched; the session then
	// fetches the rest of a deep stack to count it.
	// docs/adapter-quirks.md: delve-11.
	TotalFramesEstimated bool
	// LimitEvaluation, when set, prepares an evaluate the agent asked for
	// so that the adapter answers once limit has passed, stopping the
	// evaluation where it can (an endless loop in an expression would
	// otherwise hold the paused thread, and with it every later request,
	// for good). It returns arguments to add to the evaluate request. The
	// session checks that the thread is paused again before it says so.
	// docs/adapter-quirks.md: debugpy-4, jvm-4.
	LimitEvaluation func(ctx context.Context, call CallFunc, frameID int, limit time.Duration) (map[string]any, error)
	// EvaluationHint, when set, is the adapter's advice for an evaluation
	// it refused ("" when it knows none, and the session's general advice
	// stands): what to write instead, from the adapter's own words.
	// docs/adapter-quirks.md: lldb-34.
	EvaluationHint func(expression, errorText string) string
	// ReadPastInput, when set, reports whether an exception is the
	// language's way of saying the program read past the end of its
	// standard input (Python's EOFError at input()): where the launch gave
	// it no input, the stop says how to give some.
	// docs/adapter-quirks.md: debugpy-19, jvm-12.
	ReadPastInput func(exceptionID, message string) bool
	// WaitingOn, when set, tells from a paused thread's stack what the
	// thread waits on (a lock, a channel, sleep, I/O), for the view of
	// every thread at once; ok is false when the stack shows no wait the
	// adapter knows (a thread that was running).
	// docs/adapter-quirks.md: delve-27, debugpy-18, lldb-33, jvm-11.
	WaitingOn func(t ThreadStack) (w Wait, ok bool)
	// LibraryFrame, when set, marks frames that have source but are the
	// runtime's or the standard library's (Go's, under GOROOT): the view
	// of every thread at once shows the program's frames only, while
	// get_stack_trace still lists these.
	// docs/adapter-quirks.md: delve-27.
	LibraryFrame func(name, path string) bool
	// RuntimeDeadlock, when set, reports whether an exception stop's text
	// is the runtime's own verdict that every thread is blocked (Go's
	// "all goroutines are asleep - deadlock!"): the answer then says
	// which threads wait on what, without another call.
	// docs/adapter-quirks.md: delve-28.
	RuntimeDeadlock func(text string) bool
	// PauseLimit, when set, says which threads the adapter cannot pause,
	// for the answer to a pause that did not stop the program (debugpy
	// pauses a thread only when it next runs Python code).
	// docs/adapter-quirks.md: debugpy-18.
	PauseLimit string
}

// EvaluateTimeoutArgument is the evaluate argument, in milliseconds, by
// which the built-in adapters (Node, Java) bound an evaluation; DAP has
// none.
const EvaluateTimeoutArgument = "timeout"

// LimitByArgument is LimitEvaluation for an adapter that takes
// EvaluateTimeoutArgument.
func LimitByArgument(_ context.Context, _ CallFunc, _ int, limit time.Duration) (map[string]any, error) {
	return map[string]any{EvaluateTimeoutArgument: limit.Milliseconds()}, nil
}

// CallFunc sends one DAP request and decodes its response body into body
// (which may be nil), bounded by ctx.
type CallFunc func(ctx context.Context, command string, args, body any) error

// Frame returns the name to show for a frame the adapter called name.
func (q Quirks) Frame(name string) string {
	if q.FrameName == nil {
		return name
	}
	return q.FrameName(name)
}

// Internal reports whether the adapter marks a frame as runtime internals
// through InternalFrame.
func (q Quirks) Internal(name, path string) bool {
	return q.InternalFrame != nil && q.InternalFrame(name, path)
}

// Library reports whether a frame is the runtime's or a library's by
// LibraryFrame.
func (q Quirks) Library(name, path string) bool {
	return q.LibraryFrame != nil && q.LibraryFrame(name, path)
}

// FunctionName is the name to send for a function breakpoint.
func (q Quirks) FunctionName(name string) string {
	if q.FunctionBreakpointName == nil {
		return name
	}
	return q.FunctionBreakpointName(name)
}

// Supports reports whether command may be sent to the adapter.
func (q Quirks) Supports(command string) bool {
	for _, u := range q.Unsupported {
		if u == command {
			return false
		}
	}
	return true
}

// Adapter is one language's debug adapter.
type Adapter interface {
	// Language returns the language this adapter serves.
	Language() Language
	// Check looks for the adapter on this machine. It must be cheap enough
	// to call from list_supported_languages (results may be cached).
	Check(ctx context.Context) Availability
	// Launch starts the adapter for a program to be launched.
	Launch(ctx context.Context, cfg LaunchConfig) (*Connection, error)
	// Attach starts or connects to the adapter for a running program.
	Attach(ctx context.Context, cfg AttachConfig) (*Connection, error)
}

// UnavailableError says that an adapter cannot be used here, and how to fix it.
type UnavailableError struct {
	Language    string
	Reason      string
	InstallHint string
}

func (e *UnavailableError) Error() string {
	msg := fmt.Sprintf("%s debugging is not available: %s", e.Language, e.Reason)
	if e.InstallHint != "" {
		msg += "; install with: " + e.InstallHint
	}
	return msg
}

// BuildError says that the program could not be built before debugging
// (an adapter that compiles sources itself); Output is the compiler's own
// text, which the agent gets verbatim.
type BuildError struct {
	// Command is the build command line, for the message.
	Command string
	Output  string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("build failed (%s):\n%s", e.Command, e.Output)
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Adapter{}
	aliases    = map[string]string{}
)

// Register adds an adapter; sub-packages call it from init.
func Register(a Adapter) {
	registryMu.Lock()
	defer registryMu.Unlock()
	lang := a.Language()
	if _, dup := registry[lang.ID]; dup {
		panic("adapter: duplicate language " + lang.ID)
	}
	registry[lang.ID] = a
	for _, al := range lang.Aliases {
		aliases[al] = lang.ID
	}
}

// Lookup finds the adapter for a language id or alias (case-insensitive).
func Lookup(language string) (Adapter, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	id := strings.ToLower(strings.TrimSpace(language))
	if canon, ok := aliases[id]; ok {
		id = canon
	}
	a, ok := registry[id]
	return a, ok
}

// All returns every registered adapter, sorted by language id.
func All() []Adapter {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]Adapter, 0, len(registry))
	for _, a := range registry {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Language().ID < out[j].Language().ID })
	return out
}

// IDs returns every registered language id, sorted.
func IDs() []string {
	var ids []string
	for _, a := range All() {
		ids = append(ids, a.Language().ID)
	}
	return ids
}

// OfferedIDs returns the ids of the languages offered to agents (all but
// the test-only ones), sorted.
func OfferedIDs() []string {
	var ids []string
	for _, a := range All() {
		if lang := a.Language(); !lang.TestOnly {
			ids = append(ids, lang.ID)
		}
	}
	return ids
}

// GiveStdin makes a LaunchConfig's StdinFile the standard input of cmd,
// the process an adapter starts with the program; for "" cmd reads
// /dev/null. The caller calls done, which closes our copy, once cmd has
// started (or failed to).
func GiveStdin(cmd *exec.Cmd, path string) (done func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the program's standard input: %w", err)
	}
	cmd.Stdin = f
	return func() { f.Close() }, nil
}
