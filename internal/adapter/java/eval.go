package java

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// The evaluator understands a small part of Java: local variables and
// fields (this implied), field chains, static fields and methods of
// classes (statics.go), array indexing and .length,
// literals (numbers, strings, chars, true, false, null), arithmetic,
// comparisons, && || !, parentheses, and calls of methods by argument
// count through JDWP's InvokeMethod on the stopped thread. Anything else
// is refused with a message saying what is supported.

// frameCtx is where an expression is evaluated.
type frameCtx struct {
	s      *server
	ctx    context.Context
	thread jdwp.ObjectID
	frame  jdwp.FrameID
	depth  int
	gen    uint64
	loc    jdwp.Location
	locals []localVar
	loaded bool
}

// node is a parsed expression: evaluating it yields a value.
type node func(fc *frameCtx) (jdwp.Value, error)

var errUnsupported = errors.New("supported: locals, fields (a.b.c), array[i] and .length, literals, + - * / %, comparisons, instanceof, && || !, method calls like list.size() or s.charAt(0), and statics like Math.max(a, b) or Integer.MAX_VALUE")

func (s *server) evaluate(ctx context.Context, req *request) (any, error) {
	var args struct {
		Expression string `json:"expression"`
		FrameID    int    `json:"frameId"`
		// TimeoutMs is adapter.EvaluateTimeoutArgument.
		TimeoutMs int64 `json:"timeout"`
	}
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	if args.TimeoutMs > 0 {
		// JDWP cannot end an invoked method: ThreadReference.Stop is held
		// back while the thread is at the event it stopped at, and a held
		// Stop would be thrown into the program when it resumes. So a
		// runaway call is only given up on at the limit, which frees this
		// adapter for the other requests; the thread keeps running it.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(s.ctx, time.Duration(args.TimeoutMs)*time.Millisecond)
		defer cancel()
	}
	fc, err := s.frameFor(ctx, args.FrameID)
	if err != nil {
		return nil, err
	}
	v, err := fc.eval(args.Expression)
	if err != nil {
		return nil, err
	}
	r := s.render(ctx, fc.thread, v)
	return godap.EvaluateResponseBody{Result: r.text, Type: r.typ, VariablesReference: r.ref, IndexedVariables: r.indexed}, nil
}

// frameFor finds the frame of a frame id, or the top frame of the stop.
func (s *server) frameFor(ctx context.Context, frameID int) (*frameCtx, error) {
	if frameID > 0 {
		h, err := s.handle(frameID)
		if err != nil {
			return nil, err
		}
		if h.kind != hFrame {
			return nil, fmt.Errorf("unknown frame %d", frameID)
		}
		return &frameCtx{s: s, ctx: ctx, thread: h.thread, frame: h.frame, depth: h.depth, gen: h.gen, loc: h.loc}, nil
	}
	s.mu.Lock()
	st := s.cur
	s.mu.Unlock()
	if st == nil {
		return nil, errors.New("the program is running: expressions are evaluated while it is paused")
	}
	return s.topFrame(ctx, st.thread, 0)
}

func (s *server) topFrame(ctx context.Context, thread jdwp.ObjectID, index int) (*frameCtx, error) {
	if d := s.stopDataFor(thread); d != nil {
		frames, gen, err := d.allFrames(ctx)
		if err != nil || index >= len(frames) {
			return nil, fmt.Errorf("no frame %d on the thread: %v", index, err)
		}
		return &frameCtx{s: s, ctx: ctx, thread: thread, frame: frames[index].ID, depth: index, gen: gen, loc: frames[index].Location}, nil
	}
	gen := s.invokeGen.Load()
	frames, err := s.vm.Frames(ctx, thread, int32(index), 1)
	if err != nil || len(frames) == 0 {
		return nil, fmt.Errorf("no frame %d on the thread: %v", index, err)
	}
	return &frameCtx{s: s, ctx: ctx, thread: thread, frame: frames[0].ID, depth: index, gen: gen, loc: frames[0].Location}, nil
}

// evalAt evaluates an expression in a frame of a thread stopped by an event.
func (s *server) evalAt(ctx context.Context, thread jdwp.ObjectID, frame int, expr string) (jdwp.Value, error) {
	fc, err := s.topFrame(ctx, thread, frame)
	if err != nil {
		return jdwp.Value{}, err
	}
	return fc.eval(expr)
}

