package java

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// typeCache remembers what never changes while a class is loaded: its
// signature, source file, fields, methods and their tables (until a
// redefinition, see forget). It is shared
// by the request and event goroutines.
type typeCache struct {
	vm *jdwp.Conn

	mu      sync.Mutex
	sigs    map[jdwp.ReferenceTypeID]string
	sources map[jdwp.ReferenceTypeID]string
	methods map[jdwp.ReferenceTypeID][]jdwp.MethodInfo
	fields  map[jdwp.ReferenceTypeID][]jdwp.FieldInfo
	supers  map[jdwp.ReferenceTypeID]jdwp.ReferenceTypeID
	lines   map[methodKey]*lineInfo
	vars    map[methodKey]*varInfo
	ifaces  map[jdwp.ReferenceTypeID]map[string]bool
	// loading has an entry while one goroutine loads what others wait for.
	loading map[loadKey]chan struct{}
}

// loadKey names an entry being loaded: which table, and its key.
type loadKey struct {
	table string
	key   any
}

type methodKey struct {
	class  jdwp.ReferenceTypeID
	method jdwp.MethodID
}

type lineInfo struct {
	table jdwp.LineTable
	err   error
}

type varInfo struct {
	table jdwp.VariableTable
	err   error
}

func newTypeCache(vm *jdwp.Conn) *typeCache {
	return &typeCache{
		vm:      vm,
		sigs:    map[jdwp.ReferenceTypeID]string{},
		sources: map[jdwp.ReferenceTypeID]string{},
		methods: map[jdwp.ReferenceTypeID][]jdwp.MethodInfo{},
		fields:  map[jdwp.ReferenceTypeID][]jdwp.FieldInfo{},
		supers:  map[jdwp.ReferenceTypeID]jdwp.ReferenceTypeID{},
		lines:   map[methodKey]*lineInfo{},
		vars:    map[methodKey]*varInfo{},
		ifaces:  map[jdwp.ReferenceTypeID]map[string]bool{},
		loading: map[loadKey]chan struct{}{},
	}
}

// cached looks key up in m, filling it with load on a miss. One
// goroutine loads an entry while the others that want it wait (frames and
// values are described concurrently, and often share a class); the lock
// is not held while loading. A failed load is not kept: a waiter then
// loads for itself.
func cached[K comparable, V any](c *typeCache, table string, m map[K]V, key K, load func() (V, error)) (V, error) {
	lk := loadKey{table, key}
	c.mu.Lock()
	for {
		if v, ok := m[key]; ok {
			c.mu.Unlock()
			return v, nil
		}
		wait, busy := c.loading[lk]
		if !busy {
			break
		}
		c.mu.Unlock()
		<-wait
		c.mu.Lock()
		if _, ok := m[key]; !ok {
			break
		}
	}
	done := make(chan struct{})
	c.loading[lk] = done
	c.mu.Unlock()
	v, err := load()
	c.mu.Lock()
	if err == nil {
		m[key] = v
	}
	if c.loading[lk] == done {
		delete(c.loading, lk)
	}
	c.mu.Unlock()
	close(done)
	return v, err
}

func (c *typeCache) signature(ctx context.Context, t jdwp.ReferenceTypeID) (string, error) {
	return cached(c, "sig", c.sigs, t, func() (string, error) { return c.vm.Signature(ctx, t) })
}

// remember records a signature learnt from an event or class list.
func (c *typeCache) remember(t jdwp.ReferenceTypeID, sig string) {
	c.mu.Lock()
	c.sigs[t] = sig
	c.mu.Unlock()
}

// className is a type's Java name ("com.example.Point", "int[]").
func (c *typeCache) className(ctx context.Context, t jdwp.ReferenceTypeID) string {
	sig, err := c.signature(ctx, t)
	if err != nil {
		return "?"
	}
	return typeName(sig)
}

