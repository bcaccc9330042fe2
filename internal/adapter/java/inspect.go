package java

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

const (
	// previewElements is how many elements an array's or collection's
	// one-line value shows.
	previewElements = 10
	// maxSummary bounds a one-line value built by toString().
	maxSummary = 200
	// maxChildren bounds the elements of a collection listed as children.
	maxChildren = 100
)

// handleKind says what a variablesReference or frame id stands for.
type handleKind int

const (
	hFrame handleKind = iota
	hLocals
	hObject
	hArray
	hCollection
)

// handle is a frame or an expandable value of the current stop.
type handle struct {
	kind   handleKind
	thread jdwp.ObjectID
	// frame is valid while gen is the server's invokeGen; depth finds
	// the frame again after a method invocation invalidated the id.
	frame jdwp.FrameID
	depth int
	gen   uint64
	loc   jdwp.Location
	value jdwp.Value
	class jdwp.ReferenceTypeID
}

// handleTable hands out ids for the current stop; reset on resume.
type handleTable struct {
	next int
	m    map[int]*handle
}

func newHandleTable() *handleTable { return &handleTable{m: map[int]*handle{}} }

func (t *handleTable) reset() { t.m = map[int]*handle{} }

func (s *server) newHandle(h *handle) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handles.next++
	s.handles.m[s.handles.next] = h
	return s.handles.next
}

func (s *server) handle(id int) (*handle, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.paused {
		return nil, errors.New("the program is running: frames and variables exist only while it is paused")
	}
	h, ok := s.handles.m[id]
	if !ok {
		return nil, fmt.Errorf("unknown reference %d (references last until the program resumes)", id)
	}
	return h, nil
}

func (s *server) stackTrace(ctx context.Context, req *request) (any, error) {
	var args godap.StackTraceArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	thread, ok := s.threads.object(args.ThreadId)
	if !ok {
		return nil, fmt.Errorf("unknown thread %d", args.ThreadId)
	}
	all, gen, err := s.threadFrames(ctx, thread)
	if err != nil {
		return nil, fmt.Errorf("stack of thread %d: %w", args.ThreadId, err)
	}
	total := len(all)
	start := min(max(args.StartFrame, 0), total)
	n := total - start
	if args.Levels > 0 {
		n = min(n, args.Levels)
	}
	body := godap.StackTraceResponseBody{StackFrames: []godap.StackFrame{}, TotalFrames: total}
	frames := all[start : start+n]
	ids := make([]int, len(frames))
	for i, f := range frames {
		ids[i] = s.newHandle(&handle{kind: hFrame, thread: thread, frame: f.ID, depth: start + i, gen: gen, loc: f.Location})
	}
	body.StackFrames = s.describeFrames(ctx, ids, frames)
	if start == 0 && len(frames) > 0 {
		if line, ok := s.blockedEntryLine(ctx, thread, frames[0].Location); ok {
			body.StackFrames[0].Line = line
		}
	}
	return body, nil
}

// describeFrames describes frames concurrently (a class seen for the
// first time costs several reads; frames of new classes read together).
func (s *server) describeFrames(ctx context.Context, ids []int, frames []jdwp.Frame) []godap.StackFrame {
	out := make([]godap.StackFrame, len(frames))
	sem := make(chan struct{}, renderParallel)
	var w dapserver.Workers
	for i, f := range frames {
		sem <- struct{}{}
		w.Go(func() {
			defer func() { <-sem }()
			id := 0
			if ids != nil {
				id = ids[i]
			}
			out[i] = s.describeFrame(ctx, id, f.Location)
		})
	}
	w.Wait()
	return out
}

// threadFrames is a suspended thread's whole stack, from the current
// stop's data when it is the stopped thread, with the invocation
// generation its frame ids belong to.
func (s *server) threadFrames(ctx context.Context, thread jdwp.ObjectID) ([]jdwp.Frame, uint64, error) {
	if d := s.stopDataFor(thread); d != nil {
		return d.allFrames(ctx)
	}
	gen := s.invokeGen.Load()
	frames, err := s.vm.Frames(ctx, thread, 0, -1)
	return frames, gen, err
}

