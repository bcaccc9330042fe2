package java

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// A dotted name in an expression, a.b.c, is a value (a local or field,
// then its fields) or, when its first name is none, a class named by a
// prefix of it, then static fields: Integer.MAX_VALUE, System.out,
// java.io.File.separator. Before a call it may name the class itself:
// System.identityHashCode(t), Math.max(a, b).

// qualified evaluates a dotted name. When the whole chain names a class,
// class is set and the value is zero.
func (fc *frameCtx) qualified(chain []string) (v jdwp.Value, class jdwp.ReferenceTypeID, err error) {
	v, err = fc.lookup(chain[0])
	rest := chain[1:]
	if err != nil {
		var ok bool
		if class, rest, ok = fc.classPrefix(chain); !ok {
			return jdwp.Value{}, 0, err
		}
		if len(rest) == 0 {
			return jdwp.Value{}, class, nil
		}
		if v, err = fc.staticField(class, rest[0]); err != nil {
			return jdwp.Value{}, 0, err
		}
		rest = rest[1:]
	}
	for _, name := range rest {
		if v, err = fc.field(v, name); err != nil {
			return jdwp.Value{}, 0, err
		}
	}
	return v, 0, nil
}

// classPrefix finds the shortest prefix of a dotted name that names a
// loaded class, and the names after it.
func (fc *frameCtx) classPrefix(chain []string) (jdwp.ReferenceTypeID, []string, bool) {
	for k := 1; k <= len(chain); k++ {
		for _, name := range fc.classCandidates(strings.Join(chain[:k], ".")) {
			refs, err := fc.s.vm.ClassesBySignature(fc.ctx, signatureOf(name))
			if err == nil && len(refs) > 0 {
				return refs[0].ID, chain[k:], true
			}
		}
	}
	return 0, nil, false
}

// classCandidates are the classes a name may mean in the frame's source:
// a simple name is a class of the frame's package, a class nested in the
// frame's top-level class, or one of java.lang (imported by every file);
// a dotted one is fully qualified.
func (fc *frameCtx) classCandidates(name string) []string {
	if strings.Contains(name, ".") {
		return []string{name}
	}
	here := fc.s.types.className(fc.ctx, fc.loc.Class)
	top, _, _ := strings.Cut(here, "$")
	out := []string{top + "$" + name}
	if i := strings.LastIndexByte(top, '.'); i >= 0 {
		out = append(out, top[:i+1]+name)
	} else {
		out = append(out, name)
	}
	return append(out, "java.lang."+name)
}

// staticField reads a static field of a class or its superclasses.
func (fc *frameCtx) staticField(class jdwp.ReferenceTypeID, name string) (jdwp.Value, error) {
	decl, f, ok := fc.s.types.findField(fc.ctx, class, name)
	if !ok || !f.Static() {
		return jdwp.Value{}, fmt.Errorf("%s has no static field %s", fc.s.types.className(fc.ctx, class), name)
	}
	vals, err := fc.s.vm.StaticValues(fc.ctx, decl, []jdwp.FieldID{f.ID})
	if err != nil || len(vals) != 1 {
		return jdwp.Value{}, fmt.Errorf("static field %s: %v", name, err)
	}
	return vals[0], nil
}

// callStatic invokes a static method of a class: among the overloads with
// as many parameters, the one whose parameter types the arguments have
// (Math.max(int, int), not Math.max(double, double)).
func (fc *frameCtx) callStatic(class jdwp.ReferenceTypeID, name string, args []jdwp.Value) (jdwp.Value, error) {
	var found *jdwp.MethodInfo
	var decl jdwp.ReferenceTypeID
	for id, depth := class, 0; id != 0 && depth < 30 && found == nil; depth++ {
		ms, err := fc.s.types.methodsOf(fc.ctx, id)
		if err != nil {
			return jdwp.Value{}, fmt.Errorf("methods of %s: %w", fc.s.types.className(fc.ctx, id), err)
		}
		for i, m := range ms {
			if m.Name != name || m.ModBits&0x0008 == 0 || argCount(m.Signature) != len(args) {
				continue
			}
			if found == nil || (!takes(found.Signature, args) && takes(m.Signature, args)) {
				found, decl = &ms[i], id
			}
		}
		if id, err = fc.s.types.superclass(fc.ctx, id); err != nil {
			break
		}
	}
	if found == nil {
		return jdwp.Value{}, fmt.Errorf("%s has no static method %s with %d argument(s)", fc.s.types.className(fc.ctx, class), name, len(args))
	}
	return fc.invokeStatic(decl, *found, args)
}

// takes says whether a method signature's parameters are the arguments'
// types: the same primitive, or an object for a reference.
func takes(sig string, args []jdwp.Value) bool {
	params, _, _ := strings.Cut(strings.TrimPrefix(sig, "("), ")")
	for _, a := range args {
		if params == "" {
			return false
		}
		p := params[0]
		for params != "" && params[0] == '[' {
			params = params[1:]
		}
		if params != "" && params[0] == 'L' {
			params = params[strings.IndexByte(params, ';')+1:]
		} else if params != "" {
			params = params[1:]
		}
		if ref := p == 'L' || p == '['; ref != a.IsObject() || (!ref && p != a.Tag) {
			return false
		}
	}
	return params == ""
}

// invokeStatic runs a static method on the stopped thread.
func (fc *frameCtx) invokeStatic(class jdwp.ReferenceTypeID, m jdwp.MethodInfo, args []jdwp.Value) (jdwp.Value, error) {
	fc.s.invokeMu.Lock()
	fc.s.invokeGen.Add(1)
	res, err := fc.s.vm.InvokeStatic(fc.ctx, class, fc.thread, m.ID, args, jdwp.InvokeSingleThreaded)
	fc.s.invokeMu.Unlock()
	if err != nil {
		return jdwp.Value{}, fmt.Errorf("call %s(): %w", m.Name, err)
	}
	if res.Exception.Object != 0 {
		return jdwp.Value{}, fmt.Errorf("%s() threw %s", m.Name, fc.s.exceptionSummary(fc.ctx, fc.thread, res.Exception.Object))
	}
	return res.Value, nil
}

// errClassValue: a class name alone is no value.
var errClassValue = errors.New("names a class, not a value: read a static field of it or call a static method")
