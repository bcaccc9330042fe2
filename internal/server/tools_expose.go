package server

import (
	"context"
	"fmt"

	"github.com/mcp-debugger/mcp-debugger/internal/mirror"
)

// exposed is a session served to IDEs over DAP.
type exposed struct {
	m *mirror.Mirror
}

type exposeArgs struct {
	SessionID    string `json:"sessionId"`
	AllowControl bool   `json:"allowControl,omitempty" jsonschema:"let the IDE continue, step, pause and evaluate (default: it only watches)"`
}

type exposeResult struct {
	Success      bool           `json:"success"`
	Message      string         `json:"message"`
	Host         string         `json:"host"`
	Port         int            `json:"port"`
	ReadOnly     bool           `json:"readOnly"`
	LaunchConfig map[string]any `json:"launchConfig" jsonschema:"a launch.json configuration attaching VS Code to the mirror, with the mirror's token the IDE sends"`
}

type shareArgs struct {
	SessionID string `json:"sessionId"`
	Shared    *bool  `json:"shared,omitempty" jsonschema:"true (default): every client of this server may drive it; false: yours alone again"`
}

func (s *Server) addExposeTools() {
	addTool(s, "expose_session",
		"Serve a session over DAP on a loopback port so a person's IDE (VS Code, nvim-dap) can watch the same stop. Read-only unless allowControl.",
		s.exposeSession)
	addTool(s, "unexpose_session",
		"Stop serving a session to IDEs; attached IDEs are disconnected, the session goes on.",
		s.unexposeSession)
	addTool(s, "share_debug_session",
		"Over HTTP, where clients share this server: let other clients drive a session you created (or take that back).",
		s.shareSession)
}

func (s *Server) exposeSession(_ context.Context, a *exposeArgs) (*exposeResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	s.obs.mu.Lock()
	ex, ok := s.obs.mirrors[sess.ID]
	s.obs.mu.Unlock()
	if ok && ex.m.AllowsControl() != a.AllowControl {
		return nil, userError("call unexpose_session first to change allowControl", "session %s is already exposed on port %d with allowControl=%v", sess.ID, ex.m.Port(), ex.m.AllowsControl())
	}
	if !ok {
		m, err := mirror.Start(sess, mirror.Options{AllowControl: a.AllowControl, Logger: s.log})
		if err != nil {
			return nil, fmt.Errorf("expose session %s: %w", sess.ID, err)
		}
		ex = &exposed{m: m}
		s.obs.mu.Lock()
		if prev, raced := s.obs.mirrors[sess.ID]; raced {
			s.obs.mu.Unlock()
			m.Close()
			ex = prev
		} else {
			s.obs.mirrors[sess.ID] = ex
			s.obs.mu.Unlock()
		}
	}
	port := ex.m.Port()
	mode := "read-only: the IDE watches, the agent drives"
	if ex.m.AllowsControl() {
		mode = "the IDE may continue, step, pause and evaluate"
	}
	return &exposeResult{
		Success:  true,
		Message:  fmt.Sprintf("Session %s is served over DAP on 127.0.0.1:%d (%s). Attach with the launch configuration, which carries the mirror's token (%s); the current stop is shown at once.", sess.ID, port, mode, mirror.TokenField),
		Host:     "127.0.0.1",
		Port:     port,
		ReadOnly: !ex.m.AllowsControl(),
		LaunchConfig: map[string]any{
			"name":        "mcp-debugger: " + sess.Name(),
			"type":        sess.Language.VSCodeType,
			"request":     "attach",
			"debugServer": port,
			// VS Code and nvim-dap send the configuration's fields as the
			// attach request's arguments: that is how the token reaches
			// the mirror.
			mirror.TokenField: ex.m.Token(),
		},
	}, nil
}

func (s *Server) unexposeSession(_ context.Context, a *sessionIDArgs) (*messageResult, error) {
	if _, err := s.session(a.SessionID); err != nil {
		return nil, err
	}
	if !s.unexpose(a.SessionID) {
		return nil, userError("expose_session serves a session to IDEs", "session %s is not exposed", a.SessionID)
	}
	return &messageResult{Success: true, Message: fmt.Sprintf("Session %s is no longer served to IDEs; attached IDEs were disconnected.", a.SessionID)}, nil
}

// unexpose stops a session's mirror; false when it had none.
func (s *Server) unexpose(id string) bool {
	s.obs.mu.Lock()
	ex, ok := s.obs.mirrors[id]
	delete(s.obs.mirrors, id)
	s.obs.mu.Unlock()
	if ok {
		ex.m.Close()
	}
	return ok
}

func (s *Server) shareSession(_ context.Context, a *shareArgs) (*messageResult, error) {
	if _, err := s.session(a.SessionID); err != nil {
		return nil, err
	}
	shared := a.Shared == nil || *a.Shared
	s.obs.mu.Lock()
	o := s.obs.owners[a.SessionID]
	if o.client == "" && o.key == "" {
		s.obs.mu.Unlock()
		return &messageResult{Success: true, Message: fmt.Sprintf("Nothing changed: session %s is on a server with one client (stdio), "+
			"which no other client can reach. Sharing matters with `mcp-debugger http`, where several clients connect.", a.SessionID)}, nil
	}
	o.shared = shared
	s.obs.owners[a.SessionID] = o
	s.obs.mu.Unlock()
	if shared {
		return &messageResult{Success: true, Message: fmt.Sprintf("Every client of this server may now drive session %s.", a.SessionID)}, nil
	}
	return &messageResult{Success: true, Message: fmt.Sprintf("Only you may drive session %s again.", a.SessionID)}, nil
}
