package java

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// Bounds of a recorded value (docs/recording-format.md, Values).
const (
	maxRecordedString   = 80
	maxRecordedElements = 8
	maxRecordedFields   = 4
	// maxRecordedDepth is how deep arrays and fields are shown inline:
	// an object's fields and an array's elements are one level down,
	// and an object there is shown by its identity alone.
	maxRecordedDepth = 2
)

// valueRenderer renders values for a recording by reading them over
// JDWP only: it never invokes a method of the program (no toString), so
// rendering runs none of the program's code.
type valueRenderer struct {
	vm    *jdwp.Conn
	types *typeCache
	// ids numbers objects in the order they are first shown: Point#3
	// names the same object everywhere in the recording.
	ids     map[jdwp.ObjectID]int
	classes map[jdwp.ObjectID]jdwp.ReferenceTypeID
}

func newValueRenderer(vm *jdwp.Conn, types *typeCache) *valueRenderer {
	return &valueRenderer{vm: vm, types: types, ids: map[jdwp.ObjectID]int{}, classes: map[jdwp.ObjectID]jdwp.ReferenceTypeID{}}
}

// render is a value's text at depth (0 for an argument, a return, a local).
func (r *valueRenderer) render(ctx context.Context, v jdwp.Value, depth int) string {
	if !v.IsObject() {
		return primitiveText(v)
	}
	if v.Object == 0 {
		return "null"
	}
	if v.Tag == jdwp.TagString {
		s, err := r.vm.StringValue(ctx, v.Object)
		if err != nil {
			return "<string unavailable>"
		}
		return strconv.Quote(cutString(s))
	}
	class, err := r.classOf(ctx, v.Object)
	if err != nil {
		return "<object collected>"
	}
	name := r.types.className(ctx, class)
	if boxed[name] {
		if _, f, ok := r.types.findField(ctx, class, "value"); ok {
			if vals, err := r.vm.FieldValues(ctx, v.Object, []jdwp.FieldID{f.ID}); err == nil && len(vals) == 1 {
				return primitiveText(vals[0])
			}
		}
	}
	identity := func() string { return fmt.Sprintf("%s#%d", simpleName(name), r.identity(v.Object)) }
	switch {
	case depth >= maxRecordedDepth:
		return identity()
	case v.Tag == jdwp.TagArray:
		if text, ok := r.array(ctx, v.Object, depth); ok {
			return text
		}
		return identity()
	case depth > 0:
		return identity()
	}
	return identity() + r.fields(ctx, v.Object, class, depth)
}

// cutString bounds a string at maxRecordedString characters.
func cutString(s string) string {
	if utf8.RuneCountInString(s) <= maxRecordedString {
		return s
	}
	return string([]rune(s)[:maxRecordedString]) + "…"
}

func (r *valueRenderer) classOf(ctx context.Context, o jdwp.ObjectID) (jdwp.ReferenceTypeID, error) {
	if c, ok := r.classes[o]; ok {
		return c, nil
	}
	_, c, err := r.vm.ReferenceType(ctx, o)
	if err != nil {
		return 0, err
	}
	r.classes[o] = c
	return c, nil
}

func (r *valueRenderer) identity(o jdwp.ObjectID) int {
	if n, ok := r.ids[o]; ok {
		return n
	}
	n := len(r.ids) + 1
	r.ids[o] = n
	return n
}

// array shows the first elements inline: "[3, 1, 4, …+30]"; false when
// they cannot be read.
func (r *valueRenderer) array(ctx context.Context, o jdwp.ObjectID, depth int) (string, bool) {
	n, err := r.vm.ArrayLength(ctx, o)
	if err != nil {
		return "", false
	}
	if n == 0 {
		return "[]", true
	}
	vals, err := r.vm.ArrayValues(ctx, o, 0, min(n, maxRecordedElements))
	if err != nil {
		return "", false
	}
	parts := make([]string, 0, len(vals)+1)
	for _, e := range vals {
		parts = append(parts, r.render(ctx, e, depth+1))
	}
	if n > len(vals) {
		parts = append(parts, fmt.Sprintf("…+%d", n-len(vals)))
	}
	return "[" + strings.Join(parts, ", ") + "]", true
}

// fields shows up to maxRecordedFields of the instance fields the
// object's class declares: "{x=1, y=2}". Compiler-made fields (this$0)
// are left out.
func (r *valueRenderer) fields(ctx context.Context, o jdwp.ObjectID, class jdwp.ReferenceTypeID, depth int) string {
	all, err := r.types.fieldsOf(ctx, class)
	if err != nil {
		return ""
	}
	var shown []jdwp.FieldInfo
	for _, f := range all {
		if !f.Static() && !strings.Contains(f.Name, "$") {
			shown = append(shown, f)
		}
		if len(shown) == maxRecordedFields {
			break
		}
	}
	if len(shown) == 0 {
		return ""
	}
	ids := make([]jdwp.FieldID, len(shown))
	for i, f := range shown {
		ids[i] = f.ID
	}
	vals, err := r.vm.FieldValues(ctx, o, ids)
	if err != nil || len(vals) != len(shown) {
		return ""
	}
	parts := make([]string, len(shown))
	for i, f := range shown {
		parts[i] = f.Name + "=" + r.render(ctx, vals[i], depth+1)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
