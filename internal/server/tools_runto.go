package server

import (
	"context"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type runToArgs struct {
	SessionID string `json:"sessionId"`
	File      string `json:"file,omitempty" jsonschema:"source file to run to (with line or statement)"`
	Line      Int    `json:"line,omitempty" jsonschema:"line to run to (1-based); with statement, the occurrence nearest to it"`
	Statement string `json:"statement,omitempty" jsonschema:"run to the line containing this text (survives edits that move lines)"`
	Function  string `json:"function,omitempty" jsonschema:"or run to the entry of this function"`
	ThreadID  Int    `json:"threadId,omitempty" jsonschema:"thread to continue (default: the thread that stopped)"`
	Timeout   Int    `json:"timeout,omitempty" jsonschema:"milliseconds to wait (default 30000)"`
	shapeArgs
}

type runToResult struct {
	runResult
	Reached bool   `json:"reached"`
	Target  string `json:"target"`
}

func (s *Server) addRunToTool() {
	addTool(s, "run_to",
		"Run to a line (file + line or statement) or a function's entry; reached says whether it stopped there or something else came first.",
		s.runTo)
}

func (s *Server) runTo(ctx context.Context, a *runToArgs) (*runToResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	t := session.RunToTarget{Function: a.Function, Line: int(a.Line), Statement: a.Statement}
	switch {
	case a.Function != "" && (a.File != "" || a.Line != 0):
		return nil, userError("pass either file with line or statement, or function", "run_to takes one target")
	case a.Function == "" && a.File == "":
		return nil, userError("pass file with line or statement, or function", "run_to needs a target")
	case a.File != "" && a.Line == 0 && a.Statement == "":
		return nil, userError("pass line or statement with file", "run_to needs the line to run to")
	}
	if a.File != "" {
		t.File = s.absPath(a.File)
	}
	res, err := sess.RunTo(ctx, t, int(a.ThreadID), millis(a.Timeout))
	if err != nil {
		return nil, err
	}
	prefix := "Reached " + res.Target + "."
	if !res.Reached {
		prefix = "Did not reach " + res.Target + ": something else came first."
	}
	out := &runToResult{runResult: *runResultOf(res.Snapshot, prefix).shape(a.shapeArgs), Reached: res.Reached, Target: res.Target}
	return out, nil
}
