package server

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/selfcheck"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type createSessionArgs struct {
	Language       string     `json:"language" jsonschema:"python, javascript, typescript, go, c, cpp, rust, ruby or java (kotlin, scala)"`
	Name           string     `json:"name,omitempty" jsonschema:"a name for the session, shown in listings"`
	ExecutablePath string     `json:"executablePath,omitempty" jsonschema:"interpreter or runtime (e.g. a venv's python)"`
	Host           string     `json:"host,omitempty" jsonschema:"with port: attach at once to a debug server at host:port"`
	Port           Int        `json:"port,omitempty" jsonschema:"with host: attach at once to this port"`
	Timeout        Int        `json:"timeout,omitempty" jsonschema:"ms to wait for that attach (default 30000)"`
	AdapterConfig  JSONObject `json:"adapterConfig,omitempty" jsonschema:"a JSON object of fields merged into every launch and attach request"`
}

type createSessionResult struct {
	Success   bool   `json:"success"`
	SessionID string `json:"sessionId"`
	// Language is the id an alias (js, c++, golang) was taken as; an id
	// asked for by its own name is not echoed.
	Language string `json:"language,omitempty"`
	Message  string `json:"message"`
	State    string `json:"state,omitempty"`
	// ReconnectKey is given over HTTP only, to the creator alone; the
	// message says what it is for.
	ReconnectKey string `json:"reconnectKey,omitempty"`
}

type sessionIDArgs struct {
	SessionID string `json:"sessionId"`
}

type messageResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// languageEntry is everything an agent needs about one language, once:
// whether it can be debugged here (or what to install), with which adapter
// and version, and which test runner debug_test drives.
type languageEntry struct {
	ID          string   `json:"id" jsonschema:"the language id create_debug_session takes"`
	DisplayName string   `json:"displayName"`
	Aliases     []string `json:"aliases,omitempty" jsonschema:"other ids create_debug_session accepts"`
	Installed   bool     `json:"installed" jsonschema:"the debug adapter is here: launch and attach work unless unavailable says otherwise"`
	Adapter     string   `json:"adapter" jsonschema:"the debug adapter and how it runs the program"`
	Version     string   `json:"version,omitempty" jsonschema:"the adapter's version (the runtime's for built-in adapters)"`
	Runtime     string   `json:"runtime,omitempty" jsonschema:"the interpreter or runtime on PATH; a project's own (a venv, .nvmrc) runs its programs (runtime in start answers); executablePath overrides both"`
	DebugTest   string   `json:"debugTest,omitempty" jsonschema:"the test runner debug_test drives for this language"`
	Reason      string   `json:"reason,omitempty" jsonschema:"why it is not installed"`
	InstallHint string   `json:"installHint,omitempty" jsonschema:"the command that installs what is missing"`
	// Unavailable maps a mode (launch, attach) that does not work here to
	// the reason; modes not listed work when installed.
	Unavailable map[string]string `json:"unavailable,omitempty" jsonschema:"modes (launch, attach) that do not work here, with the reason"`
	Check       *languageCheck    `json:"check,omitempty" jsonschema:"with check: whether debugging a tiny program worked"`
}

type languagesResult struct {
	Success   bool            `json:"success"`
	Languages []languageEntry `json:"languages"`
	Count     int             `json:"count"`
	// Watchpoints is only set by a check.
	Watchpoints *adapter.WatchpointStatus `json:"watchpoints,omitempty" jsonschema:"with check: whether hardware watchpoints (data breakpoints) fire on this machine"`
}

type languagesArgs struct {
	Check   bool `json:"check,omitempty" jsonschema:"also debug a tiny program per installed language: worked or not, time, fix"`
	Timeout Int  `json:"timeout,omitempty" jsonschema:"with check: milliseconds each language's check may take (default 120000)"`
}

// languageCheck is one language's selfcheck result.
type languageCheck struct {
	OK     bool   `json:"ok" jsonschema:"the program stopped at the breakpoint and its local read as expected"`
	Status string `json:"status" jsonschema:"ok, failed (installed, not working), skipped (nothing to check, or something beyond the adapter is missing: see error) or missing (adapter not installed)"`
	Ms     int64  `json:"ms" jsonschema:"milliseconds until the local was read or the check failed"`
	Step   string `json:"step,omitempty" jsonschema:"where a failed check stopped: prepare, breakpoint, start, stop or locals"`
	Error  string `json:"error,omitempty"`
	Hint   string `json:"hint,omitempty" jsonschema:"what to install or fix"`
}

type lastStopInfo struct {
	Reason        string             `json:"reason"`
	RawReason     string             `json:"rawReason,omitempty"`
	ThreadID      int                `json:"threadId"`
	Timestamp     time.Time          `json:"timestamp"`
	Description   string             `json:"description,omitempty"`
	Text          string             `json:"text,omitempty"`
	ExceptionInfo *stopExceptionInfo `json:"exceptionInfo,omitempty"`
}

