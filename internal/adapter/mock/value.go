package mock

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// value is a mock-language value: int64, string, bool, nil (null), *list
// or *dict. Lists and maps are references, as in Python, so that a
// setVariable on an element is seen by every name that holds the container.
type value any

// list is the mock language's list.
type list struct {
	items []value
}

// dict is an insertion-ordered map. It also holds a frame's variables, so
// that scopes list variables in the order the program defined them.
type dict struct {
	keys []string
	vals map[string]value
}

func newDict() *dict { return &dict{vals: map[string]value{}} }

func (d *dict) get(k string) (value, bool) {
	v, ok := d.vals[k]
	return v, ok
}

func (d *dict) set(k string, v value) {
	if _, ok := d.vals[k]; !ok {
		d.keys = append(d.keys, k)
	}
	d.vals[k] = v
}

// maxShowDepth bounds formatting and comparison, because setVariable can
// make a list contain itself.
const maxShowDepth = 16

// typeName is the type shown in variables and evaluate results.
func typeName(v value) string {
	switch v.(type) {
	case int64:
		return "int"
	case string:
		return "str"
	case bool:
		return "bool"
	case *list:
		return "list"
	case *dict:
		return "map"
	}
	return "null"
}

// show formats a value the way the debugger displays it: strings quoted,
// containers in literal syntax.
func show(v value) string {
	var b strings.Builder
	writeValue(&b, v, 0)
	return b.String()
}

// text is what print and str() produce: strings as they are, everything
// else as shown.
func text(v value) string {
	if s, ok := v.(string); ok {
		return s
	}
	return show(v)
}

func writeValue(b *strings.Builder, v value, depth int) {
	if depth > maxShowDepth {
		b.WriteString("…")
		return
	}
	switch v := v.(type) {
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case string:
		b.WriteString(strconv.Quote(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case *list:
		b.WriteByte('[')
		for i, it := range v.items {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, it, depth+1)
		}
		b.WriteByte(']')
	case *dict:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(showKey(k))
			b.WriteString(": ")
			writeValue(b, v.vals[k], depth+1)
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// showKey writes a map key bare when it could be written so in a literal.
func showKey(k string) string {
	if isIdent(k) {
		return k
	}
	return strconv.Quote(k)
}

func isIdent(s string) bool {
	if s == "" || keywords[s] {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// truthy follows Python: false, null, 0, "" and empty containers are false.
func truthy(v value) bool {
	switch v := v.(type) {
	case int64:
		return v != 0
	case string:
		return v != ""
	case bool:
		return v
	case *list:
		return len(v.items) > 0
	case *dict:
		return len(v.keys) > 0
	}
	return false
}

// equal compares by value, containers element by element.
func equal(a, b value, depth int) bool {
	if depth > maxShowDepth {
		return false
	}
	switch a := a.(type) {
	case *list:
		b, ok := b.(*list)
		if !ok || len(a.items) != len(b.items) {
			return false
		}
		if a == b {
			return true
		}
		for i := range a.items {
			if !equal(a.items[i], b.items[i], depth+1) {
				return false
			}
		}
		return true
	case *dict:
		b, ok := b.(*dict)
		if !ok || len(a.keys) != len(b.keys) {
			return false
		}
		if a == b {
			return true
		}
		for _, k := range a.keys {
			bv, ok := b.vals[k]
			if !ok || !equal(a.vals[k], bv, depth+1) {
				return false
			}
		}
		return true
	}
	return a == b
}

// length is len() of a value.
func length(v value) (int64, bool) {
	switch v := v.(type) {
	case string:
		return int64(utf8.RuneCountInString(v)), true
	case *list:
		return int64(len(v.items)), true
	case *dict:
		return int64(len(v.keys)), true
	}
	return 0, false
}
