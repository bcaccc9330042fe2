package mock

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// frame is one activation: the module's or a function call's.
type frame struct {
	fn     *funcStmt // nil for the top level
	locals *dict     // the globals themselves at the top level
	line   int       // the statement being executed
	// entered is set at the frame's first statement start, where function
	// breakpoints apply.
	entered bool
}

func (f *frame) name() string {
	if f.fn == nil {
		return "<module>"
	}
	return f.fn.name
}

// hooks is what a running thread reports to, at every point where a
// debugger could intervene. The program's thread reports to the server;
// code run for the debugger (evaluate, conditions) to evalHooks.
type hooks interface {
	// statement runs at each statement start, first being set on the
	// first one of a frame; it may block while the thread is stopped.
	statement(t *thread, fr *frame, first bool) error
	// exception runs once per exception, where it was raised, before the
	// stack unwinds.
	exception(t *thread, r *raised) error
	sleep(t *thread, d time.Duration) error
	// yield runs once per loop iteration.
	yield() error
	Output(category, text string)
}

// thread executes statements. Only one goroutine uses a thread at a time.
type thread struct {
	prog    *program
	globals *dict
	stack   []*frame
	hooks   hooks
}

// raised is an exception of the mock language (throw or a run-time error).
type raised struct {
	msg   string
	trace string // set where it was raised, innermost frame first
	// reported is set once the hooks have seen it, so that the frames it
	// unwinds through do not report it again.
	reported bool
}

func (r *raised) Error() string { return r.msg }

// kind is the part of the message before the colon (ValueError), as
// exceptionInfo reports it.
func (r *raised) kind() string {
	if k, _, ok := strings.Cut(r.msg, ":"); ok && isIdent(strings.TrimSpace(k)) {
		return strings.TrimSpace(k)
	}
	return "Error"
}

func throwf(format string, args ...any) *raised {
	return &raised{msg: fmt.Sprintf(format, args...)}
}

// exitSignal unwinds the stack for an exit statement.
type exitSignal struct{ code int }

func (e *exitSignal) Error() string { return fmt.Sprintf("exit %d", e.code) }

var (
	// errCrash unwinds the stack for a crash statement.
	errCrash = errors.New("crash")
	// errTerminated unwinds the stack when the debugger ends the program.
	errTerminated = errors.New("program terminated by the debugger")
)

// maxCallDepth bounds recursion, like Python's recursion limit.
const maxCallDepth = 200

func (t *thread) top() *frame { return t.stack[len(t.stack)-1] }

// run executes the top level in the thread's only frame.
func (t *thread) run() error {
	_, _, err := t.execBlock(t.top(), t.prog.top)
	return err
}

// execBlock runs statements until one returns or fails.
func (t *thread) execBlock(fr *frame, body []stmt) (value, bool, error) {
	for _, s := range body {
		ret, returned, err := t.exec(fr, s)
		if err != nil {
			if r, ok := err.(*raised); ok && !r.reported {
				r.reported = true
				r.trace = t.traceback()
				if herr := t.hooks.exception(t, r); herr != nil {
					return nil, false, herr
				}
			}
			return nil, false, err
		}
		if returned {
			return ret, true, nil
		}
	}
	return nil, false, nil
}

// enter marks a statement start: a point where the thread may stop.
func (t *thread) enter(fr *frame, line int) error {
	fr.line = line
	first := !fr.entered
	fr.entered = true
	return t.hooks.statement(t, fr, first)
}

func (t *thread) traceback() string {
	var b strings.Builder
	for i := len(t.stack) - 1; i >= 0; i-- {
		fr := t.stack[i]
		fmt.Fprintf(&b, "  at %s (%s:%d)\n", fr.name(), t.prog.path, fr.line)
	}
	return b.String()
}

func (t *thread) exec(fr *frame, s stmt) (value, bool, error) {
	if err := t.enter(fr, s.lineNo()); err != nil {
		return nil, false, err
	}
	switch s := s.(type) {
	case *assignStmt:
		v, err := t.eval(fr, s.x)
		if err != nil {
			return nil, false, err
		}
		scope := fr.locals
		if !s.define {
			if scope = t.scopeOf(fr, s.name); scope == nil {
				return nil, false, throwf("NameError: name '%s' is not defined (use let to define it)", s.name)
			}
		}
		scope.set(s.name, v)
	case *printStmt:
		v, err := t.eval(fr, s.x)
		if err != nil {
			return nil, false, err
		}
		category := "stdout"
		if s.stderr {
			category = "stderr"
		}
		t.hooks.Output(category, text(v)+"\n")
	case *funcStmt:
		// A definition: functions are known from the start.
	case *returnStmt:
		if s.x == nil {
			return nil, true, nil
		}
		v, err := t.eval(fr, s.x)
		return v, err == nil, err
	case *forStmt:
		return t.execFor(fr, s)
	case *loopStmt:
		for {
			if ret, returned, err := t.execBlock(fr, s.body); err != nil || returned {
				return ret, returned, err
			}
			if err := t.hooks.yield(); err != nil {
				return nil, false, err
			}
			if err := t.enter(fr, s.line); err != nil {
				return nil, false, err
			}
		}
	case *sleepStmt:
		ms, err := t.evalInt(fr, s.x, "sleep duration")
		if err != nil {
			return nil, false, err
		}
		if ms > 0 {
			return nil, false, t.hooks.sleep(t, time.Duration(ms)*time.Millisecond)
		}
	case *throwStmt:
		v, err := t.eval(fr, s.x)
		if err != nil {
			return nil, false, err
		}
		return nil, false, &raised{msg: text(v)}
	case *exitStmt:
		code := int64(0)
		if s.x != nil {
			var err error
			if code, err = t.evalInt(fr, s.x, "exit code"); err != nil {
				return nil, false, err
			}
		}
		return nil, false, &exitSignal{code: int(code)}
	case *crashStmt:
		return nil, false, errCrash
	case *callStmt:
		_, err := t.eval(fr, s.call)
		return nil, false, err
	}
	return nil, false, nil
}

