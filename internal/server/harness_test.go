package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/mock"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// harness is an MCP client connected in memory to a fresh server, as an
// agent would be.
type harness struct {
	t   testing.TB
	ctx context.Context
	srv *Server
	cs  *mcp.ClientSession
	// progress receives the progress notifications the server sends.
	progress chan *mcp.ProgressNotificationParams
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	// Every tool, so that a test of any tool runs whatever the default
	// profile offers.
	return newHarnessOffering(t, ProfileAll)
}

// newHarnessOffering is newHarness with the server offering profile's tools.
func newHarnessOffering(t testing.TB, profile Profile) *harness {
	t.Helper()
	return newHarnessWith(t, Options{Tools: profile, TestLanguages: true})
}

// newHarnessWith is newHarness with a server made with opts (Cwd: the
// repository's root).
func newHarnessWith(t testing.TB, opts Options) *harness {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	opts.Cwd = repoRoot(t)
	if os.Getenv("MCP_DEBUGGER_TEST_LOG") != "" {
		// Traces every DAP message, for debugging a failing test.
		opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	srv := New(opts)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	progress := make(chan *mcp.ProgressNotificationParams, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params:
			default:
			}
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
		srv.Close()
	})
	return &harness{t: t, ctx: ctx, srv: srv, cs: cs, progress: progress}
}