// describeFrame names a frame "Class.method" (qualified for the JDK's)
// with its source and line.
func (s *server) describeFrame(ctx context.Context, id int, l jdwp.Location) godap.StackFrame {
	class := s.types.className(ctx, l.Class)
	method := "?"
	if m, ok := s.types.method(ctx, l.Class, l.Method); ok {
		method = m.Name
	}
	name := simpleName(class) + "." + method
	if isJDKClass(class) {
		name = class + "." + method
	}
	f := godap.StackFrame{Id: id, Name: name, Line: max(s.types.lineOf(ctx, l), 0), Column: 1}
	if src, err := s.types.sourceFile(ctx, l.Class); err == nil {
		if path := s.source.find(class, src); path != "" {
			f.Source = &godap.Source{Name: src, Path: path}
		} else {
			f.Source = &godap.Source{Name: src}
			f.PresentationHint = "subtle"
		}
	}
	return f
}

func (s *server) scopes(ctx context.Context, req *request) (any, error) {
	var args godap.ScopesArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	h, err := s.handle(args.FrameId)
	if err != nil || h.kind != hFrame {
		return nil, fmt.Errorf("unknown frame %d", args.FrameId)
	}
	ref := s.newHandle(&handle{kind: hLocals, thread: h.thread, frame: h.frame, depth: h.depth, gen: h.gen, loc: h.loc})
	return godap.ScopesResponseBody{Scopes: []godap.Scope{{Name: "Locals", PresentationHint: "locals", VariablesReference: ref}}}, nil
}

func (s *server) variables(ctx context.Context, req *request) (any, error) {
	var args godap.VariablesArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	h, err := s.handle(args.VariablesReference)
	if err != nil {
		return nil, err
	}
	var vars []godap.Variable
	switch h.kind {
	case hLocals:
		vars, err = s.locals(ctx, h)
	case hObject:
		vars, err = s.fieldVars(ctx, h)
	case hArray:
		vars, err = s.arrayVars(ctx, h, args.Start, args.Count)
	case hCollection:
		vars, err = s.collectionVars(ctx, h)
	default:
		err = fmt.Errorf("reference %d is a frame, not a variable", args.VariablesReference)
	}
	if err != nil {
		return nil, err
	}
	if vars == nil {
		vars = []godap.Variable{}
	}
	return godap.VariablesResponseBody{Variables: vars}, nil
}

// frameID returns a frame's id, fetched again when a method invocation
// since gen has invalidated the thread's frame ids (JDWP drops them
// whenever the thread runs).
func (s *server) frameID(ctx context.Context, thread jdwp.ObjectID, depth int, id jdwp.FrameID, gen uint64) (jdwp.FrameID, error) {
	if s.invokeGen.Load() == gen {
		return id, nil
	}
	frames, err := s.vm.Frames(ctx, thread, int32(depth), 1)
	if err != nil || len(frames) == 0 {
		return 0, fmt.Errorf("frame %d: %v", depth, err)
	}
	return frames[0].ID, nil
}

// localVar is a local variable (or field, or element) and its value.
type localVar struct {
	name, sig string
	value     jdwp.Value
}

var errNoDebugInfo = errors.New("no local variable information: the class was compiled without -g (recompile with javac -g)")

// frameLocals reads the live local variables of a frame, `this` first.
func (s *server) frameLocals(ctx context.Context, thread jdwp.ObjectID, frame jdwp.FrameID, loc jdwp.Location) ([]localVar, error) {
	// `this` is read while the other locals are (a static method has
	// none), and always waited for.
	var this jdwp.Value
	var w dapserver.Workers
	if m, ok := s.types.method(ctx, loc.Class, loc.Method); !ok || !m.Static() {
		w.Go(func() {
			if v, err := s.vm.ThisObject(ctx, thread, frame); err == nil {
				this = v
			}
		})
	}
	rest, err := s.slotLocals(ctx, thread, frame, loc)
	w.Wait()
	var out []localVar
	if this.Object != 0 {
		out = append(out, localVar{name: "this", value: this})
	}
	return append(out, rest...), err
}