// execFor runs a for loop. Its header line is a stop point before every
// iteration after the first and once more when the range is exhausted, as
// Python's for is, so that stepping through a loop visits the header.
func (t *thread) execFor(fr *frame, s *forStmt) (value, bool, error) {
	from, err := t.evalInt(fr, s.from, "range start")
	if err != nil {
		return nil, false, err
	}
	to, err := t.evalInt(fr, s.to, "range end")
	if err != nil {
		return nil, false, err
	}
	for i := from; i <= to; i++ {
		fr.locals.set(s.name, i)
		if ret, returned, err := t.execBlock(fr, s.body); err != nil || returned {
			return ret, returned, err
		}
		if err := t.enter(fr, s.line); err != nil {
			return nil, false, err
		}
	}
	return nil, false, nil
}

// scopeOf finds the variables that hold name: the frame's, else the globals.
func (t *thread) scopeOf(fr *frame, name string) *dict {
	if _, ok := fr.locals.get(name); ok {
		return fr.locals
	}
	if _, ok := t.globals.get(name); ok {
		return t.globals
	}
	return nil
}

func (t *thread) evalInt(fr *frame, x expr, what string) (int64, error) {
	v, err := t.eval(fr, x)
	if err != nil {
		return 0, err
	}
	n, ok := v.(int64)
	if !ok {
		return 0, throwf("TypeError: %s must be an int, not %s", what, typeName(v))
	}
	return n, nil
}

func (t *thread) eval(fr *frame, x expr) (value, error) {
	switch x := x.(type) {
	case *literal:
		return x.v, nil
	case *nameExpr:
		if scope := t.scopeOf(fr, x.name); scope != nil {
			v, _ := scope.get(x.name)
			return v, nil
		}
		if _, ok := t.prog.funcs[x.name]; ok || builtins[x.name] {
			return nil, throwf("TypeError: %s is a function; call it with (…)", x.name)
		}
		return nil, throwf("NameError: name '%s' is not defined", x.name)
	case *listExpr:
		l := &list{items: make([]value, 0, len(x.items))}
		for _, it := range x.items {
			v, err := t.eval(fr, it)
			if err != nil {
				return nil, err
			}
			l.items = append(l.items, v)
		}
		return l, nil
	case *mapExpr:
		d := newDict()
		for i, k := range x.keys {
			v, err := t.eval(fr, x.vals[i])
			if err != nil {
				return nil, err
			}
			d.set(k, v)
		}
		return d, nil
	case *memberExpr:
		base, err := t.eval(fr, x.x)
		if err != nil {
			return nil, err
		}
		return member(base, x.key)
	case *indexExpr:
		base, err := t.eval(fr, x.x)
		if err != nil {
			return nil, err
		}
		i, err := t.eval(fr, x.i)
		if err != nil {
			return nil, err
		}
		return index(base, i)
	case *callExpr:
		return t.evalCall(fr, x)
	case *unaryExpr:
		v, err := t.eval(fr, x.x)
		if err != nil {
			return nil, err
		}
		if x.op == "not" {
			return !truthy(v), nil
		}
		n, ok := v.(int64)
		if !ok {
			return nil, throwf("TypeError: bad operand type for unary -: %s", typeName(v))
		}
		return -n, nil
	case *binaryExpr:
		l, err := t.eval(fr, x.l)
		if err != nil {
			return nil, err
		}
		switch x.op {
		case "and":
			if !truthy(l) {
				return false, nil
			}
		case "or":
			if truthy(l) {
				return true, nil
			}
		}
		r, err := t.eval(fr, x.r)
		if err != nil {
			return nil, err
		}
		return binop(x.op, l, r)
	}
	return nil, throwf("RuntimeError: unknown expression %T", x)
}

func member(base value, key string) (value, error) {
	d, ok := base.(*dict)
	if !ok {
		return nil, throwf("TypeError: %s has no key %s (only maps have keys)", typeName(base), key)
	}
	v, ok := d.get(key)
	if !ok {
		return nil, throwf("KeyError: '%s'", key)
	}
	return v, nil
}

