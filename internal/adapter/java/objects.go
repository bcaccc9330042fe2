package java

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// objectCache remembers what never changes about an object: its runtime
// class, a string's characters, an array's length, a boxed primitive's
// value (the wrappers' value fields are final). JDWP never reuses an
// object id for another object (unless the debugger disposes of it, which
// this adapter does not), so the entries stay true; each map is emptied
// when it grows past maxCachedObjects to bound memory. Shared by the
// request and event goroutines.
type objectCache struct {
	mu      sync.Mutex
	classes map[jdwp.ObjectID]jdwp.ReferenceTypeID
	strings map[jdwp.ObjectID]string
	lengths map[jdwp.ObjectID]int
	boxes   map[jdwp.ObjectID]jdwp.Value
}

// maxCachedObjects bounds each map of the object cache.
const maxCachedObjects = 20000

func newObjectCache() *objectCache {
	return &objectCache{
		classes: map[jdwp.ObjectID]jdwp.ReferenceTypeID{},
		strings: map[jdwp.ObjectID]string{},
		lengths: map[jdwp.ObjectID]int{},
		boxes:   map[jdwp.ObjectID]jdwp.Value{},
	}
}

// remembered looks an object up in m, filling it with load on a miss (the
// lock is not held while loading).
func remembered[V any](c *objectCache, m *map[jdwp.ObjectID]V, o jdwp.ObjectID, load func() (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := (*m)[o]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if len(*m) >= maxCachedObjects {
		*m = map[jdwp.ObjectID]V{}
	}
	(*m)[o] = v
	c.mu.Unlock()
	return v, nil
}

// objectClass is an object's runtime class.
func (s *server) objectClass(ctx context.Context, o jdwp.ObjectID) (jdwp.ReferenceTypeID, error) {
	return remembered(s.objs, &s.objs.classes, o, func() (jdwp.ReferenceTypeID, error) {
		_, t, err := s.vm.ReferenceType(ctx, o)
		return t, err
	})
}

// stringValue is a string object's characters.
func (s *server) stringValue(ctx context.Context, o jdwp.ObjectID) (string, error) {
	return remembered(s.objs, &s.objs.strings, o, func() (string, error) { return s.vm.StringValue(ctx, o) })
}

// arrayLength is an array's length.
func (s *server) arrayLength(ctx context.Context, o jdwp.ObjectID) (int, error) {
	return remembered(s.objs, &s.objs.lengths, o, func() (int, error) { return s.vm.ArrayLength(ctx, o) })
}

// boxedValue is the primitive inside a wrapper (Integer, Boolean, …) of
// class.
func (s *server) boxedValue(ctx context.Context, o jdwp.ObjectID, class jdwp.ReferenceTypeID) (jdwp.Value, error) {
	return remembered(s.objs, &s.objs.boxes, o, func() (jdwp.Value, error) {
		_, f, ok := s.types.findField(ctx, class, "value")
		if !ok {
			return jdwp.Value{}, fmt.Errorf("%s has no value field", s.types.className(ctx, class))
		}
		vals, err := s.vm.FieldValues(ctx, o, []jdwp.FieldID{f.ID})
		if err != nil {
			return jdwp.Value{}, err
		}
		if len(vals) != 1 {
			return jdwp.Value{}, fmt.Errorf("boxed value: %d values", len(vals))
		}
		return vals[0], nil
	})
}

// warm loads, concurrently, what rendering these values will ask for: the
// characters of strings, the class of objects, the length of arrays, the
// value of boxed primitives. The
// VM answers one command at a time, but sending them together saves a
// round trip each.
func (s *server) warm(ctx context.Context, vals []jdwp.Value) {
	var w dapserver.Workers
	for _, v := range vals {
		if !v.IsObject() || v.Object == 0 {
			continue
		}
		w.Go(func() {
			if v.Tag == jdwp.TagString {
				_, _ = s.stringValue(ctx, v.Object)
				return
			}
			class, err := s.objectClass(ctx, v.Object)
			if err != nil {
				return
			}
			if v.Tag == jdwp.TagArray {
				_, _ = s.arrayLength(ctx, v.Object)
				return
			}
			if boxed[s.types.className(ctx, class)] {
				_, _ = s.boxedValue(ctx, v.Object, class)
			}
		})
	}
	w.Wait()
}