// stopExceptionInfo is an exception stop's details in DAP's exceptionInfo
// shape, which the reference's clients read from lastStop.
type stopExceptionInfo struct {
	ExceptionID string            `json:"exceptionId"`
	BreakMode   string            `json:"breakMode,omitempty"`
	Description string            `json:"description,omitempty"`
	Details     *exceptionDetails `json:"details,omitempty"`
}

type exceptionDetails struct {
	Message      string `json:"message,omitempty"`
	TypeName     string `json:"typeName,omitempty"`
	FullTypeName string `json:"fullTypeName,omitempty"`
	StackTrace   string `json:"stackTrace,omitempty"`
}

func stopExceptionOf(e *session.ExceptionInfo) *stopExceptionInfo {
	if e == nil || e.ExceptionID == "" && e.TypeName == "" {
		return nil
	}
	info := &stopExceptionInfo{ExceptionID: e.ExceptionID, BreakMode: e.BreakMode, Description: e.Description}
	if info.ExceptionID == "" {
		info.ExceptionID = e.TypeName
	}
	if e.Message != "" || e.TypeName != "" || e.FullTypeName != "" {
		info.Details = &exceptionDetails{Message: e.Message, TypeName: e.TypeName, FullTypeName: e.FullTypeName, StackTrace: e.StackTrace}
	}
	return info
}

type sessionInfo struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Language    string        `json:"language"`
	State       string        `json:"state"`
	StateReason string        `json:"stateReason,omitempty"`
	CreatedAt   time.Time     `json:"createdAt"`
	UpdatedAt   time.Time     `json:"updatedAt"`
	LastStop    *lastStopInfo `json:"lastStop,omitempty"`
	ExitCode    *int          `json:"exitCode,omitempty"`
	Signal      string        `json:"signal,omitempty"`
}

type listSessionsArgs struct {
	Adopt *string `json:"adopt,omitempty" jsonschema:"over HTTP, after a reconnect: your reconnectKey, to take your sessions back"`
}

type listSessionsResult struct {
	Success  bool          `json:"success"`
	Sessions []sessionInfo `json:"sessions"`
	Count    int           `json:"count"`
	// An adopt answers with the sessions it took and the key to keep.
	Adopted      []string `json:"adopted,omitempty"`
	ReconnectKey string   `json:"reconnectKey,omitempty"`
}

func (s *Server) addSessionTools() {
	addTool(s, "create_debug_session",
		"Create a debug session for a language. Then set breakpoints and start (or attach to) the program. Returns sessionId.",
		s.createSession)
	addTool(s, "list_supported_languages",
		"List the languages this server debugs, whether each one's adapter is installed here, and how to install it. check: true also tries each.",
		s.listLanguages)
	addTool(s, "list_debug_sessions",
		"List open debug sessions with their state, last stop and exit code.",
		s.listSessions)
	addTool(s, "close_debug_session",
		"Close a debug session: the program is terminated and every process the session started is killed.",
		s.closeSession)
}

func (s *Server) createSession(ctx context.Context, a *createSessionArgs) (*createSessionResult, error) {
	if a.Language == "" {
		return nil, userError("pass language, e.g. \"python\"; list_supported_languages lists them", "language is required")
	}
	sess, err := s.sessions.Create(a.Language, session.Options{
		Name:           a.Name,
		ExecutablePath: s.absExecutable(a.ExecutablePath),
		Host:           a.Host,
		Port:           int(a.Port),
		AdapterConfig:  a.AdapterConfig,
		PathBase:       s.cwd,
	})
	if err != nil {
		return nil, err
	}
	key, err := s.own(ctx, sess.ID)
	if err != nil {
		s.sessions.Close(sess.ID)
		return nil, err
	}
	res := &createSessionResult{
		Success:   true,
		SessionID: sess.ID,
		// The tool's description says what comes next.
		Message:      "Created.",
		ReconnectKey: key,
	}
	if !strings.EqualFold(a.Language, sess.Language.ID) {
		res.Language = sess.Language.ID
	}
	res.Message += reconnectKeyAdvice(callerOf(ctx), key)
	if a.Port > 0 {
		start, err := sess.Attach(ctx, session.AttachSpec{Host: a.Host, Port: int(a.Port), BreakOnExceptions: session.BreakUncaught}, session.WaitOptions{Timeout: millis(a.Timeout)})
		if err != nil {
			return nil, err
		}
		res.State = string(start.Snapshot.State)
		res.Message = fmt.Sprintf("Created session %s and attached to %s:%d.", sess.ID, a.Host, a.Port)
	}
	return res, nil
}

// absExecutable resolves a relative executable path, leaving bare command
// names (looked up on PATH) alone.
func (s *Server) absExecutable(p string) string {
	if p == "" || !strings.ContainsRune(p, '/') {
		return p
	}
	return s.absPath(p)
}