// forget drops what a redefinition of class t may have changed: its
// methods and their line and variable tables.
func (c *typeCache) forget(t jdwp.ReferenceTypeID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.methods, t)
	for k := range c.lines {
		if k.class == t {
			delete(c.lines, k)
		}
	}
	for k := range c.vars {
		if k.class == t {
			delete(c.vars, k)
		}
	}
}

func (c *typeCache) sourceFile(ctx context.Context, t jdwp.ReferenceTypeID) (string, error) {
	return cached(c, "source", c.sources, t, func() (string, error) { return c.vm.SourceFile(ctx, t) })
}

func (c *typeCache) methodsOf(ctx context.Context, t jdwp.ReferenceTypeID) ([]jdwp.MethodInfo, error) {
	return cached(c, "methods", c.methods, t, func() ([]jdwp.MethodInfo, error) { return c.vm.Methods(ctx, t) })
}

func (c *typeCache) fieldsOf(ctx context.Context, t jdwp.ReferenceTypeID) ([]jdwp.FieldInfo, error) {
	return cached(c, "fields", c.fields, t, func() ([]jdwp.FieldInfo, error) { return c.vm.Fields(ctx, t) })
}

func (c *typeCache) superclass(ctx context.Context, t jdwp.ReferenceTypeID) (jdwp.ReferenceTypeID, error) {
	return cached(c, "super", c.supers, t, func() (jdwp.ReferenceTypeID, error) { return c.vm.Superclass(ctx, t) })
}

func (c *typeCache) method(ctx context.Context, t jdwp.ReferenceTypeID, m jdwp.MethodID) (jdwp.MethodInfo, bool) {
	ms, err := c.methodsOf(ctx, t)
	if err != nil {
		return jdwp.MethodInfo{}, false
	}
	for _, mi := range ms {
		if mi.ID == m {
			return mi, true
		}
	}
	return jdwp.MethodInfo{}, false
}

// lineTable is a method's line table; the error (no -g:lines, native or
// abstract method) is cached too.
func (c *typeCache) lineTable(ctx context.Context, t jdwp.ReferenceTypeID, m jdwp.MethodID) (jdwp.LineTable, error) {
	li, _ := cached(c, "lines", c.lines, methodKey{t, m}, func() (*lineInfo, error) {
		lt, err := c.vm.LineTable(ctx, t, m)
		return &lineInfo{lt, err}, nil
	})
	return li.table, li.err
}

func (c *typeCache) variableTable(ctx context.Context, t jdwp.ReferenceTypeID, m jdwp.MethodID) (jdwp.VariableTable, error) {
	vi, _ := cached(c, "vars", c.vars, methodKey{t, m}, func() (*varInfo, error) {
		vt, err := c.vm.VariableTable(ctx, t, m)
		return &varInfo{vt, err}, nil
	})
	return vi.table, vi.err
}

// lineOf is the source line of a location (-1 when unknown).
func (c *typeCache) lineOf(ctx context.Context, l jdwp.Location) int {
	lt, err := c.lineTable(ctx, l.Class, l.Method)
	if err != nil {
		return -1
	}
	line, best := -1, uint64(0)
	for _, e := range lt.Lines {
		if e.Index <= l.Index && (line < 0 || e.Index >= best) {
			line, best = int(e.Line), e.Index
		}
	}
	return line
}

// implements lists every class and interface name a type is assignable
// to, for recognising collections.
func (c *typeCache) implements(ctx context.Context, t jdwp.ReferenceTypeID) map[string]bool {
	set, _ := cached(c, "ifaces", c.ifaces, t, func() (map[string]bool, error) {
		out := map[string]bool{}
		var walk func(id jdwp.ReferenceTypeID, depth int)
		walk = func(id jdwp.ReferenceTypeID, depth int) {
			if id == 0 || depth > 20 {
				return
			}
			name := c.className(ctx, id)
			if out[name] {
				return
			}
			out[name] = true
			if ifs, err := c.vm.Interfaces(ctx, id); err == nil {
				for _, i := range ifs {
					walk(i, depth+1)
				}
			}
			if sup, err := c.superclass(ctx, id); err == nil {
				walk(sup, depth+1)
			}
		}
		walk(t, 0)
		return out, nil
	})
	return set
}