func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func mockProgram(t testing.TB, name string) string {
	p := filepath.Join(repoRoot(t), "testdata", "mock", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// result is a decoded tool result.
type result map[string]any

// call invokes a tool and decodes its JSON text, checking that the text and
// structuredContent agree.
func (h *harness) call(tool string, args map[string]any) (result, bool) {
	h.t.Helper()
	out, isErr, _ := h.callSize(tool, args)
	return out, isErr
}

// callSize is call, and the answer's size in bytes as the client receives
// it.
func (h *harness) callSize(tool string, args map[string]any) (result, bool, int) {
	h.t.Helper()
	res, err := h.cs.CallTool(h.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		h.t.Fatalf("%s: %v", tool, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var out result
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		h.t.Fatalf("%s: result text is not JSON: %v\n%s", tool, err, text)
	}
	structured, _ := json.Marshal(res.StructuredContent)
	var sc result
	if err := json.Unmarshal(structured, &sc); err != nil || len(sc) != len(out) {
		h.t.Fatalf("%s: structuredContent %s differs from text %s", tool, structured, text)
	}
	if success, _ := out["success"].(bool); success == res.IsError {
		h.t.Fatalf("%s: success=%v but isError=%v: %s", tool, success, res.IsError, text)
	}
	// What a client that validates answers (the TypeScript SDK's does)
	// would do with every answer of every test.
	// (A tool a test registered on its own server has no schema here.)
	if rs := h.outputSchema(tool); rs != nil {
		if err := rs.Validate(map[string]any(sc)); err != nil {
			h.t.Fatalf("%s: the answer does not match the tool's output schema: %v\n%s", tool, err, text)
		}
	}
	return out, res.IsError, len(text)
}

// outputSchemas are the tools' output schemas as a client receives them,
// listed once per test binary.
var outputSchemas struct {
	once   sync.Once
	byTool map[string]*jsonschema.Resolved
	err    error
}

// outputSchema is tool's output schema, resolved for validation; nil for a
// tool the server does not have (one a test added to its own server).
func (h *harness) outputSchema(tool string) *jsonschema.Resolved {
	h.t.Helper()
	outputSchemas.once.Do(func() {
		outputSchemas.byTool = map[string]*jsonschema.Resolved{}
		list, err := h.cs.ListTools(h.ctx, nil)
		if err != nil {
			outputSchemas.err = err
			return
		}
		for _, tool := range list.Tools {
			raw, _ := json.Marshal(tool.OutputSchema)
			var schema jsonschema.Schema
			if err := json.Unmarshal(raw, &schema); err != nil {
				outputSchemas.err = fmt.Errorf("%s: %w", tool.Name, err)
				return
			}
			if outputSchemas.byTool[tool.Name], err = schema.Resolve(nil); err != nil {
				outputSchemas.err = fmt.Errorf("%s: %w", tool.Name, err)
				return
			}
		}
	})
	if outputSchemas.err != nil {
		h.t.Fatalf("output schemas: %v", outputSchemas.err)
	}
	return outputSchemas.byTool[tool]
}

// ok calls a tool that must succeed.
func (h *harness) ok(tool string, args map[string]any) result {
	h.t.Helper()
	out, isErr := h.call(tool, args)
	if isErr {
		h.t.Fatalf("%s(%v) failed: %v (hint: %v)", tool, args, out["error"], out["hint"])
	}
	return out
}

// fail calls a tool that must fail, and checks that the failure explains
// itself and says what to do.
func (h *harness) fail(tool string, args map[string]any, wantInError string) result {
	h.t.Helper()
	out, isErr := h.call(tool, args)
	if !isErr {
		h.t.Fatalf("%s(%v) succeeded, want an error containing %q: %v", tool, args, wantInError, out)
	}
	msg, _ := out["error"].(string)
	if !strings.Contains(msg, wantInError) {
		h.t.Fatalf("%s error = %q, want it to contain %q", tool, msg, wantInError)
	}
	if hint, _ := out["hint"].(string); hint == "" {
		h.t.Fatalf("%s error %q has no hint", tool, msg)
	}
	return out
}

// session creates a mock session and returns its id.
func (h *harness) session() string {
	h.t.Helper()
	return h.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
}

func (r result) str(key string) string {
	v, _ := r[key].(string)
	return v
}

func (r result) num(key string) int {
	v, _ := r[key].(float64)
	return int(v)
}

func (r result) obj(key string) result {
	v, _ := r[key].(map[string]any)
	return result(v)
}

// stopFile is the absolute path of the file a snapshot stopped in:
// answers write a file under the server's working directory (repoRoot in
// these tests) relative to it.
func (r result) stopFile(t testing.TB) string {
	f := r.obj("location").str("file")
	if f != "" && !filepath.IsAbs(f) {
		return filepath.Join(filepath.Clean(repoRoot(t)), f)
	}
	return f
}

func (r result) list(key string) []result {
	raw, _ := r[key].([]any)
	out := make([]result, 0, len(raw))
	for _, item := range raw {
		m, _ := item.(map[string]any)
		out = append(out, result(m))
	}
	return out
}

// locals maps a snapshot's (or a variables list's) names to values.
func (r result) vars(key string) map[string]string {
	out := map[string]string{}
	for _, v := range r.list(key) {
		out[v.str("name")] = v.str("value")
	}
	return out
}

// localsAfter is what an agent knows of a snapshot's locals: the ones it
// shows, and those it names as unchanged with their values from the
// earlier answers in the same frame (earlier, oldest first), where they
// were shown. A name listed unchanged that no earlier answer showed is
// missing from the result.
func (r result) localsAfter(earlier ...result) map[string]string {
	known := map[string]string{}
	for _, e := range earlier {
		for name, value := range e.vars("locals") {
			known[name] = value
		}
	}
	out := r.vars("locals")
	unchanged, _ := r["unchanged"].([]any)
	for _, n := range unchanged {
		name, _ := n.(string)
		if value, ok := known[name]; ok {
			out[name] = value
		}
	}
	return out
}

// outputText is a snapshot's output text, or get_output's entries joined.
func (r result) outputText(key string) string {
	if text, ok := r[key].(string); ok {
		return text
	}
	var b strings.Builder
	for _, e := range r.list(key) {
		b.WriteString(e.str("output"))
	}
	return b.String()
}

// wantStop checks a snapshot's state, reason and line.
func wantStop(t testing.TB, snap result, reason string, line int) {
	t.Helper()
	if snap.str("state") != "paused" || snap.str("stopReason") != reason || snap.obj("location").num("line") != line {
		t.Fatalf("want paused (%s) at line %d, got state=%s reason=%s location=%v message=%q",
			reason, line, snap.str("state"), snap.str("stopReason"), snap["location"], snap.str("message"))
	}
}

// sessionFor creates a session for a real adapter, skipping the test (or
// failing it under CI) when that adapter is missing.
func (h *harness) sessionFor(language string) string {
	h.t.Helper()
	testenv.RequireAdapter(h.t, language)
	return h.ok("create_debug_session", map[string]any{"language": language}).str("sessionId")
}

// stopAt sets a breakpoint on source's line, starts script and checks that
// the program stopped there; it returns that stop's snapshot.
func (h *harness) stopAt(id, source string, line int, script string) result {
	h.t.Helper()
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": source, "line": line})
	snap := h.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": script})
	wantStop(h.t, snap, "breakpoint", line)
	return snap
}

// waitForOutput waits, on get_output's wait, until the program has
// printed text.
func (h *harness) waitForOutput(id, text string) {
	h.t.Helper()
	var seen strings.Builder
	since := 0
	for !strings.Contains(seen.String(), text) {
		page := h.ok("get_output", map[string]any{"sessionId": id, "since": since, "wait": 30000})
		if len(page.list("entries")) == 0 {
			h.t.Fatalf("no output %q within 30 s; got %q", text, seen.String())
		}
		seen.WriteString(page.outputText("entries"))
		since = page.num("nextSince")
	}
}

// wantCloseKillsAll closes a started session and checks that every process
// that appeared under the test since before (its descendants then) is gone;
// at least want of them must have appeared. A survivor is named by its
// command line, so that a failure says whose process it was.
func (h *harness) wantCloseKillsAll(id string, before []int, want int) {
	h.t.Helper()
	var started []int
	for _, pid := range proc.Descendants(os.Getpid()) {
		if !slices.Contains(before, pid) {
			started = append(started, pid)
		}
	}
	if len(started) < want {
		h.t.Fatalf("expected %d new processes (adapter, program), got %v", want, started)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": id})
	for _, pid := range started {
		if proc.Alive(pid) {
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			h.t.Errorf("process %d survived close_debug_session: %q", pid, strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
}
