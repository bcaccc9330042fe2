// Package server is the MCP face of the debugger: one file per tool group,
// argument and result structs that give the schemas, and the shaping of
// results and errors. Tool handlers validate and shape; the session package
// does the debugging.
package server

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed instructions.md
var instructions string

// Version is the server's version, set by the command at build time.
var Version = "dev"

// Server holds the MCP server and the sessions it drives.
type Server struct {
	mcp      *mcp.Server
	sessions *session.Manager
	obs      *observers    // ownership, the tool-call timeline, IDE mirrors (observers.go)
	watches  outputWatches // subscriptions to the output resources (resources.go)
	log      *slog.Logger
	// cwd resolves relative paths.
	cwd string
	// profile chooses the tools offered.
	profile Profile
	// testLanguages lists the test-only languages (mock) with the others.
	testLanguages bool
}

// Options configure New.
type Options struct {
	Logger *slog.Logger
	// Cwd resolves relative paths (default: the process's working directory).
	Cwd string
	// KeepAlive pings every client this often (0: never); a client that
	// misses keepAliveMisses pings in a row loses its MCP session, which
	// over HTTP is how a client that vanished without a DELETE is found.
	KeepAlive time.Duration
	// Tools is the profile of tools offered ("": ProfileDefault).
	Tools Profile
	// TestLanguages lists the test-only languages (mock) among those
	// offered; tests set it. Named, such a language works either way.
	TestLanguages bool
}

// keepAliveMisses is how many pings in a row a client may miss before its
// MCP session is ended.
const keepAliveMisses = 3

// New builds the MCP server with every tool, the output resource and the
// instructions.
func New(opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cwd := opts.Cwd
	if cwd == "" {
		cwd, _ = filepath.Abs(".")
	}
	profile := opts.Tools
	if profile == "" {
		profile = ProfileDefault
	}
	s := &Server{
		sessions: session.NewManager(log),
		log:      log,
		cwd:      cwd,
		profile:  profile,

		testLanguages: opts.TestLanguages,
	}
	s.watches.ctx, s.watches.cancel = context.WithCancel(context.Background())
	s.watches.byURI = map[string]*outputWatch{}
	// A server killed with SIGKILL leaves its temporary directories behind.
	for _, dir := range proc.SweepTempDirs() {
		log.Info("removed the temporary directory of a server that is gone", "dir", dir)
	}
	// And the programs its sessions launched that nothing has ended since
	// (a program whose adapter died with the server keeps running).
	if pids := proc.SweepMarked(); len(pids) > 0 {
		log.Info("killed the programs of a server that is gone", "pids", pids)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "mcp-debugger", Title: "mcp-debugger", Version: Version}, &mcp.ServerOptions{
		Instructions: instructionsFor(profile),
		Logger:       log,
		// Not the SDK's default {"logging": {}}: the server sends no log
		// messages to clients (MCP deprecates them), so it does not offer to.
		Capabilities:       &mcp.ServerCapabilities{},
		SubscribeHandler:   s.subscribe,
		CompletionHandler:  completeArgument,
		UnsubscribeHandler: s.unsubscribe,
		KeepAlive:          opts.KeepAlive,
		// One missed ping is a busy client or a slow machine; several in a
		// row, a client that is gone.
		KeepAliveFailureThreshold: keepAliveMisses,
	})
	s.addSessionTools()
	s.addBreakpointTools()
	s.addRunTools()
	s.addInspectTools()
	s.addMemoryTools()
	s.addWatchTools()
	s.addRunToTool()
	s.addTraceTools()
	s.addTraceFunctionTool()
	s.addBreakOnChangeTool()
	s.addDebugTestTool()
	s.addRecordTools()
	s.addSetVariableTool()
	s.addJavaTools()
	s.addOutputResource()
	s.addPrompts()
	s.refuseLogging()
	s.installObservers()
	return s
}

// MCP returns the underlying MCP server, to run on a transport.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close closes every debug session and kills their processes.
func (s *Server) Close() {
	s.stopGraceTimers()
	s.closeMirrors()
	s.stopOutputWatches()
	s.sessions.CloseAll()
}

