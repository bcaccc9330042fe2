package server

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type breakOnChangeArgs struct {
	SessionID  string `json:"sessionId"`
	Expression string `json:"expression" jsonschema:"variable or expression whose value to watch, e.g. cart or len(cart) or order.total"`
	FrameID    *Int   `json:"frameId,omitempty" jsonschema:"frame the expression belongs to (default: the top frame of the current stop)"`
	MaxSteps   Int    `json:"maxSteps,omitempty" jsonschema:"when single-stepping: give up after this many steps (default 1000)"`
	Timeout    Int    `json:"timeout,omitempty" jsonschema:"milliseconds to search before giving up (default 30000)"`
	shapeArgs
}

type breakOnChangeResult struct {
	runResult
	Changed      bool              `json:"changed"`
	From         string            `json:"from"`
	To           string            `json:"to,omitempty"`
	Method       string            `json:"method"`
	MethodReason string            `json:"methodReason,omitempty" jsonschema:"why single steps replaced a data breakpoint: an adapter without them, an expression not in memory, or hardware watchpoints that do not fire here"`
	Steps        int               `json:"steps,omitempty"`
	ChangedBy    *session.Location `json:"changedBy,omitempty"`
	Why          string            `json:"why,omitempty"`
}

func (s *Server) addBreakOnChangeTool() {
	addTool(s, "break_on_change",
		"Run until a value changes and stop there: a data breakpoint where possible, else single steps bounded by maxSteps and timeout (methodReason says which).",
		s.breakOnChange)
}

func (s *Server) breakOnChange(ctx context.Context, a *breakOnChangeArgs) (*breakOnChangeResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	if a.Expression == "" {
		return nil, userError(`pass the expression to watch, e.g. "cart"`, "expression is required")
	}
	res, err := sess.BreakOnChange(ctx, session.ChangeRequest{
		Expression: a.Expression, FrameID: sess.FrameArg(ctx, a.FrameID.Ptr()), MaxSteps: int(a.MaxSteps), Timeout: millis(a.Timeout),
	})
	if err != nil {
		return nil, err
	}
	var prefix string
	switch {
	// from, to, changedBy and method are the answer's fields: the
	// message names the line only.
	case res.Changed && res.ChangedBy != nil:
		prefix = fmt.Sprintf("%s changed at %s:%d.", a.Expression, filepath.Base(res.ChangedBy.File), res.ChangedBy.Line)
	case res.Changed:
		prefix = a.Expression + " changed."
	default:
		prefix = fmt.Sprintf("%s did not change: %s.", a.Expression, res.Why)
	}
	run := runResultOf(res.Snapshot, prefix)
	if res.Changed && res.Snapshot.State == session.StatePaused {
		// Paused where it changed: state and stopReason say the rest.
		run.Message = prefix
	}
	out := &breakOnChangeResult{
		runResult: *run.shape(a.shapeArgs),
		Changed:   res.Changed, From: res.From, To: res.To, Method: res.Method, MethodReason: res.MethodReason, Steps: res.Steps,
		ChangedBy: beside(res.ChangedBy, res.Snapshot.Location), Why: res.Why,
	}
	return out, nil
}

// beside is where a value changed, without the file and function it
// shares with the stop's location.
func beside(at, stop *session.Location) *session.Location {
	if at == nil || stop == nil {
		return at
	}
	c := *at
	if c.File == stop.File {
		c.File = ""
	}
	if c.Function == stop.Function {
		c.Function = ""
	}
	return &c
}