// slotLocals reads the live local variables of a frame but `this`.
func (s *server) slotLocals(ctx context.Context, thread jdwp.ObjectID, frame jdwp.FrameID, loc jdwp.Location) ([]localVar, error) {
	vt, err := s.types.variableTable(ctx, loc.Class, loc.Method)
	if jdwp.IsCode(err, jdwp.ErrAbsentInformation) {
		return nil, errNoDebugInfo
	}
	if err != nil {
		return nil, fmt.Errorf("local variables: %w", err)
	}
	var live []jdwp.Variable
	var slots []jdwp.SlotRequest
	for _, v := range vt.Variables {
		if v.CodeIndex <= loc.Index && loc.Index < v.CodeIndex+uint64(v.Length) && v.Name != "this" {
			live = append(live, v)
			slots = append(slots, jdwp.SlotRequest{Slot: v.Slot, Tag: v.Signature[0]})
		}
	}
	if len(slots) == 0 {
		return nil, nil
	}
	vals, err := s.vm.FrameValues(ctx, thread, frame, slots)
	if err != nil {
		return nil, fmt.Errorf("local variables: %w", err)
	}
	out := make([]localVar, 0, len(live))
	for i, v := range live {
		if i < len(vals) {
			out = append(out, localVar{name: v.Name, sig: v.Signature, value: vals[i]})
		}
	}
	return out, nil
}

func (s *server) locals(ctx context.Context, h *handle) ([]godap.Variable, error) {
	lv, err := s.localsAt(ctx, h.thread, h.depth, h.loc, func() (jdwp.FrameID, error) {
		return s.frameID(ctx, h.thread, h.depth, h.frame, h.gen)
	})
	var vars []godap.Variable
	if rv, ok := s.returnVariable(ctx, h); ok {
		vars = append(vars, rv)
	}
	vars = append(vars, s.renderAll(ctx, h.thread, lv)...)
	if errors.Is(err, errNoDebugInfo) {
		vars = append(vars, godap.Variable{Name: "(no locals)", Value: err.Error()})
		return vars, nil
	}
	return vars, err
}

// renderParallel bounds how many values are rendered at once.
const renderParallel = 8

// renderAll renders values as DAP variables, in order. They are rendered
// concurrently, so that their reads travel together; invocations on the
// thread take turns (invoke).
func (s *server) renderAll(ctx context.Context, thread jdwp.ObjectID, items []localVar) []godap.Variable {
	out := make([]godap.Variable, len(items))
	if len(items) == 1 {
		out[0] = s.variable(ctx, thread, items[0].name, items[0].value, items[0].sig)
		return out
	}
	sem := make(chan struct{}, renderParallel)
	var w dapserver.Workers
	for i, it := range items {
		sem <- struct{}{}
		w.Go(func() {
			defer func() { <-sem }()
			out[i] = s.variable(ctx, thread, it.name, it.value, it.sig)
		})
	}
	w.Wait()
	return out
}

// variable renders a value as a DAP variable; objects, arrays and
// collections get a reference to expand.
func (s *server) variable(ctx context.Context, thread jdwp.ObjectID, name string, v jdwp.Value, sig string) godap.Variable {
	r := s.render(ctx, thread, v)
	out := godap.Variable{Name: name, Value: r.text, Type: r.typ, VariablesReference: r.ref, IndexedVariables: r.indexed}
	if out.Type == "" && sig != "" {
		out.Type = typeName(sig)
	}
	return out
}

// rendered is a value's one-line text and how to expand it.
type rendered struct {
	text, typ string
	ref       int
	indexed   int
}

// boxed are the wrapper classes shown as their primitive.
var boxed = map[string]bool{
	"java.lang.Integer": true, "java.lang.Long": true, "java.lang.Short": true, "java.lang.Byte": true,
	"java.lang.Character": true, "java.lang.Boolean": true, "java.lang.Double": true, "java.lang.Float": true,
}