// quotedSpec ends a log message's {expression,q}: the value as evaluate
// shows a string (quoted, escaped) and on one line whatever it holds, the
// form tracepoints collect in. No Java expression ends in ",q".
// docs/adapter-quirks.md, jvm-9.
const quotedSpec = ",q"

// interpolate fills a log message's {expression} and {expression,q} parts.
func (s *server) interpolate(ctx context.Context, thread jdwp.ObjectID, msg string) string {
	fc, err := s.topFrame(ctx, thread, 0)
	if err != nil {
		return msg
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(msg, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(msg[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(msg[:open])
		expr := msg[open+1 : open+end]
		expr, quoted := strings.CutSuffix(expr, quotedSpec)
		switch v, err := fc.eval(expr); {
		case err != nil && quoted:
			b.WriteString(oneLine("<" + err.Error() + ">"))
		case err != nil:
			b.WriteString("<" + err.Error() + ">")
		case quoted:
			b.WriteString(fc.quotedText(v))
		default:
			b.WriteString(fc.text(v))
		}
		msg = msg[open+end+1:]
	}
	b.WriteString(msg)
	return b.String()
}

// truthy is a condition's verdict: a true boolean.
func truthy(v jdwp.Value) bool { return v.Tag == jdwp.TagBoolean && v.Prim != 0 }

func (fc *frameCtx) eval(expr string) (jdwp.Value, error) {
	toks, err := lex(expr)
	if err != nil {
		return jdwp.Value{}, err
	}
	p := &parser{toks: toks}
	n, err := p.expr()
	if err != nil {
		return jdwp.Value{}, err
	}
	if p.peek().kind != tEOF {
		return jdwp.Value{}, fmt.Errorf("unexpected %q in %q; %w", p.peek().text, expr, errUnsupported)
	}
	return n(fc)
}

// text is a value as string concatenation shows it.
func (fc *frameCtx) text(v jdwp.Value) string {
	switch {
	case !v.IsObject():
		return primitiveText(v)
	case v.Object == 0:
		return "null"
	case v.Tag == jdwp.TagString:
		s, err := fc.s.stringValue(fc.ctx, v.Object)
		if err == nil {
			return s
		}
	}
	if str, err := fc.s.invoke(fc.ctx, fc.thread, v, "toString"); err == nil && str.Object != 0 {
		if s, err := fc.s.vm.StringValue(fc.ctx, str.Object); err == nil {
			return s
		}
	}
	return fc.s.shortText(fc.ctx, v)
}

// quotedText is a value on one line, as a stop's variables show it
// (render: a string quoted, an array or collection with its size and first
// elements, an object with its first fields), with its control characters
// escaped: the form tracepoints collect in, so that a trace row and a
// snapshot render one value alike.
func (fc *frameCtx) quotedText(v jdwp.Value) string {
	return oneLine(fc.s.preview(fc.ctx, fc.thread, v))
}

// oneLine escapes the control characters of a text (a toString with
// newlines, a separator byte), Go-style, leaving the rest as it is.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lookup resolves a bare name: a local, a field of this, a static field
// of the frame's class.
func (fc *frameCtx) lookup(name string) (jdwp.Value, error) {
	if !fc.loaded {
		lv, err := fc.s.localsAt(fc.ctx, fc.thread, fc.depth, fc.loc, fc.frameID)
		if err != nil && !errors.Is(err, errNoDebugInfo) {
			return jdwp.Value{}, err
		}
		fc.locals, fc.loaded = lv, true
	}
	var this jdwp.Value
	for _, l := range fc.locals {
		if l.name == name {
			return l.value, nil
		}
		if l.name == "this" {
			this = l.value
		}
	}
	if this.Object != 0 {
		if v, err := fc.field(this, name); err == nil {
			return v, nil
		}
	}
	if decl, f, ok := fc.s.types.findField(fc.ctx, fc.loc.Class, name); ok && f.Static() {
		vals, err := fc.s.vm.StaticValues(fc.ctx, decl, []jdwp.FieldID{f.ID})
		if err == nil && len(vals) == 1 {
			return vals[0], nil
		}
	}
	if _, err := fc.s.types.variableTable(fc.ctx, fc.loc.Class, fc.loc.Method); jdwp.IsCode(err, jdwp.ErrAbsentInformation) {
		return jdwp.Value{}, fmt.Errorf("unknown name %s (%w)", name, errNoDebugInfo)
	}
	return jdwp.Value{}, fmt.Errorf("unknown name %s: not a local variable or field here", name)
}

// frameID is the frame's current id (invocations invalidate ids).
func (fc *frameCtx) frameID() (jdwp.FrameID, error) {
	id, err := fc.s.frameID(fc.ctx, fc.thread, fc.depth, fc.frame, fc.gen)
	if err == nil {
		fc.frame, fc.gen = id, fc.s.invokeGen.Load()
	}
	return id, err
}

// field reads obj.name (arrays: length).
func (fc *frameCtx) field(obj jdwp.Value, name string) (jdwp.Value, error) {
	if !obj.IsObject() {
		return jdwp.Value{}, fmt.Errorf("%s is a primitive and has no field %s", primitiveText(obj), name)
	}
	if obj.Object == 0 {
		return jdwp.Value{}, fmt.Errorf("null has no field %s (NullPointerException)", name)
	}
	if obj.Tag == jdwp.TagArray && name == "length" {
		n, err := fc.s.arrayLength(fc.ctx, obj.Object)
		return jdwp.IntValue(int32(n)), err
	}
	class, err := fc.s.objectClass(fc.ctx, obj.Object)
	if err != nil {
		return jdwp.Value{}, fmt.Errorf("field %s: %w", name, err)
	}
	decl, f, ok := fc.s.types.findField(fc.ctx, class, name)
	if !ok {
		return jdwp.Value{}, fmt.Errorf("%s has no field %s", fc.s.types.className(fc.ctx, class), name)
	}
	var vals []jdwp.Value
	if f.Static() {
		vals, err = fc.s.vm.StaticValues(fc.ctx, decl, []jdwp.FieldID{f.ID})
	} else {
		vals, err = fc.s.vm.FieldValues(fc.ctx, obj.Object, []jdwp.FieldID{f.ID})
	}
	if err != nil || len(vals) != 1 {
		return jdwp.Value{}, fmt.Errorf("field %s: %v", name, err)
	}
	return vals[0], nil
}

// instanceOf is Java's instanceof: false for null, else whether the
// object's class, one of its superclasses or one of their interfaces is
// the type named (simply, "Outer.Inner", or fully qualified).
func (fc *frameCtx) instanceOf(v jdwp.Value, name string) (jdwp.Value, error) {
	if !v.IsObject() {
		return jdwp.Value{}, fmt.Errorf("instanceof needs an object, got the primitive %s", primitiveText(v))
	}
	if v.Object == 0 {
		return jdwp.BoolValue(false), nil
	}
	class, err := fc.s.objectClass(fc.ctx, v.Object)
	if err != nil {
		return jdwp.Value{}, fmt.Errorf("instanceof %s: %w", name, err)
	}
	for super := range fc.s.types.implements(fc.ctx, class) {
		if namesType(super, name) {
			return jdwp.BoolValue(true), nil
		}
	}
	return jdwp.BoolValue(false), nil
}

// namesType reports whether name, as written in source, names the class
// className ("java.util.List", "Outer$Inner"): in full, or by its trailing
// simple or nested-qualified part, as an import would let it be written.
func namesType(className, name string) bool {
	dotted := strings.ReplaceAll(className, "$", ".")
	return dotted == name || strings.HasSuffix(dotted, "."+name)
}

// call invokes a method on obj, or, when obj is nil, on this or the
// frame's class.
func (fc *frameCtx) call(obj *jdwp.Value, name string, args []jdwp.Value) (jdwp.Value, error) {
	if obj != nil {
		return fc.s.invoke(fc.ctx, fc.thread, *obj, name, args...)
	}
	frame, err := fc.frameID()
	if err != nil {
		return jdwp.Value{}, err
	}
	this, err := fc.s.vm.ThisObject(fc.ctx, fc.thread, frame)
	if err == nil && this.Object != 0 {
		return fc.s.invoke(fc.ctx, fc.thread, this, name, args...)
	}
	decl, m, err := fc.s.types.findMethod(fc.ctx, fc.loc.Class, name, len(args))
	if err != nil {
		return jdwp.Value{}, err
	}
	return fc.invokeStatic(decl, m, args)
}

func (fc *frameCtx) index(arr, idx jdwp.Value) (jdwp.Value, error) {
	if arr.Tag != jdwp.TagArray {
		if arr.IsObject() && arr.Object != 0 {
			return fc.s.invoke(fc.ctx, fc.thread, arr, "get", idx)
		}
		return jdwp.Value{}, errors.New("indexing needs an array or a List")
	}
	if arr.Object == 0 {
		return jdwp.Value{}, errors.New("indexing null (NullPointerException)")
	}
	if !isIntegral(idx) {
		return jdwp.Value{}, errors.New("an array index must be an integer")
	}
	i := int(idx.Int())
	n, err := fc.s.arrayLength(fc.ctx, arr.Object)
	if err != nil {
		return jdwp.Value{}, fmt.Errorf("array: %w", err)
	}
	if i < 0 || i >= n {
		return jdwp.Value{}, fmt.Errorf("index %d out of bounds for length %d", i, n)
	}
	vals, err := fc.s.vm.ArrayValues(fc.ctx, arr.Object, i, 1)
	if err != nil || len(vals) != 1 {
		return jdwp.Value{}, fmt.Errorf("array element %d: %v", i, err)
	}
	return vals[0], nil
}

func (fc *frameCtx) str(s string) (jdwp.Value, error) {
	id, err := fc.s.vm.CreateString(fc.ctx, s)
	if err != nil {
		return jdwp.Value{}, fmt.Errorf("string literal: %w", err)
	}
	return jdwp.ObjectValue(jdwp.TagString, id), nil
}

func isIntegral(v jdwp.Value) bool {
	switch v.Tag {
	case jdwp.TagByte, jdwp.TagShort, jdwp.TagChar, jdwp.TagInt, jdwp.TagLong:
		return true
	}
	return false
}

func isNumeric(v jdwp.Value) bool {
	return isIntegral(v) || v.Tag == jdwp.TagFloat || v.Tag == jdwp.TagDouble
}

// binary applies an arithmetic or comparison operator with Java's numeric
// promotion (int, long, double); + with a string concatenates.
func (fc *frameCtx) binary(op string, a, b jdwp.Value) (jdwp.Value, error) {
	if op == "+" && (a.Tag == jdwp.TagString || b.Tag == jdwp.TagString) {
		return fc.str(fc.text(a) + fc.text(b))
	}
	if op == "==" || op == "!=" {
		eq, err := fc.equal(a, b)
		if err != nil {
			return jdwp.Value{}, err
		}
		return jdwp.BoolValue(eq == (op == "==")), nil
	}
	if !isNumeric(a) || !isNumeric(b) {
		return jdwp.Value{}, fmt.Errorf("operator %s needs numbers, got %s and %s", op, fc.s.shortText(fc.ctx, a), fc.s.shortText(fc.ctx, b))
	}
	if a.Tag == jdwp.TagDouble || a.Tag == jdwp.TagFloat || b.Tag == jdwp.TagDouble || b.Tag == jdwp.TagFloat {
		x, y := toFloat(a), toFloat(b)
		switch op {
		case "+":
			return jdwp.DoubleValue(x + y), nil
		case "-":
			return jdwp.DoubleValue(x - y), nil
		case "*":
			return jdwp.DoubleValue(x * y), nil
		case "/":
			return jdwp.DoubleValue(x / y), nil
		case "%":
			return jdwp.DoubleValue(math.Mod(x, y)), nil
		}
		return compare(op, x < y, x == y), nil
	}
	x, y := a.Int(), b.Int()
	long := a.Tag == jdwp.TagLong || b.Tag == jdwp.TagLong
	var r int64
	switch op {
	case "+":
		r = x + y
	case "-":
		r = x - y
	case "*":
		r = x * y
	case "/", "%":
		if y == 0 {
			return jdwp.Value{}, errors.New("division by zero (ArithmeticException)")
		}
		if op == "/" {
			r = x / y
		} else {
			r = x % y
		}
	default:
		return compare(op, x < y, x == y), nil
	}
	if long {
		return jdwp.LongValue(r), nil
	}
	return jdwp.IntValue(int32(r)), nil
}

func toFloat(v jdwp.Value) float64 {
	if v.Tag == jdwp.TagDouble || v.Tag == jdwp.TagFloat {
		return v.Float()
	}
	return float64(v.Int())
}

func compare(op string, less, equal bool) jdwp.Value {
	switch op {
	case "<":
		return jdwp.BoolValue(less)
	case "<=":
		return jdwp.BoolValue(less || equal)
	case ">":
		return jdwp.BoolValue(!less && !equal)
	}
	return jdwp.BoolValue(!less)
}

// equal compares numbers by value, booleans, references by identity,
// and two strings by content (what an agent comparing to a literal means).
func (fc *frameCtx) equal(a, b jdwp.Value) (bool, error) {
	switch {
	case isNumeric(a) && isNumeric(b):
		return toFloat(a) == toFloat(b), nil
	case a.Tag == jdwp.TagBoolean && b.Tag == jdwp.TagBoolean:
		return a.Prim == b.Prim, nil
	case a.IsObject() && b.IsObject():
		if a.Object == b.Object {
			return true, nil
		}
		if a.Tag == jdwp.TagString && b.Tag == jdwp.TagString && a.Object != 0 && b.Object != 0 {
			return fc.text(a) == fc.text(b), nil
		}
		return false, nil
	}
	return false, fmt.Errorf("cannot compare %s with %s", fc.s.shortText(fc.ctx, a), fc.s.shortText(fc.ctx, b))
}

// Lexer.

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tString
	tChar
	tOp
)

type token struct {
	kind tokKind
	text string
}

func lex(src string) ([]token, error) {
	var out []token
	rs := []rune(src)
	for i := 0; i < len(rs); {
		c := rs[i]
		switch {
		case unicode.IsSpace(c):
			i++
		case unicode.IsLetter(c) || c == '_' || c == '$':
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_' || rs[j] == '$') {
				j++
			}
			out = append(out, token{tIdent, string(rs[i:j])})
			i = j
		case unicode.IsDigit(c):
			j, kind := i, tInt
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.' || rs[j] == '_') {
				if rs[j] == '.' {
					kind = tFloat
				}
				j++
			}
			if j < len(rs) && strings.ContainsRune("LlDdFf", rs[j]) {
				if rs[j] != 'L' && rs[j] != 'l' {
					kind = tFloat
				}
				j++
			}
			out = append(out, token{kind, string(rs[i:j])})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != c {
				if rs[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(rs) {
				return nil, fmt.Errorf("unterminated literal in %q", src)
			}
			kind := tString
			if c == '\'' {
				kind = tChar
			}
			out = append(out, token{kind, string(rs[i : j+1])})
			i = j + 1
		default:
			two := ""
			if i+1 < len(rs) {
				two = string(rs[i : i+2])
			}
			switch two {
			case "==", "!=", "<=", ">=", "&&", "||":
				out = append(out, token{tOp, two})
				i += 2
				continue
			}
			if !strings.ContainsRune("+-*/%<>!().[],", c) {
				return nil, fmt.Errorf("unexpected %q in %q; %w", c, src, errUnsupported)
			}
			out = append(out, token{tOp, string(c)})
			i++
		}
	}
	return append(out, token{kind: tEOF}), nil
}

// Parser: precedence climbing into closures.

type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func (p *parser) accept(op string) bool {
	if t := p.peek(); t.kind == tOp && t.text == op {
		p.pos++
		return true
	}
	return false
}

var levels = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) expr() (node, error) { return p.level(0) }

func (p *parser) level(l int) (node, error) {
	if l == len(levels) {
		return p.unary()
	}
	left, err := p.level(l + 1)
	if err != nil {
		return nil, err
	}
	for {
		if levels[l][0] == "<" && p.acceptWord("instanceof") {
			if left, err = p.instanceOf(left); err != nil {
				return nil, err
			}
			continue
		}
		op := ""
		for _, o := range levels[l] {
			if p.accept(o) {
				op = o
				break
			}
		}
		if op == "" {
			return left, nil
		}
		right, err := p.level(l + 1)
		if err != nil {
			return nil, err
		}
		left = logical(op, left, right)
	}
}

// acceptWord consumes the keyword word when it comes next.
func (p *parser) acceptWord(word string) bool {
	if t := p.peek(); t.kind == tIdent && t.text == word {
		p.pos++
		return true
	}
	return false
}

// instanceOf parses the type after instanceof: a simple, qualified or
// nested class name, with [] for arrays.
func (p *parser) instanceOf(obj node) (node, error) {
	t := p.next()
	if t.kind != tIdent {
		return nil, fmt.Errorf("expected a type name after instanceof; %w", errUnsupported)
	}
	name := t.text
	for p.accept(".") {
		t := p.next()
		if t.kind != tIdent {
			return nil, fmt.Errorf("expected a name after '.' in the type of instanceof; %w", errUnsupported)
		}
		name += "." + t.text
	}
	for p.accept("[") {
		if !p.accept("]") {
			return nil, fmt.Errorf("expected ] in the type of instanceof; %w", errUnsupported)
		}
		name += "[]"
	}
	return func(fc *frameCtx) (jdwp.Value, error) {
		v, err := obj(fc)
		if err != nil {
			return v, err
		}
		return fc.instanceOf(v, name)
	}, nil
}

// logical builds a binary node; && and || short-circuit.
func logical(op string, left, right node) node {
	return func(fc *frameCtx) (jdwp.Value, error) {
		a, err := left(fc)
		if err != nil {
			return a, err
		}
		if op == "&&" || op == "||" {
			if a.Tag != jdwp.TagBoolean {
				return jdwp.Value{}, fmt.Errorf("%s needs booleans", op)
			}
			if (op == "&&") != truthy(a) {
				return a, nil
			}
			b, err := right(fc)
			if err == nil && b.Tag != jdwp.TagBoolean {
				return jdwp.Value{}, fmt.Errorf("%s needs booleans", op)
			}
			return b, err
		}
		b, err := right(fc)
		if err != nil {
			return b, err
		}
		return fc.binary(op, a, b)
	}
}

func (p *parser) unary() (node, error) {
	switch {
	case p.accept("-"):
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return func(fc *frameCtx) (jdwp.Value, error) {
			v, err := n(fc)
			if err != nil {
				return v, err
			}
			if v.Tag == jdwp.TagDouble || v.Tag == jdwp.TagFloat {
				return jdwp.DoubleValue(-v.Float()), nil
			}
			return fc.binary("-", jdwp.IntValue(0), v)
		}, nil
	case p.accept("!"):
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return func(fc *frameCtx) (jdwp.Value, error) {
			v, err := n(fc)
			if err != nil {
				return v, err
			}
			if v.Tag != jdwp.TagBoolean {
				return jdwp.Value{}, errors.New("! needs a boolean")
			}
			return jdwp.BoolValue(!truthy(v)), nil
		}, nil
	}
	return p.postfix()
}

func (p *parser) args() ([]node, error) {
	var out []node
	if p.accept(")") {
		return out, nil
	}
	for {
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if p.accept(")") {
			return out, nil
		}
		if !p.accept(",") {
			return nil, fmt.Errorf("expected , or ) in arguments; %w", errUnsupported)
		}
	}
}

func evalArgs(fc *frameCtx, args []node) ([]jdwp.Value, error) {
	vals := make([]jdwp.Value, len(args))
	for i, a := range args {
		v, err := a(fc)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

func (p *parser) postfix() (node, error) {
	start := p.pos
	n, err := p.primary()
	if err != nil {
		return nil, err
	}
	// chain is the dotted name read so far while there is one: it may
	// name a class (statics.go).
	var chain []string
	if p.pos == start+1 && p.toks[start].kind == tIdent {
		chain = []string{p.toks[start].text}
	}
	for {
		switch {
		case p.accept("."):
			t := p.next()
			if t.kind != tIdent {
				return nil, fmt.Errorf("expected a name after '.'; %w", errUnsupported)
			}
			obj := n
			if p.accept("(") {
				args, err := p.args()
				if err != nil {
					return nil, err
				}
				names := chain
				chain = nil
				n = func(fc *frameCtx) (jdwp.Value, error) {
					var o jdwp.Value
					var class jdwp.ReferenceTypeID
					var err error
					if names != nil {
						o, class, err = fc.qualified(names)
					} else {
						o, err = obj(fc)
					}
					if err != nil {
						return o, err
					}
					vals, err := evalArgs(fc, args)
					if err != nil {
						return jdwp.Value{}, err
					}
					if class != 0 {
						return fc.callStatic(class, t.text, vals)
					}
					return fc.call(&o, t.text, vals)
				}
				continue
			}
			if chain != nil {
				chain = append(chain, t.text)
				names := slices.Clone(chain)
				n = func(fc *frameCtx) (jdwp.Value, error) {
					v, class, err := fc.qualified(names)
					if err == nil && class != 0 {
						return v, fmt.Errorf("%s %w", strings.Join(names, "."), errClassValue)
					}
					return v, err
				}
				continue
			}
			n = func(fc *frameCtx) (jdwp.Value, error) {
				o, err := obj(fc)
				if err != nil {
					return o, err
				}
				return fc.field(o, t.text)
			}
		case p.accept("["):
			chain = nil
			idx, err := p.expr()
			if err != nil {
				return nil, err
			}
			if !p.accept("]") {
				return nil, fmt.Errorf("expected ]; %w", errUnsupported)
			}
			arr := n
			n = func(fc *frameCtx) (jdwp.Value, error) {
				a, err := arr(fc)
				if err != nil {
					return a, err
				}
				i, err := idx(fc)
				if err != nil {
					return i, err
				}
				return fc.index(a, i)
			}
		default:
			return n, nil
		}
	}
}

func (p *parser) primary() (node, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		text := strings.ReplaceAll(t.text, "_", "")
		long := strings.HasSuffix(text, "L") || strings.HasSuffix(text, "l")
		i, err := strconv.ParseInt(strings.TrimRight(text, "Ll"), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("number %s: %w", t.text, err)
		}
		if long || i > math.MaxInt32 {
			return constant(jdwp.LongValue(i)), nil
		}
		return constant(jdwp.IntValue(int32(i))), nil
	case tFloat:
		f, err := strconv.ParseFloat(strings.TrimRight(strings.ReplaceAll(t.text, "_", ""), "DdFf"), 64)
		if err != nil {
			return nil, fmt.Errorf("number %s: %w", t.text, err)
		}
		return constant(jdwp.DoubleValue(f)), nil
	case tString:
		s, err := strconv.Unquote(t.text)
		if err != nil {
			return nil, fmt.Errorf("string literal %s: %w", t.text, err)
		}
		return func(fc *frameCtx) (jdwp.Value, error) { return fc.str(s) }, nil
	case tChar:
		s, err := strconv.Unquote(t.text)
		r := []rune(s)
		if err != nil || len(r) != 1 {
			return nil, fmt.Errorf("char literal %s", t.text)
		}
		return constant(jdwp.Value{Tag: jdwp.TagChar, Prim: uint64(r[0])}), nil
	case tIdent:
		switch t.text {
		case "true", "false":
			return constant(jdwp.BoolValue(t.text == "true")), nil
		case "null":
			return constant(jdwp.ObjectValue(jdwp.TagObject, 0)), nil
		case "new", "instanceof", "class":
			return nil, fmt.Errorf("%q is not supported; %w", t.text, errUnsupported)
		}
		name := t.text
		if p.accept("(") {
			args, err := p.args()
			if err != nil {
				return nil, err
			}
			return func(fc *frameCtx) (jdwp.Value, error) {
				vals, err := evalArgs(fc, args)
				if err != nil {
					return jdwp.Value{}, err
				}
				return fc.call(nil, name, vals)
			}, nil
		}
		return func(fc *frameCtx) (jdwp.Value, error) { return fc.lookup(name) }, nil
	case tOp:
		if t.text == "(" {
			n, err := p.expr()
			if err != nil {
				return nil, err
			}
			if !p.accept(")") {
				return nil, fmt.Errorf("expected ); %w", errUnsupported)
			}
			return n, nil
		}
	}
	if t.kind == tEOF {
		return nil, errors.New("empty expression")
	}
	return nil, fmt.Errorf("unexpected %q; %w", t.text, errUnsupported)
}

func constant(v jdwp.Value) node {
	return func(*frameCtx) (jdwp.Value, error) { return v, nil }
}
