package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-dap"
)

// SetVariableRequest names a variable and its new value: by name in a
// frame's scopes (frameID, default the shown frame), or as a child of
// VariablesReference (a member of an expanded value).
type SetVariableRequest struct {
	Name               string
	Value              string
	FrameID            *int
	VariablesReference int
}

// SetVariable changes a variable of the paused program; the value is an
// expression in the program's language, evaluated by the adapter. The
// stop's cached locals are fetched again, so the next snapshot and
// get_local_variables show the new value.
func (s *Session) SetVariable(ctx context.Context, req SetVariableRequest) (*Variable, error) {
	if strings.TrimSpace(req.Name) == "" {
		return nil, errorf(`pass the variable's name, e.g. "total"`, "name is empty")
	}
	r, st, err := s.pausedStop(ctx, "set a variable")
	if err != nil {
		return nil, err
	}
	if !r.caps.SupportsSetVariable || !r.conn.Quirks.Supports("setVariable") {
		return nil, errorf("evaluate an assignment with evaluate_expression instead, where the language allows it", "set_variable is not supported by %s", r.adapterName())
	}
	ref := req.VariablesReference
	if ref == 0 {
		frame := 0
		switch {
		case req.FrameID != nil:
			frame = *req.FrameID
		case len(st.frames) > 0:
			frame = st.frames[st.top].Id
		}
		if ref = s.scopeHolding(ctx, r, st, frame, req.Name); ref == 0 {
			return nil, errorf("get_local_variables lists the frame's variables; for a member, pass variablesReference of its parent", "no variable %q in this frame's scopes", Brief(req.Name))
		}
	}
	old, known := "", false
	if ref == st.localsRef {
		for _, v := range st.locals {
			if v.Name == req.Name {
				old, known = v.Value, true
			}
		}
	}
	var body dap.SetVariableResponseBody
	if err := r.call(ctx, "setVariable", map[string]any{"variablesReference": ref, "name": req.Name, "value": req.Value}, &body); err != nil {
		return nil, adapterError(fmt.Sprintf("set %s to %s", req.Name, req.Value), err, "the value is an expression in the program's language; the variable is unchanged")
	}
	if known && body.Value == old && strings.TrimSpace(req.Value) != old && len(st.frames) > 0 {
		// debugpy answers a value it cannot evaluate with the old value
		// and success; evaluating the text tells such a failure apart
		// from a value that merely prints the same (docs/adapter-quirks.md,
		// debugpy-11).
		if _, err := evalRaw(ctx, r, st.frames[st.top].Id, req.Value); err != nil {
			return nil, adapterError(fmt.Sprintf("set %s to %s", req.Name, req.Value), err, "the value is an expression in the program's language; the variable is unchanged")
		}
	}
	s.refetch(ctx, st.top)
	v := fromDAP(dap.Variable{Name: req.Name, Value: body.Value, Type: body.Type, VariablesReference: body.VariablesReference}, MaxValueLen)
	return &v, nil
}
