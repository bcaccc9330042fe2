package server

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type createSessionArgs struct {
	Language       string         `json:"language" jsonschema:"language id: python, go, rust, cpp, c, javascript, ruby, java or mock (list_supported_languages lists them)"`
	Name           string         `json:"name,omitempty" jsonschema:"a name for the session, shown in listings"`
	ExecutablePath string         `json:"executablePath,omitempty" jsonschema:"interpreter or runtime to run the program with (e.g. a virtualenv's python)"`
	Host           string         `json:"host,omitempty" jsonschema:"with port: attach at once to a debug server at host:port"`
	Port           Int            `json:"port,omitempty" jsonschema:"with host: attach at once to a debug server listening on this port"`
	Timeout        Int            `json:"timeout,omitempty" jsonschema:"milliseconds to wait for an immediate attach (default 30000)"`
	AdapterConfig  map[string]any `json:"adapterConfig,omitempty" jsonschema:"extra fields merged into every launch and attach request sent to the debug adapter"`
}

type createSessionResult struct {
	Success   bool   `json:"success"`
	SessionID string `json:"sessionId"`
	Language  string `json:"language"`
	Name      string `json:"name"`
	Message   string `json:"message"`
	State     string `json:"state,omitempty"`
}

type sessionIDArgs struct {
	SessionID string `json:"sessionId" jsonschema:"the id returned by create_debug_session"`
}

type messageResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

type languageMode struct {
	Supported bool   `json:"supported"`
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

type languageAvailability struct {
	Language    string                  `json:"language"`
	Installed   bool                    `json:"installed"`
	Description string                  `json:"description"`
	Version     string                  `json:"version,omitempty"`
	Path        string                  `json:"path,omitempty"`
	Reason      string                  `json:"reason,omitempty"`
	InstallHint string                  `json:"installHint,omitempty"`
	Modes       map[string]languageMode `json:"modes"`
}

type languageInfo struct {
	ID                 string   `json:"id"`
	DisplayName        string   `json:"displayName"`
	Aliases            []string `json:"aliases,omitempty"`
	Version            string   `json:"version,omitempty"`
	RequiresExecutable bool     `json:"requiresExecutable"`
	DefaultExecutable  string   `json:"defaultExecutable,omitempty"`
}

type languagesResult struct {
	Success   bool                   `json:"success"`
	Installed map[string]bool        `json:"installed"`
	Available []languageAvailability `json:"available"`
	Languages []languageInfo         `json:"languages"`
	Count     int                    `json:"count"`
}

type lastStopInfo struct {
	Reason      string    `json:"reason"`
	ThreadID    int       `json:"threadId"`
	Timestamp   time.Time `json:"timestamp"`
	Description string    `json:"description,omitempty"`
	Text        string    `json:"text,omitempty"`
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
}

type listSessionsResult struct {
	Success  bool          `json:"success"`
	Sessions []sessionInfo `json:"sessions"`
	Count    int           `json:"count"`
}

func (s *Server) addSessionTools() {
	addTool(s, "create_debug_session",
		"Create a debug session for a language. Then set breakpoints and call start_debugging (or attach_to_process). Returns sessionId.",
		s.createSession)
	addTool(s, "list_supported_languages",
		"List the languages this server can debug, whether each one's debug adapter is installed here, and the exact install command when it is not.",
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
	})
	if err != nil {
		return nil, err
	}
	res := &createSessionResult{
		Success:   true,
		SessionID: sess.ID,
		Language:  sess.Language.ID,
		Name:      sess.Name(),
		Message:   fmt.Sprintf("Created %s debug session %s. Next: set_breakpoint, then start_debugging.", sess.Language.DisplayName, sess.ID),
	}
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

func (s *Server) listLanguages(ctx context.Context, _ *struct{}) (*languagesResult, error) {
	adapters := adapter.All()
	avail := make([]adapter.Availability, len(adapters))
	var wg sync.WaitGroup
	for i, a := range adapters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			avail[i] = a.Check(ctx)
		}()
	}
	wg.Wait()
	res := &languagesResult{Success: true, Installed: map[string]bool{}}
	for i, a := range adapters {
		lang, av := a.Language(), avail[i]
		res.Installed[lang.ID] = av.Installed
		res.Available = append(res.Available, languageAvailability{
			Language:    lang.ID,
			Installed:   av.Installed,
			Description: lang.Description,
			Version:     av.Version,
			Path:        av.Path,
			Reason:      av.Reason,
			InstallHint: av.InstallHint,
			Modes: map[string]languageMode{
				"launch": languageMode(av.Launch),
				"attach": languageMode(av.Attach),
			},
		})
		res.Languages = append(res.Languages, languageInfo{
			ID:                 lang.ID,
			DisplayName:        lang.DisplayName,
			Aliases:            lang.Aliases,
			Version:            av.Version,
			RequiresExecutable: lang.RequiresExecutable,
			DefaultExecutable:  lang.DefaultExecutable,
		})
	}
	res.Count = len(res.Languages)
	return res, nil
}

func (s *Server) listSessions(_ context.Context, _ *struct{}) (*listSessionsResult, error) {
	res := &listSessionsResult{Success: true, Sessions: []sessionInfo{}}
	for _, sess := range s.sessions.List() {
		info := sess.Info()
		si := sessionInfo{
			ID:        info.ID,
			Name:      info.Name,
			Language:  info.Language,
			State:     string(info.State),
			CreatedAt: info.Created,
			UpdatedAt: info.Updated,
			ExitCode:  info.ExitCode,
		}
		if info.State == session.StateError || info.State == session.StateStopped {
			si.StateReason = info.Cause
		}
		if st := info.LastStop; st != nil {
			si.LastStop = &lastStopInfo{Reason: st.Reason, ThreadID: st.ThreadID, Timestamp: st.Time, Description: st.Description, Text: st.Text}
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
	return &messageResult{Success: true, Message: fmt.Sprintf("Closed debug session %s; its processes are gone.", a.SessionID)}, nil
}
