package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter/node/cdp"
)

// scopeHandle is a DAP scope: one or more inspector scopes of a frame,
// read together (the Local scope gathers the block scopes inside the
// function with the function's own).
type scopeHandle struct {
	frame *cdp.CallFrame
	parts []string // object ids, innermost first
	// returned is a return value shown first, as "(return) name", in the
	// locals of the frame a step out came back to.
	returned   *cdp.RemoteObject
	returnedBy string
}

// objectHandle is a value with children.
type objectHandle struct {
	objectID string
	frame    *cdp.CallFrame // where the stop was, for evaluating new values
}

func (s *server) stackTrace(req *request) (any, error) {
	var args godap.StackTraceArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pause == nil {
		return nil, errors.New("the program is not paused")
	}
	frames := s.pause.frames
	total := len(frames)
	start := min(max(args.StartFrame, 0), total)
	end := total
	if args.Levels > 0 {
		end = min(start+args.Levels, total)
	}
	return godap.StackTraceResponseBody{StackFrames: frames[start:end], TotalFrames: total}, nil
}

func (s *server) frameLocked(id int) (*cdp.CallFrame, error) {
	h, ok := s.handles[id].(*frameHandle)
	if !ok {
		return nil, fmt.Errorf("no frame %d in the current stop", id)
	}
	if h.call == nil {
		return nil, errors.New("an async caller's frame has no scopes: it is not running now")
	}
	return h.call, nil
}

// scopes groups a frame's scope chain for a reader: Local (the function's
// scope with the blocks inside it), Closure, Module, Script and Global
// (expensive: it holds every global).
func (s *server) scopes(req *request) (any, error) {
	var args godap.ScopesArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	frame, err := s.frameLocked(args.FrameId)
	if err != nil {
		if _, ok := s.handles[args.FrameId].(*frameHandle); ok {
			return godap.ScopesResponseBody{Scopes: []godap.Scope{}}, nil
		}
		return nil, err
	}
	chain := frame.ScopeChain
	firstLocal := -1
	for i, sc := range chain {
		if sc.Type == "local" {
			firstLocal = i
			break
		}
		if sc.Type != "block" && sc.Type != "catch" && sc.Type != "with" {
			break
		}
	}
	var out []godap.Scope
	rest := chain
	if firstLocal >= 0 {
		local := &scopeHandle{frame: frame}
		for _, sc := range chain[:firstLocal+1] {
			local.parts = append(local.parts, sc.Object.ObjectID)
		}
		out = append(out, godap.Scope{Name: "Local", PresentationHint: "locals", VariablesReference: s.newHandleLocked(local)})
		rest = chain[firstLocal+1:]
	}
	blocks := &scopeHandle{frame: frame}
	for _, sc := range rest {
		h := &scopeHandle{frame: frame, parts: []string{sc.Object.ObjectID}}
		switch sc.Type {
		case "block", "catch", "with":
			// Blocks at a module's top level, outside any function.
			blocks.parts = append(blocks.parts, sc.Object.ObjectID)
			continue
		case "closure":
			name := "Closure"
			if sc.Name != "" {
				name += " (" + sc.Name + ")"
			}
			out = append(out, godap.Scope{Name: name, VariablesReference: s.newHandleLocked(h)})
		case "module":
			h.parts = append(blocks.parts, h.parts...)
			blocks.parts = nil
			hint := ""
			if firstLocal < 0 {
				hint = "locals"
			}
			out = append(out, godap.Scope{Name: "Module", PresentationHint: hint, VariablesReference: s.newHandleLocked(h)})
		case "script":
			out = append(out, godap.Scope{Name: "Script", VariablesReference: s.newHandleLocked(h)})
		case "global":
			out = append(out, godap.Scope{Name: "Global", VariablesReference: s.newHandleLocked(h), Expensive: true})
		case "eval", "wasm-expression-stack":
			continue
		default:
			out = append(out, godap.Scope{Name: sc.Type, VariablesReference: s.newHandleLocked(h)})
		}
	}
	if len(blocks.parts) > 0 {
		out = append([]godap.Scope{{Name: "Block", PresentationHint: "locals", VariablesReference: s.newHandleLocked(blocks)}}, out...)
	}
	if st := s.pause; st != nil && st.returnValue != nil && len(st.ev.CallFrames) > 0 && frame == &st.ev.CallFrames[0] {
		for _, sc := range out {
			if h, ok := s.handles[sc.VariablesReference].(*scopeHandle); ok && sc.PresentationHint == "locals" {
				h.returned, h.returnedBy = st.returnValue, st.returnOf
				break
			}
		}
	}
	return godap.ScopesResponseBody{Scopes: out}, nil
}

