package server

import (
	"context"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type redefineClassesArgs struct {
	SessionID      string `json:"sessionId"`
	ClassesDir     string `json:"classesDir" jsonschema:"absolute path"`
	SinceTimestamp Int    `json:"sinceTimestamp,omitempty" jsonschema:"Unix ms; only newer files"`
	Timeout        Int    `json:"timeout,omitempty" jsonschema:"ms"`
}

type redefineClassesResult struct {
	Success bool `json:"success"`
	adapter.RedefineClassesBody
	RedefinedCount int `json:"redefinedCount"`
}

func (s *Server) addJavaTools() {
	addTool(s, "redefine_classes",
		"Java: hot-swap changed .class files into the JVM.",
		s.redefineClasses)
}

func (s *Server) redefineClasses(ctx context.Context, a *redefineClassesArgs) (*redefineClassesResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	body, err := sess.RedefineClasses(ctx, session.RedefineClassesRequest{
		ClassesDir: a.ClassesDir, SinceTimestamp: int64(a.SinceTimestamp), Timeout: time.Duration(a.Timeout) * time.Millisecond,
	})
	if err != nil {
		return nil, err
	}
	return &redefineClassesResult{Success: true, RedefineClassesBody: *body,
		RedefinedCount: len(body.Redefined)}, nil
}