// Int is an integer argument that also accepts a numeric string, since some
// clients send numbers as strings.
type Int int

// UnmarshalJSON accepts 12, 12.0 and "12".
func (n *Int) UnmarshalJSON(b []byte) error {
	str := strings.TrimSpace(string(b))
	if unq, err := strconv.Unquote(str); err == nil {
		str = strings.TrimSpace(unq)
	}
	if str == "" || str == "null" {
		*n = 0
		return nil
	}
	if v, err := strconv.Atoi(str); err == nil {
		*n = Int(v)
		return nil
	}
	f, err := strconv.ParseFloat(str, 64)
	if err != nil || f != float64(int(f)) {
		return fmt.Errorf("%s is not a whole number", string(b))
	}
	*n = Int(f)
	return nil
}

// Ptr returns the value as *int, nil when absent.
func (n *Int) Ptr() *int {
	if n == nil {
		return nil
	}
	v := int(*n)
	return &v
}

var schemaOptions = &jsonschema.ForOptions{
	TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		// Declared integer, which is what agents should send; decoding
		// still takes the numeric strings some clients send (UnmarshalJSON).
		reflect.TypeFor[Int](): {Type: "integer"},
		reflect.TypeFor[any](): {},
		// Variable nests itself through children, which schema inference
		// cannot express; describe it by hand.
		reflect.TypeFor[session.Variable](): variableSchema,
		reflect.TypeFor[EnvVars]():          envVarsSchema,
		reflect.TypeFor[JSONObject]():       jsonObjectSchema,
	},
}

var variableSchema = &jsonschema.Schema{
	Type:          "object",
	Description:   "a variable or value",
	PropertyOrder: []string{"name", "value", "type", "variablesReference", "truncated", "masked", "children"},
	Properties: map[string]*jsonschema.Schema{
		"name":               {Type: "string"},
		"value":              {Type: "string", Description: "the value as the debugger shows it (cut at ~1 KB when truncated)"},
		"type":               {Type: "string"},
		"variablesReference": {Type: "integer", Description: "pass to get_variables as scope to expand; 0 when not expandable"},
		"truncated":          {Type: "boolean"},
		"masked":             {Type: "boolean", Description: "the value looked like a secret and was hidden"},
		"children":           {Type: "array", Items: &jsonschema.Schema{Type: "object"}, Description: "expanded members, same shape"},
	},
}

// failure is the result of a failed call.
type failure struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Hint    string `json:"hint,omitempty"`
	State   string `json:"state,omitempty"`
}

// userError is a bad call the agent can fix; hint says how.
func userError(hint, format string, args ...any) error {
	return &session.Error{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// addTool registers a tool whose arguments decode into In and whose result
// is Out. Arguments are decoded leniently (unknown fields ignored, numeric
// strings accepted); failures become isError results carrying
// {success:false, error, hint}, both as structuredContent and as JSON text,
// which is what the reference's clients parse.
func addTool[In, Out any](s *Server, name, description string, h func(context.Context, *In) (*Out, error)) {
	if !s.profile.offers(name) {
		return
	}
	in, err := jsonschema.For[In](schemaOptions)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
	}
	portableInput(in)
	open := openArgNames(reflect.TypeFor[In]())
	out, err := jsonschema.For[Out](schemaOptions)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", name, err))
	}

	// A tool missing from traits has no title and MCP's default hints;
	// TestToolAnnotationsLetClientsAutoApproveReads names it.
	t := traits[name]
	tool := &mcp.Tool{
		Name: name, Title: t.title, Description: description, Annotations: t.annotations(),
		InputSchema: in, OutputSchema: compactOutputSchema(out, isRunResult(reflect.TypeFor[Out]())),
	}
	s.mcp.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		args := new(In)
		var result any
		var callErr error
		if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
			raw, err := normalizeArgs(raw, in, open)
			if err == nil {
				err = decodeError(json.Unmarshal(raw, args))
			}
			if err != nil {
				callErr = userError("check the argument names and types against the tool's input schema", "invalid arguments for %s: %v", name, err)
			}
		}
		if callErr == nil {
			callErr = s.decideOwner(ctx, name, sessionIDOf(args))
		}
		if callErr == nil {
			var res *Out
			res, callErr = guard(s, name, func() (*Out, error) { return h(withProgress(ctx, req, name), args) })
			result = res
			if shower, ok := any(res).(pathShower); ok && callErr == nil && res != nil {
				shower.showPathsFrom(s.cwd)
			}
		}
		if callErr != nil {
			result = s.failureOf(callErr, args)
		}
		body, err := marshalAnswer(result)
		if err != nil {
			return nil, fmt.Errorf("%s: encoding result: %w", name, err)
		}
		s.log.Debug("tool call", "tool", name, "ms", time.Since(start).Milliseconds(), "err", callErr)
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
			StructuredContent: json.RawMessage(body),
			IsError:           callErr != nil,
		}, nil
	})
}