func (s *server) variables(req *request) (any, error) {
	var args godap.VariablesArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	s.mu.Lock()
	h := s.handles[args.VariablesReference]
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	var vars []godap.Variable
	var err error
	switch h := h.(type) {
	case *scopeHandle:
		vars, err = s.scopeVariables(ctx, h)
	case *objectHandle:
		vars, err = s.objectVariables(ctx, h)
	default:
		return nil, fmt.Errorf("no variables reference %d in the current stop", args.VariablesReference)
	}
	if err != nil {
		return nil, err
	}
	if args.Filter == "indexed" && args.Count > 0 {
		start := min(args.Start, len(vars))
		vars = vars[start:min(start+args.Count, len(vars))]
	}
	return godap.VariablesResponseBody{Variables: vars}, nil
}

// getProperties reads the own properties of several objects, pipelined.
func (s *server) getProperties(ctx context.Context, ids []string) ([]cdp.GetPropertiesResult, error) {
	pending := make([]*cdp.Pending, len(ids))
	for i, id := range ids {
		p, err := s.cdp.Send("Runtime.getProperties", map[string]any{"objectId": id, "ownProperties": true, "generatePreview": true})
		if err != nil {
			return nil, err
		}
		pending[i] = p
	}
	out := make([]cdp.GetPropertiesResult, len(ids))
	for i, p := range pending {
		if err := p.Wait(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// scopeVariables lists a scope's variables; an inner scope's variable
// hides an outer one of the same name, as in the program.
func (s *server) scopeVariables(ctx context.Context, h *scopeHandle) ([]godap.Variable, error) {
	results, err := s.getProperties(ctx, h.parts)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	vars := []godap.Variable{}
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.returned != nil {
		vars = append(vars, s.variableLocked("(return) "+h.returnedBy, h.returned, h.frame))
	}
	for _, r := range results {
		for _, p := range r.Result {
			if seen[p.Name] || p.Value == nil {
				continue
			}
			seen[p.Name] = true
			vars = append(vars, s.variableLocked(p.Name, p.Value, h.frame))
		}
	}
	return vars, nil
}

// hiddenInternal are engine-internal properties that only add noise.
var hiddenInternal = map[string]bool{"[[Prototype]]": true, "[[Scopes]]": true, "[[FunctionLocation]]": true, "[[IsRevoked]]": true}

// objectVariables lists a value's own properties, private fields and the
// engine's internal slots that carry its contents ([[Entries]] of a Map,
// [[PromiseResult]]). Getters are listed, not invoked.
func (s *server) objectVariables(ctx context.Context, h *objectHandle) ([]godap.Variable, error) {
	results, err := s.getProperties(ctx, []string{h.objectID})
	if err != nil {
		return nil, err
	}
	r := results[0]
	vars := []godap.Variable{}
	s.mu.Lock()
	defer s.mu.Unlock()
	add := func(p cdp.PropertyDescriptor) {
		switch {
		case p.Name == "__proto__":
		case p.Value != nil:
			vars = append(vars, s.variableLocked(p.Name, p.Value, h.frame))
		case p.Get != nil && p.Get.Type != "undefined":
			vars = append(vars, godap.Variable{Name: p.Name, Value: "(getter)", Type: "accessor"})
		}
	}
	for _, p := range r.Result {
		add(p)
	}
	for _, p := range r.PrivateProperties {
		add(p)
	}
	for _, p := range r.InternalProperties {
		if !hiddenInternal[p.Name] && p.Value != nil {
			vars = append(vars, s.variableLocked(p.Name, p.Value, h.frame))
		}
	}
	return vars, nil
}

func (s *server) variableLocked(name string, o *cdp.RemoteObject, frame *cdp.CallFrame) godap.Variable {
	value, typ, children := formatValue(o)
	v := godap.Variable{Name: name, Value: value, Type: typ}
	if children {
		v.VariablesReference = s.newHandleLocked(&objectHandle{objectID: o.ObjectID, frame: frame})
	}
	return v
}

// evaluateArguments are DAP's, with the built-in adapters' bound on the
// evaluation's time (adapter.EvaluateTimeoutArgument).
type evaluateArguments struct {
	godap.EvaluateArguments
	TimeoutMs int64 `json:"timeout"`
}

// terminateGrace is how long past an evaluation's limit V8 is given to stop
// it by itself before the adapter terminates it.
const terminateGrace = time.Second

func (s *server) evaluate(req *request) (any, error) {
	var args evaluateArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	limit := cdp.DefaultTimeout
	if args.TimeoutMs > 0 {
		limit = time.Duration(args.TimeoutMs) * time.Millisecond
	}
	var frame *cdp.CallFrame
	if args.FrameId != 0 {
		s.mu.Lock()
		f, err := s.frameLocked(args.FrameId)
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		frame = f
	}
	res, err := s.evalWithin(frame, args.Expression, limit)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	v := s.variableLocked("", &res, frame)
	s.mu.Unlock()
	return godap.EvaluateResponseBody{Result: v.Value, Type: v.Type, VariablesReference: v.VariablesReference}, nil
}

// evalWithin evaluates an expression that must finish within limit. V8
// stops it at limit itself (the evaluate's timeout parameter); should it
// not answer even then, Runtime.terminateExecution ends the evaluation.
// Either way the program stays paused where it was.
func (s *server) evalWithin(frame *cdp.CallFrame, expr string, limit time.Duration) (cdp.RemoteObject, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit+terminateGrace)
	defer cancel()
	began := time.Now()
	res, err := s.evalIn(ctx, frame, expr, limit)
	if err == nil || time.Since(began) < limit {
		return res, err
	}
	if ctx.Err() != nil {
		terminated, terr := s.cdp.Send("Runtime.terminateExecution", nil)
		if terr == nil {
			tctx, tcancel := context.WithTimeout(context.Background(), terminateGrace)
			terr = terminated.Wait(tctx, nil)
			tcancel()
		}
		if terr != nil {
			return cdp.RemoteObject{}, fmt.Errorf("the evaluation ran past %v and could not be terminated: %w", limit, terr)
		}
	}
	return cdp.RemoteObject{}, fmt.Errorf("terminated at its limit: %w", err)
}

// evalIn evaluates an expression on a frame, or globally when frame is nil;
// a limit above zero makes V8 terminate it once that much time has passed.
func (s *server) evalIn(ctx context.Context, frame *cdp.CallFrame, expr string, limit time.Duration) (cdp.RemoteObject, error) {
	params := map[string]any{"expression": expr, "generatePreview": true, "includeCommandLineAPI": true}
	if limit > 0 {
		params["timeout"] = limit.Milliseconds()
	}
	var res cdp.EvaluateResult
	var err error
	if frame != nil {
		params["callFrameId"] = frame.CallFrameID
		err = s.cdp.Call(ctx, "Debugger.evaluateOnCallFrame", params, &res)
	} else {
		err = s.cdp.Call(ctx, "Runtime.evaluate", params, &res)
	}
	if err != nil {
		return cdp.RemoteObject{}, err
	}
	if d := res.ExceptionDetails; d != nil {
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg, _, _ = strings.Cut(d.Exception.Description, "\n")
		} else if d.Exception != nil {
			msg, _, _ = formatValue(d.Exception)
			msg = "Uncaught " + msg
		}
		return cdp.RemoteObject{}, errors.New(msg)
	}
	return res.Result, nil
}

var identifier = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*$`)

// setVariable assigns to a variable of a scope (by evaluating the
// assignment in the frame, which reaches block-scoped bindings too) or to
// a property of a value.
func (s *server) setVariable(req *request) (any, error) {
	var args godap.SetVariableArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), cdp.DefaultTimeout)
	defer cancel()
	s.mu.Lock()
	h := s.handles[args.VariablesReference]
	var top *cdp.CallFrame
	if s.pause != nil && len(s.pause.ev.CallFrames) > 0 {
		top = &s.pause.ev.CallFrames[0]
	}
	s.mu.Unlock()
	var res cdp.RemoteObject
	switch h := h.(type) {
	case *scopeHandle:
		if !identifier.MatchString(args.Name) {
			return nil, fmt.Errorf("%q is not a variable name", args.Name)
		}
		r, err := s.evalIn(ctx, h.frame, args.Name+" = ("+args.Value+")", 0)
		if err != nil {
			return nil, err
		}
		res = r
	case *objectHandle:
		frame := h.frame
		if frame == nil {
			frame = top
		}
		val, err := s.evalIn(ctx, frame, args.Value, 0)
		if err != nil {
			return nil, err
		}
		key, _ := json.Marshal(args.Name)
		var out cdp.EvaluateResult
		err = s.cdp.Call(ctx, "Runtime.callFunctionOn", map[string]any{
			"objectId":            h.objectID,
			"functionDeclaration": "function (k, v) { this[k] = v; return this[k]; }",
			"arguments":           []cdp.CallArgument{{Value: key}, val.Argument()},
			"generatePreview":     true,
		}, &out)
		if err != nil {
			return nil, err
		}
		if out.ExceptionDetails != nil {
			return nil, fmt.Errorf("cannot set %s: %s", args.Name, out.ExceptionDetails.Text)
		}
		res = out.Result
	default:
		return nil, fmt.Errorf("no variables reference %d in the current stop", args.VariablesReference)
	}
	s.mu.Lock()
	v := s.variableLocked(args.Name, &res, top)
	s.mu.Unlock()
	return godap.SetVariableResponseBody{Value: v.Value, Type: v.Type, VariablesReference: v.VariablesReference}, nil
}