// render turns a value into text. Strings are quoted, boxed primitives
// shown as their value, arrays and collections with their size and first
// elements, other objects as "Class {field=value, …}".
func (s *server) render(ctx context.Context, thread jdwp.ObjectID, v jdwp.Value) rendered {
	return s.renderAs(ctx, thread, v, true)
}

// preview is a value's text as render shows it, for what cannot be
// expanded (a trace row): no handle is made for it.
func (s *server) preview(ctx context.Context, thread jdwp.ObjectID, v jdwp.Value) string {
	return s.renderAs(ctx, thread, v, false).text
}

// renderAs is render, with a handle to expand the value only when
// expandable.
func (s *server) renderAs(ctx context.Context, thread jdwp.ObjectID, v jdwp.Value, expandable bool) rendered {
	expand := func(h *handle) int {
		if !expandable {
			return 0
		}
		return s.newHandle(h)
	}
	if !v.IsObject() {
		return rendered{text: primitiveText(v), typ: typeName(string(v.Tag))}
	}
	if v.Object == 0 {
		return rendered{text: "null"}
	}
	if v.Tag == jdwp.TagString {
		str, err := s.stringValue(ctx, v.Object)
		if err != nil {
			return rendered{text: "<string unavailable>", typ: "java.lang.String"}
		}
		return rendered{text: strconv.Quote(str), typ: "java.lang.String"}
	}
	class, err := s.objectClass(ctx, v.Object)
	if err != nil {
		return rendered{text: fmt.Sprintf("<object %d unavailable: %v>", v.Object, err)}
	}
	name := s.types.className(ctx, class)
	if v.Tag == jdwp.TagArray {
		n, err := s.arrayLength(ctx, v.Object)
		if err != nil {
			return rendered{text: name, typ: name}
		}
		text := strings.Replace(name, "[]", fmt.Sprintf("[%d]", n), 1)
		if preview := s.arrayPreview(ctx, v.Object, name, n); preview != "" {
			text += " " + preview
		}
		ref := expand(&handle{kind: hArray, thread: thread, value: v, class: class})
		return rendered{text: text, typ: name, ref: ref, indexed: n}
	}
	if boxed[name] {
		if p, err := s.boxedValue(ctx, v.Object, class); err == nil {
			return rendered{text: primitiveText(p), typ: name}
		}
	}
	impl := s.types.implements(ctx, class)
	if impl["java.util.Collection"] || impl["java.util.Map"] {
		text := simpleName(name)
		if size, err := s.invoke(ctx, thread, v, "size"); err == nil {
			text += fmt.Sprintf(" size=%d", size.Int())
		}
		if str, err := s.invoke(ctx, thread, v, "toString"); err == nil && str.Object != 0 {
			if t, err := s.vm.StringValue(ctx, str.Object); err == nil {
				text += " " + truncate(t, maxSummary)
			}
		}
		ref := expand(&handle{kind: hCollection, thread: thread, value: v, class: class})
		return rendered{text: text, typ: name, ref: ref}
	}
	ref := expand(&handle{kind: hObject, thread: thread, value: v, class: class})
	return rendered{text: s.objectPreview(ctx, v.Object, class, name), typ: name, ref: ref}
}