// guard runs a tool handler; a panic in it becomes the call's error (its
// stack logged at error level), so one bug fails one call instead of ending
// the server and every debug session it holds.
func guard[Out any](s *Server, name string, h func() (*Out, error)) (res *Out, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("tool handler panicked", "tool", name, "panic", r, "stack", string(debug.Stack()))
			res, err = nil, userError("this is a bug in mcp-debugger (the log has the stack); the server is still running and other calls work",
				"internal error in %s: %v", name, r)
		}
	}()
	return h()
}

// withProgress makes waits for a stop report MCP progress when the client
// asked for it with a progress token.
func withProgress(ctx context.Context, req *mcp.CallToolRequest, tool string) context.Context {
	tok := req.Params.GetProgressToken()
	if tok == nil || req.Session == nil {
		return ctx
	}
	return session.WithProgress(ctx, func(waited, limit time.Duration) {
		// A client that cannot take the notification still gets its answer.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: tok,
			Progress:      waited.Seconds(),
			Total:         limit.Seconds(),
			Message:       fmt.Sprintf("%s: the program is running; waited %.0f s of %.0f s for it to stop", tool, waited.Seconds(), limit.Seconds()),
		})
	})
}

// failureOf shapes an error, adding the session's state when the call
// named a session, so the agent sees where it stands.
func (s *Server) failureOf(err error, args any) failure {
	f := failure{Success: false, Error: cutError(err.Error())}
	var se *session.Error
	if errors.As(err, &se) {
		f.Hint = se.Hint
	}
	if id := sessionIDOf(args); id != "" {
		if sess, gerr := s.sessions.Get(id); gerr == nil {
			f.State = string(sess.State())
		}
	}
	if f.Hint == "" && errors.Is(err, context.DeadlineExceeded) {
		f.Hint = "the debug adapter did not answer in time; the session may still be usable, list_debug_sessions shows its state"
	}
	return f
}

// sessionIDOf finds a SessionID field in an argument struct.
func sessionIDOf(args any) string {
	v := reflect.ValueOf(args)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return ""
	}
	f := v.FieldByName("SessionID")
	if !f.IsValid() || f.Kind() != reflect.String {
		return ""
	}
	return f.String()
}

// session finds the session an argument names.
func (s *Server) session(id string) (*session.Session, error) {
	if strings.TrimSpace(id) == "" {
		return nil, userError("pass the sessionId returned by create_debug_session (list_debug_sessions lists them)", "sessionId is required")
	}
	return s.sessions.Get(id)
}

// absPath resolves a path against the server's working directory.
func (s *Server) absPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(s.cwd, p)
}

// stdinFilePath is absPath for the optional stdinFile argument: "" stays
// "" (no input file), where absPath would make it ".".
func (s *Server) stdinFilePath(p string) string {
	if p == "" {
		return ""
	}
	return s.absPath(p)
}

// millis turns a millisecond argument into a duration (0 stays 0: default).
func millis(n Int) time.Duration { return time.Duration(n) * time.Millisecond }

// marshalAnswer encodes a tool's answer as JSON without HTML escaping: an
// agent reads "<genexpr>" and "a < b", and \u003c costs five bytes more
// each time (Python's frame names, C++ templates, comparisons in source).
func marshalAnswer(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