func (s *Server) listLanguages(ctx context.Context, args *languagesArgs) (*languagesResult, error) {
	if args.Timeout < 0 {
		return nil, userError("pass a positive number of milliseconds, or leave timeout out", "timeout %d is negative", args.Timeout)
	}
	adapters := adapter.All()
	avail := make([]adapter.Availability, len(adapters))
	var checks []*languageCheck
	res := &languagesResult{Success: true}
	if args.Check {
		// The check looks for each adapter itself; its answer is the
		// availability listed, so that the two cannot disagree.
		checks = make([]*languageCheck, len(adapters))
		rep := s.selfCheck(ctx, adapters, millis(args.Timeout))
		for i, r := range rep.Results {
			avail[i] = r.Availability
			checks[i] = &languageCheck{OK: r.OK(), Status: string(r.Status), Ms: r.Duration.Milliseconds(), Step: r.Step, Error: r.Error, Hint: r.Hint}
		}
		res.Watchpoints = &rep.Watchpoints
	} else {
		var wg sync.WaitGroup
		for i, a := range adapters {
			wg.Add(1)
			go func() {
				defer wg.Done()
				avail[i] = a.Check(ctx)
			}()
		}
		wg.Wait()
	}
	for i, a := range adapters {
		if a.Language().TestOnly && !s.testLanguages {
			continue
		}
		entry := languageEntryOf(a, avail[i])
		if checks != nil {
			entry.Check = checks[i]
		}
		res.Languages = append(res.Languages, entry)
	}
	res.Count = len(res.Languages)
	return res, nil
}

// languageEntryOf is one language's entry: the adapter's facts and what
// the look for it found here.
func languageEntryOf(a adapter.Adapter, av adapter.Availability) languageEntry {
	lang := a.Language()
	e := languageEntry{
		ID:          lang.ID,
		DisplayName: lang.DisplayName,
		Aliases:     lang.Aliases,
		Installed:   av.Installed,
		Adapter:     lang.Description,
		Version:     av.Version,
		Reason:      av.Reason,
		InstallHint: av.InstallHint,
	}
	if lang.RequiresExecutable {
		e.Runtime = lang.DefaultExecutable
	}
	if _, ok := a.(adapter.TestRunner); ok {
		e.DebugTest = lang.TestRunner
	}
	for mode, st := range map[string]adapter.ModeStatus{"launch": av.Launch, "attach": av.Attach} {
		if why := modeUnavailable(st); av.Installed && why != "" {
			if e.Unavailable == nil {
				e.Unavailable = map[string]string{}
			}
			e.Unavailable[mode] = why
		}
	}
	return e
}

// modeUnavailable says why a mode does not work, "" when it does.
func modeUnavailable(st adapter.ModeStatus) string {
	switch {
	case st.Supported && st.Available:
		return ""
	case st.Reason != "":
		return st.Reason
	case !st.Supported:
		return "not supported by this adapter"
	}
	return "not available here"
}

// selfCheck debugs a tiny program in the adapters' languages, each bounded
// by timeout (zero: selfcheck's default); the results are in the
// adapters' order.
func (s *Server) selfCheck(ctx context.Context, adapters []adapter.Adapter, timeout time.Duration) selfcheck.Report {
	ids := make([]string, len(adapters))
	for i, a := range adapters {
		ids[i] = a.Language().ID
	}
	return selfcheck.Run(ctx, selfcheck.Options{Languages: ids, Timeout: timeout, Logger: s.log})
}

func (s *Server) listSessions(ctx context.Context, a *listSessionsArgs) (*listSessionsResult, error) {
	res := &listSessionsResult{Success: true, Sessions: []sessionInfo{}}
	viewer := callerOf(ctx)
	if a.Adopt != nil {
		ids, keep, err := s.adopt(ctx, *a.Adopt)
		if err != nil {
			return nil, err
		}
		res.Adopted, res.ReconnectKey = ids, keep
		viewer.key = keep // the key just proved is shown what it holds
	}
	for _, sess := range s.sessions.List() {
		if !s.listed(viewer, sess.ID) {
			continue
		}
		info := sess.Info()
		si := sessionInfo{
			ID:        info.ID,
			Name:      info.Name,
			Language:  info.Language,
			State:     string(info.State),
			CreatedAt: info.Created,
			UpdatedAt: info.Updated,
			ExitCode:  info.ExitCode,
			Signal:    info.Signal,
		}
		if info.State == session.StateError || info.State == session.StateStopped {
			si.StateReason = info.Cause
		}
		if st := info.LastStop; st != nil {
			si.LastStop = &lastStopInfo{Reason: st.Reason, RawReason: st.RawReason, ThreadID: st.ThreadID, Timestamp: st.Time, Description: st.Description, Text: st.Text,
				ExceptionInfo: stopExceptionOf(st.Exception())}
		}
		res.Sessions = append(res.Sessions, si)
	}
	res.Count = len(res.Sessions)
	return res, nil
}

func (s *Server) closeSession(_ context.Context, a *sessionIDArgs) (*messageResult, error) {
	if _, err := s.session(a.SessionID); err != nil {
		return nil, err
	}
	if err := s.sessions.Close(a.SessionID); err != nil {
		return nil, err
	}
	return &messageResult{Success: true, Message: "Closed."}, nil
}