// arrayPreview shows the first elements of an array of primitives or
// strings: "{3, 1, 4}".
func (s *server) arrayPreview(ctx context.Context, arr jdwp.ObjectID, name string, n int) string {
	if n == 0 {
		return "{}"
	}
	elem := strings.TrimSuffix(name, "[]")
	if strings.Contains(elem, "[") || (strings.Contains(elem, ".") && elem != "java.lang.String") {
		return ""
	}
	vals, err := s.vm.ArrayValues(ctx, arr, 0, min(n, previewElements))
	if err != nil {
		return ""
	}
	parts := make([]string, 0, len(vals)+1)
	for _, v := range vals {
		if v.IsObject() {
			if v.Object == 0 {
				parts = append(parts, "null")
				continue
			}
			str, err := s.stringValue(ctx, v.Object)
			if err != nil {
				return ""
			}
			parts = append(parts, strconv.Quote(truncate(str, 40)))
			continue
		}
		parts = append(parts, primitiveText(v))
	}
	if n > len(vals) {
		parts = append(parts, "…")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// objectPreview shows an object's first fields without invoking code:
// `Point {name="origin", x=1, y=2, next=Point}`.
func (s *server) objectPreview(ctx context.Context, obj jdwp.ObjectID, class jdwp.ReferenceTypeID, name string) string {
	fields := s.instanceFields(ctx, class)
	if len(fields) == 0 {
		return simpleName(name)
	}
	shown := fields[:min(len(fields), 6)]
	ids := make([]jdwp.FieldID, len(shown))
	for i, f := range shown {
		ids[i] = f.ID
	}
	vals, err := s.vm.FieldValues(ctx, obj, ids)
	if err != nil {
		return simpleName(name)
	}
	parts := make([]string, 0, len(shown)+1)
	for i, f := range shown {
		if i >= len(vals) {
			break
		}
		parts = append(parts, f.Name+"="+s.shortText(ctx, vals[i]))
	}
	if len(fields) > len(shown) {
		parts = append(parts, "…")
	}
	return simpleName(name) + " {" + strings.Join(parts, ", ") + "}"
}

// shortText is a value's text without expanding objects.
func (s *server) shortText(ctx context.Context, v jdwp.Value) string {
	switch {
	case !v.IsObject():
		return primitiveText(v)
	case v.Object == 0:
		return "null"
	case v.Tag == jdwp.TagString:
		if str, err := s.stringValue(ctx, v.Object); err == nil {
			return strconv.Quote(truncate(str, 40))
		}
	}
	if class, err := s.objectClass(ctx, v.Object); err == nil {
		name := s.types.className(ctx, class)
		if v.Tag == jdwp.TagArray {
			// An array's length says more than its type: "int[5]".
			if n, err := s.arrayLength(ctx, v.Object); err == nil {
				return simpleName(strings.Replace(name, "[]", fmt.Sprintf("[%d]", n), 1))
			}
		}
		if boxed[name] {
			if p, err := s.boxedValue(ctx, v.Object, class); err == nil {
				return primitiveText(p)
			}
		}
		return simpleName(name)
	}
	return "?"
}

// instanceFields lists the instance fields of a class and its
// superclasses, the class's own first.
func (s *server) instanceFields(ctx context.Context, class jdwp.ReferenceTypeID) []jdwp.FieldInfo {
	var out []jdwp.FieldInfo
	for id, depth := class, 0; id != 0 && depth < 30; depth++ {
		fs, err := s.types.fieldsOf(ctx, id)
		if err != nil {
			break
		}
		for _, f := range fs {
			if !f.Static() && f.ModBits&0x1000 == 0 {
				out = append(out, f)
			}
		}
		sup, err := s.types.superclass(ctx, id)
		if err != nil {
			break
		}
		id = sup
	}
	return out
}

func (s *server) fieldVars(ctx context.Context, h *handle) ([]godap.Variable, error) {
	fields := s.instanceFields(ctx, h.class)
	if len(fields) == 0 {
		return nil, nil
	}
	ids := make([]jdwp.FieldID, len(fields))
	for i, f := range fields {
		ids[i] = f.ID
	}
	vals, err := s.vm.FieldValues(ctx, h.value.Object, ids)
	if err != nil {
		return nil, fmt.Errorf("fields: %w", err)
	}
	items := make([]localVar, 0, len(fields))
	for i, f := range fields {
		if i < len(vals) {
			items = append(items, localVar{name: f.Name, sig: f.Signature, value: vals[i]})
		}
	}
	return s.renderAll(ctx, h.thread, items), nil
}

func (s *server) arrayVars(ctx context.Context, h *handle, start, count int) ([]godap.Variable, error) {
	n, err := s.arrayLength(ctx, h.value.Object)
	if err != nil {
		return nil, fmt.Errorf("array: %w", err)
	}
	start = min(max(start, 0), n)
	if count <= 0 || start+count > n {
		count = n - start
	}
	if count == 0 {
		return nil, nil
	}
	vals, err := s.vm.ArrayValues(ctx, h.value.Object, start, count)
	if err != nil {
		return nil, fmt.Errorf("array: %w", err)
	}
	items := make([]localVar, len(vals))
	for i, v := range vals {
		items[i] = localVar{name: fmt.Sprintf("[%d]", start+i), value: v}
	}
	return s.renderAll(ctx, h.thread, items), nil
}

// collectionVars lists a collection's elements (a map's entries as
// key = value), through toArray() on the stopped thread.
func (s *server) collectionVars(ctx context.Context, h *handle) ([]godap.Variable, error) {
	impl := s.types.implements(ctx, h.class)
	target := h.value
	isMap := impl["java.util.Map"]
	if isMap {
		set, err := s.invoke(ctx, h.thread, h.value, "entrySet")
		if err != nil {
			return nil, err
		}
		target = set
	}
	arr, err := s.invoke(ctx, h.thread, target, "toArray")
	if err != nil {
		return nil, err
	}
	// A fresh array each time: not worth a place in the object cache.
	n, err := s.vm.ArrayLength(ctx, arr.Object)
	if err != nil {
		return nil, fmt.Errorf("collection: %w", err)
	}
	vals, err := s.vm.ArrayValues(ctx, arr.Object, 0, min(n, maxChildren))
	if err != nil {
		return nil, fmt.Errorf("collection: %w", err)
	}
	if !isMap {
		items := make([]localVar, len(vals))
		for i, v := range vals {
			items[i] = localVar{name: fmt.Sprintf("[%d]", i), value: v}
		}
		return s.renderAll(ctx, h.thread, items), nil
	}
	var vars []godap.Variable
	for _, v := range vals {
		k, kerr := s.invoke(ctx, h.thread, v, "getKey")
		val, verr := s.invoke(ctx, h.thread, v, "getValue")
		if kerr != nil || verr != nil {
			continue
		}
		vv := s.variable(ctx, h.thread, s.shortText(ctx, k), val, "")
		vars = append(vars, vv)
	}
	return vars, nil
}

// invoke calls a method without arguments on an object, on the stopped
// thread, and fails on an exception.
func (s *server) invoke(ctx context.Context, thread jdwp.ObjectID, obj jdwp.Value, method string, args ...jdwp.Value) (jdwp.Value, error) {
	if obj.Object == 0 {
		return jdwp.Value{}, fmt.Errorf("cannot call %s() on null", method)
	}
	class, err := s.objectClass(ctx, obj.Object)
	if err != nil {
		return jdwp.Value{}, fmt.Errorf("call %s(): %w", method, err)
	}
	decl, m, err := s.types.findMethod(ctx, class, method, len(args))
	if err != nil {
		return jdwp.Value{}, err
	}
	s.invokeMu.Lock()
	s.invokeGen.Add(1)
	res, err := s.vm.InvokeMethod(ctx, obj.Object, thread, decl, m.ID, args, jdwp.InvokeSingleThreaded)
	s.invokeMu.Unlock()
	if jdwp.IsCode(err, jdwp.ErrThreadNotSuspended) || jdwp.IsCode(err, jdwp.ErrInvalidThread) {
		return jdwp.Value{}, fmt.Errorf("call %s(): methods can be called only on a thread stopped at a breakpoint, step or exception (not after a pause): %w", method, err)
	}
	if err != nil {
		return jdwp.Value{}, fmt.Errorf("call %s(): %w", method, err)
	}
	if res.Exception.Object != 0 {
		return jdwp.Value{}, fmt.Errorf("%s() threw %s", method, s.exceptionSummary(ctx, thread, res.Exception.Object))
	}
	return res.Value, nil
}

// primitiveText formats a primitive as Java prints it.
func primitiveText(v jdwp.Value) string {
	switch v.Tag {
	case jdwp.TagBoolean:
		return strconv.FormatBool(v.Prim != 0)
	case jdwp.TagChar:
		return strconv.QuoteRune(rune(v.Int()))
	case jdwp.TagFloat, jdwp.TagDouble:
		return javaFloat(v.Float(), v.Tag == jdwp.TagFloat)
	case jdwp.TagVoid:
		return "void"
	}
	return strconv.FormatInt(v.Int(), 10)
}

// javaFloat formats as Double.toString does for common values: "2.0",
// "0.1", "1.0E10".
func javaFloat(f float64, single bool) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	bits := 64
	if single {
		bits = 32
	}
	if a := math.Abs(f); a != 0 && (a < 1e-3 || a >= 1e7) {
		s := strconv.FormatFloat(f, 'E', -1, bits)
		mant, exp, _ := strings.Cut(s, "E")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		return mant + "E" + strings.TrimPrefix(exp, "+")
	}
	s := strconv.FormatFloat(f, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// exceptionSummary is "java.lang.IllegalStateException: message".
func (s *server) exceptionSummary(ctx context.Context, thread jdwp.ObjectID, exc jdwp.ObjectID) string {
	class, msg := s.exceptionParts(ctx, exc)
	if msg == "" {
		return class
	}
	return class + ": " + msg
}

// exceptionParts reads an exception's class and detailMessage without
// running code.
func (s *server) exceptionParts(ctx context.Context, exc jdwp.ObjectID) (string, string) {
	t, err := s.objectClass(ctx, exc)
	if err != nil {
		return "exception", ""
	}
	class := s.types.className(ctx, t)
	_, f, ok := s.types.findField(ctx, t, "detailMessage")
	if !ok {
		return class, ""
	}
	vals, err := s.vm.FieldValues(ctx, exc, []jdwp.FieldID{f.ID})
	if err != nil || len(vals) == 0 || vals[0].Object == 0 {
		return class, ""
	}
	msg, _ := s.stringValue(ctx, vals[0].Object)
	return class, msg
}

// aboveFramework is a stack without what lies below its last frame of the
// program's own when a test framework runs the program: the framework's
// machinery that called the test (some 60 frames for JUnit) says nothing
// about the failure.
func (s *server) aboveFramework(ctx context.Context, frames []jdwp.Frame) []jdwp.Frame {
	if len(s.frameworkCatchers) == 0 {
		return frames
	}
	for i := len(frames) - 1; i >= 0; i-- {
		name := s.types.className(ctx, frames[i].Location.Class)
		if !isJDKClass(name) && !hasPrefix(name, s.frameworkCatchers) {
			return frames[:i+1]
		}
	}
	return frames
}

func (s *server) exceptionInfo(ctx context.Context, req *request) (any, error) {
	var args godap.ExceptionInfoArguments
	if err := req.Args(&args); err != nil {
		return nil, err
	}
	s.mu.Lock()
	st := s.cur
	s.mu.Unlock()
	if st == nil || st.exception == 0 {
		return nil, errors.New("not stopped on an exception")
	}
	class, msg := s.exceptionParts(ctx, st.exception)
	mode := "always"
	if st.uncaught {
		mode = "unhandled"
	}
	var trace strings.Builder
	if frames, _, err := s.threadFrames(ctx, st.thread); err == nil {
		shown := s.aboveFramework(ctx, frames)
		for _, fr := range s.describeFrames(ctx, nil, shown) {
			file := "Unknown Source"
			if fr.Source != nil {
				file = fr.Source.Name
			}
			fmt.Fprintf(&trace, "\tat %s(%s:%d)\n", fr.Name, file, fr.Line)
		}
		if n := len(frames) - len(shown); n > 0 {
			fmt.Fprintf(&trace, "\t… %d frames of the test framework and the JDK\n", n)
		}
	}
	return godap.ExceptionInfoResponseBody{
		ExceptionId: class,
		Description: msg,
		BreakMode:   godap.ExceptionBreakMode(mode),
		Details: &godap.ExceptionDetails{
			Message:      msg,
			TypeName:     simpleName(class),
			FullTypeName: class,
			StackTrace:   trace.String(),
		},
	}, nil
}
