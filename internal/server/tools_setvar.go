package server

import (
	"context"
	"fmt"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

type setVariableArgs struct {
	SessionID          string `json:"sessionId"`
	Name               string `json:"name" jsonschema:"the variable to change"`
	Value              string `json:"value" jsonschema:"the new value, as an expression in the program's language (e.g. 42, \"text\", None)"`
	FrameID            *Int   `json:"frameId,omitempty" jsonschema:"frame whose variable it is (default: the top frame of the current stop)"`
	VariablesReference Int    `json:"variablesReference,omitempty" jsonschema:"for a member of a value: the parent's variablesReference (from get_variables)"`
}

type setVariableResult struct {
	Success  bool             `json:"success"`
	Variable session.Variable `json:"variable"`
	Message  string           `json:"message"`
}

func (s *Server) addSetVariableTool() {
	addTool(s, "set_variable",
		"Change a variable of the paused program (a local by name, or a member with variablesReference).",
		s.setVariable)
}

func (s *Server) setVariable(ctx context.Context, a *setVariableArgs) (*setVariableResult, error) {
	sess, err := s.session(a.SessionID)
	if err != nil {
		return nil, err
	}
	v, err := sess.SetVariable(ctx, session.SetVariableRequest{Name: a.Name, Value: a.Value, FrameID: sess.FrameArg(ctx, a.FrameID.Ptr()), VariablesReference: int(a.VariablesReference)})
	if err != nil {
		return nil, err
	}
	return &setVariableResult{Success: true, Variable: *v, Message: fmt.Sprintf("%s = %s", v.Name, v.Value)}, nil
}