// findMethod finds a method by name and argument count on a type or its
// superclasses; the type that declares it is returned with it.
func (c *typeCache) findMethod(ctx context.Context, t jdwp.ReferenceTypeID, name string, nargs int) (jdwp.ReferenceTypeID, jdwp.MethodInfo, error) {
	for id, depth := t, 0; id != 0 && depth < 30; depth++ {
		ms, err := c.methodsOf(ctx, id)
		if err != nil {
			return 0, jdwp.MethodInfo{}, err
		}
		for _, m := range ms {
			if m.Name == name && argCount(m.Signature) == nargs {
				return id, m, nil
			}
		}
		sup, err := c.superclass(ctx, id)
		if err != nil {
			break
		}
		id = sup
	}
	// Interfaces' default methods (List.of(...).size() is on the class,
	// but some are only defaults).
	for name2 := range c.implements(ctx, t) {
		refs, err := c.vm.ClassesBySignature(ctx, signatureOf(name2))
		if err != nil || len(refs) == 0 || refs[0].TypeTag != jdwp.TypeInterface {
			continue
		}
		ms, err := c.methodsOf(ctx, refs[0].ID)
		if err != nil {
			continue
		}
		for _, m := range ms {
			if m.Name == name && argCount(m.Signature) == nargs && m.ModBits&0x0400 == 0 {
				return refs[0].ID, m, nil
			}
		}
	}
	return 0, jdwp.MethodInfo{}, fmt.Errorf("%s has no method %s with %d argument(s)", c.className(ctx, t), name, nargs)
}

// findField finds an instance or static field by name on a type or its
// superclasses.
func (c *typeCache) findField(ctx context.Context, t jdwp.ReferenceTypeID, name string) (jdwp.ReferenceTypeID, jdwp.FieldInfo, bool) {
	for id, depth := t, 0; id != 0 && depth < 30; depth++ {
		fs, err := c.fieldsOf(ctx, id)
		if err != nil {
			return 0, jdwp.FieldInfo{}, false
		}
		for _, f := range fs {
			if f.Name == name {
				return id, f, true
			}
		}
		sup, err := c.superclass(ctx, id)
		if err != nil {
			break
		}
		id = sup
	}
	return 0, jdwp.FieldInfo{}, false
}

// argCount counts the parameters of a method signature "(ILjava/lang/String;)V".
func argCount(sig string) int {
	n := 0
	i := 1
	for i < len(sig) && sig[i] != ')' {
		for i < len(sig) && sig[i] == '[' {
			i++
		}
		if i < len(sig) && sig[i] == 'L' {
			for i < len(sig) && sig[i] != ';' {
				i++
			}
		}
		i++
		n++
	}
	return n
}

// typeName turns a JNI signature into a Java type name.
func typeName(sig string) string {
	dims := 0
	for strings.HasPrefix(sig, "[") {
		dims++
		sig = sig[1:]
	}
	var base string
	switch sig {
	case "B":
		base = "byte"
	case "C":
		base = "char"
	case "D":
		base = "double"
	case "F":
		base = "float"
	case "I":
		base = "int"
	case "J":
		base = "long"
	case "S":
		base = "short"
	case "Z":
		base = "boolean"
	case "V":
		base = "void"
	default:
		base = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(sig, "L"), ";"), "/", ".")
	}
	return base + strings.Repeat("[]", dims)
}

// signatureOf turns a class name into its JNI signature.
func signatureOf(name string) string {
	return "L" + strings.ReplaceAll(name, ".", "/") + ";"
}

// simpleName drops a class name's package.
func simpleName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}
