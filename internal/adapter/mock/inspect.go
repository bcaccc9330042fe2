package mock

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"
)

// handle is what a variablesReference stands for. Handles live until the
// next resume, as DAP allows.
type handle struct {
	fr        *frame // where setVariable evaluates new values
	container value  // *dict (a scope or a map) or *list
	path      string // the container's evaluateName; "" for a scope
}

// pausedState returns the stop being inspected, or why there is none. The
// program's goroutine is blocked in stopHere while it exists, so its data
// may be read and changed here until the next resume.
func (s *server) pausedState() (*stopState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != paused {
		return nil, stateError(s.state)
	}
	return s.stop, nil
}

// frameByID finds a frame of the current stop; 0 means the innermost.
func (st *stopState) frameByID(id int) (*frame, error) {
	if id == 0 {
		return st.frames[0].fr, nil
	}
	for _, e := range st.frames {
		if e.id == id {
			return e.fr, nil
		}
	}
	return nil, fmt.Errorf("unknown frameId %d (frame ids are valid only until the program resumes)", id)
}

func (s *server) newHandle(h *handle) int {
	s.nextRef++
	s.handles[s.nextRef] = h
	return s.nextRef
}

// describe fills a value's display fields, giving non-empty containers a
// variablesReference.
func (s *server) describe(fr *frame, v value, path string) (shown, typ string, ref, named, indexed int) {
	switch c := v.(type) {
	case *list:
		indexed = len(c.items)
	case *dict:
		named = len(c.keys)
	}
	if named+indexed > 0 {
		ref = s.newHandle(&handle{fr: fr, container: v, path: path})
	}
	return show(v), typeName(v), ref, named, indexed
}

func (s *server) variable(fr *frame, name string, v value, path string) godap.Variable {
	shown, typ, ref, named, indexed := s.describe(fr, v, path)
	return godap.Variable{Name: name, Value: shown, Type: typ, EvaluateName: path,
		VariablesReference: ref, NamedVariables: named, IndexedVariables: indexed}
}

func childPath(parent, key string) string {
	switch {
	case parent == "":
		return key
	case isIdent(key):
		return parent + "." + key
	}
	return parent + "[" + strconv.Quote(key) + "]"
}

func (s *server) stackTrace(req *request) (any, error) {
	var args godap.StackTraceArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if err := checkThread(args.ThreadId); err != nil {
		return nil, err
	}
	st, err := s.pausedState()
	if err != nil {
		return nil, err
	}
	total := len(st.frames)
	start := min(max(args.StartFrame, 0), total)
	end := total
	if args.Levels > 0 {
		end = min(start+args.Levels, total)
	}
	path := st.thread.prog.path
	out := make([]godap.StackFrame, 0, end-start)
	for _, e := range st.frames[start:end] {
		out = append(out, godap.StackFrame{
			Id:     e.id,
			Name:   e.fr.name(),
			Source: &godap.Source{Name: filepath.Base(path), Path: path},
			Line:   e.fr.line,
			Column: 1,
		})
	}
	return godap.StackTraceResponseBody{StackFrames: out, TotalFrames: total}, nil
}

// scopes gives a function frame its Locals and the Globals; at the top
// level the globals are the locals.
func (s *server) scopes(req *request) (any, error) {
	var args godap.ScopesArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	st, err := s.pausedState()
	if err != nil {
		return nil, err
	}
	fr, err := st.frameByID(args.FrameId)
	if err != nil {
		return nil, err
	}
	out := []godap.Scope{{
		Name:               "Locals",
		PresentationHint:   "locals",
		VariablesReference: s.newHandle(&handle{fr: fr, container: fr.locals}),
		NamedVariables:     len(fr.locals.keys),
	}}
	if fr.fn != nil {
		globals := st.thread.globals
		out = append(out, godap.Scope{
			Name:               "Globals",
			VariablesReference: s.newHandle(&handle{fr: fr, container: globals}),
			NamedVariables:     len(globals.keys),
		})
	}
	return godap.ScopesResponseBody{Scopes: out}, nil
}

func (s *server) lookupHandle(ref int) (*stopState, *handle, error) {
	st, err := s.pausedState()
	if err != nil {
		return nil, nil, err
	}
	h := s.handles[ref]
	if h == nil {
		return nil, nil, fmt.Errorf("unknown variablesReference %d (references are valid only until the program resumes)", ref)
	}
	return st, h, nil
}