func index(base, i value) (value, error) {
	switch b := base.(type) {
	case *list:
		n, ok := i.(int64)
		if !ok {
			return nil, throwf("TypeError: list indices must be int, not %s", typeName(i))
		}
		if n < 0 || n >= int64(len(b.items)) {
			return nil, throwf("IndexError: list index %d out of range (length %d)", n, len(b.items))
		}
		return b.items[n], nil
	case *dict:
		k, ok := i.(string)
		if !ok {
			return nil, throwf("TypeError: map keys are str, not %s", typeName(i))
		}
		return member(b, k)
	}
	return nil, throwf("TypeError: %s cannot be indexed", typeName(base))
}

func (t *thread) evalCall(fr *frame, x *callExpr) (value, error) {
	args := make([]value, 0, len(x.args))
	for _, a := range x.args {
		v, err := t.eval(fr, a)
		if err != nil {
			return nil, err
		}
		args = append(args, v)
	}
	if fn, ok := t.prog.funcs[x.fn]; ok {
		return t.call(fn, args)
	}
	if !builtins[x.fn] {
		return nil, throwf("NameError: name '%s' is not defined", x.fn)
	}
	if len(args) != 1 {
		return nil, throwf("TypeError: %s() takes 1 argument (%d given)", x.fn, len(args))
	}
	if x.fn == "str" {
		return text(args[0]), nil
	}
	n, ok := length(args[0])
	if !ok {
		return nil, throwf("TypeError: %s has no len()", typeName(args[0]))
	}
	return n, nil
}

func (t *thread) call(fn *funcStmt, args []value) (value, error) {
	if len(args) != len(fn.params) {
		return nil, throwf("TypeError: %s() takes %d arguments (%d given)", fn.name, len(fn.params), len(args))
	}
	if len(t.stack) >= maxCallDepth {
		return nil, throwf("RecursionError: maximum call depth (%d) exceeded", maxCallDepth)
	}
	fr := &frame{fn: fn, locals: newDict()}
	for i, p := range fn.params {
		fr.locals.set(p, args[i])
	}
	t.stack = append(t.stack, fr)
	ret, _, err := t.execBlock(fr, fn.body)
	t.stack = t.stack[:len(t.stack)-1]
	return ret, err
}

func binop(op string, l, r value) (value, error) {
	switch op {
	case "==":
		return equal(l, r, 0), nil
	case "!=":
		return !equal(l, r, 0), nil
	case "and", "or":
		return truthy(r), nil
	}
	if ls, ok := l.(string); ok {
		if rs, ok := r.(string); ok {
			switch op {
			case "+":
				return ls + rs, nil
			case "<":
				return ls < rs, nil
			case ">":
				return ls > rs, nil
			case "<=":
				return ls <= rs, nil
			case ">=":
				return ls >= rs, nil
			}
		}
	}
	a, aok := l.(int64)
	b, bok := r.(int64)
	if !aok || !bok {
		return nil, throwf("TypeError: unsupported operand types for %s: %s and %s", op, typeName(l), typeName(r))
	}
	switch op {
	case "+":
		return a + b, nil
	case "-":
		return a - b, nil
	case "*":
		return a * b, nil
	case "/", "%":
		if b == 0 {
			return nil, throwf("ZeroDivisionError: division by zero")
		}
		if op == "/" {
			return a / b, nil
		}
		return a % b, nil
	case "<":
		return a < b, nil
	case ">":
		return a > b, nil
	case "<=":
		return a <= b, nil
	}
	return a >= b, nil
}

// evalBudget bounds the statements that code run for the debugger may
// execute, so that evaluating a call of a looping function cannot hang the
// adapter.
const evalBudget = 10000

// evalHooks runs code on behalf of the debugger: it never stops and is
// bounded.
type evalHooks struct {
	steps int
	out   func(category, text string)
}

func (h *evalHooks) statement(*thread, *frame, bool) error {
	h.steps++
	if h.steps > evalBudget {
		return throwf("RuntimeError: evaluation gave up after %d statements", evalBudget)
	}
	return nil
}

func (h *evalHooks) exception(*thread, *raised) error { return nil }

func (h *evalHooks) sleep(*thread, time.Duration) error {
	return throwf("RuntimeError: sleep is not allowed while evaluating")
}

func (h *evalHooks) yield() error { return nil }

func (h *evalHooks) Output(category, text string) { h.out(category, text) }

// evalIn evaluates x in fr for the debugger (evaluate, breakpoint
// conditions, log messages), with the program's globals.
func evalIn(prog *program, globals *dict, fr *frame, x expr, out func(category, text string)) (value, error) {
	t := &thread{prog: prog, globals: globals, stack: []*frame{fr}, hooks: &evalHooks{out: out}}
	v, err := t.eval(fr, x)
	var exit *exitSignal
	switch {
	case errors.As(err, &exit):
		return nil, errors.New("exit is not allowed while evaluating")
	case errors.Is(err, errCrash):
		return nil, errors.New("crash is not allowed while evaluating")
	}
	return v, err
}