func (s *server) variables(req *request) (any, error) {
	var args godap.VariablesArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	_, h, err := s.lookupHandle(args.VariablesReference)
	if err != nil {
		return nil, err
	}
	out := []godap.Variable{}
	switch c := h.container.(type) {
	case *dict:
		if args.Filter == "indexed" {
			break
		}
		for _, k := range c.keys {
			out = append(out, s.variable(h.fr, k, c.vals[k], childPath(h.path, k)))
		}
	case *list:
		if args.Filter == "named" {
			break
		}
		n := len(c.items)
		start := min(max(args.Start, 0), n)
		end := n
		if args.Count > 0 {
			end = min(start+args.Count, n)
		}
		for i := start; i < end; i++ {
			out = append(out, s.variable(h.fr, fmt.Sprintf("[%d]", i), c.items[i], fmt.Sprintf("%s[%d]", h.path, i)))
		}
	}
	return godap.VariablesResponseBody{Variables: out}, nil
}

// evaluate runs an expression in a frame, whatever the context: the mock
// language has no side-effect-free subset to fall back on for hovers.
func (s *server) evaluate(req *request) (any, error) {
	var args godap.EvaluateArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	st, err := s.pausedState()
	if err != nil {
		return nil, fmt.Errorf("cannot evaluate %q: %v", args.Expression, err)
	}
	fr, err := st.frameByID(args.FrameId)
	if err != nil {
		return nil, err
	}
	x, err := parseExpression(args.Expression)
	if err != nil {
		return nil, fmt.Errorf("syntax error in %q: %v", args.Expression, err)
	}
	v, err := evalIn(st.thread.prog, st.thread.globals, fr, x, s.Output)
	if err != nil {
		return nil, err
	}
	path := ""
	if isPath(x) {
		path = strings.TrimSpace(args.Expression)
	}
	shown, typ, ref, named, indexed := s.describe(fr, v, path)
	return godap.EvaluateResponseBody{Result: shown, Type: typ, VariablesReference: ref,
		NamedVariables: named, IndexedVariables: indexed}, nil
}

// setVariable changes an existing variable, map key or list element; the
// value is an expression evaluated in the frame the container was reached
// from.
func (s *server) setVariable(req *request) (any, error) {
	var args godap.SetVariableArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	st, h, err := s.lookupHandle(args.VariablesReference)
	if err != nil {
		return nil, err
	}
	x, err := parseExpression(args.Value)
	if err != nil {
		return nil, fmt.Errorf("syntax error in %q: %v", args.Value, err)
	}
	v, err := evalIn(st.thread.prog, st.thread.globals, h.fr, x, s.Output)
	if err != nil {
		return nil, err
	}
	switch c := h.container.(type) {
	case *dict:
		if _, ok := c.get(args.Name); !ok {
			return nil, fmt.Errorf("no variable or key named %q here", args.Name)
		}
		c.set(args.Name, v)
	case *list:
		i, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(args.Name, "["), "]"))
		if err != nil || i < 0 || i >= len(c.items) {
			return nil, fmt.Errorf("no element %s in this list of %d", args.Name, len(c.items))
		}
		c.items[i] = v
	}
	shown, typ, ref, named, indexed := s.describe(h.fr, v, "")
	return godap.SetVariableResponseBody{Value: shown, Type: typ, VariablesReference: ref,
		NamedVariables: named, IndexedVariables: indexed}, nil
}

func (s *server) exceptionInfo(req *request) (any, error) {
	var args threadArgs
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if err := checkThread(args.ThreadID); err != nil {
		return nil, err
	}
	st, err := s.pausedState()
	if err != nil {
		return nil, err
	}
	r := st.info.exc
	if r == nil {
		return nil, errors.New("the thread is not stopped on an exception")
	}
	return godap.ExceptionInfoResponseBody{
		ExceptionId: r.kind(),
		Description: r.msg,
		BreakMode:   st.info.breakMode,
		Details:     &godap.ExceptionDetails{Message: r.msg, TypeName: r.kind(), StackTrace: r.trace},
	}, nil
}
