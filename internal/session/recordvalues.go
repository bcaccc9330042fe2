package session

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/google/go-dap"
)

// Rendering limits of docs/recording-format.md, Values.
const (
	recordStringLen = 80
	recordElements  = 8
	recordFields    = 4
)

// valueRenderer renders the adapter's variables as recording values: the
// adapter's own text for scalars, lists inline, any other object as its
// type, an identity and its first fields. Nothing runs the program's
// code: the values are the debugger's reading of memory.
type valueRenderer struct {
	ids  map[string]int // object addresses to identities
	next int
}

func newValueRenderer() *valueRenderer { return &valueRenderer{ids: map[string]int{}} }

// hexAddress finds an address in an adapter's text of a pointer
// (Delve's "(*main.Cart)(0xc000010018)", lldb's "0x00007ffd5c0e1a40").
var hexAddress = regexp.MustCompile(`0x[0-9a-fA-F]+`)

// stringWithAddress is lldb's text of a char pointer: its address, then
// the string.
var stringWithAddress = regexp.MustCompile(`^0x[0-9a-fA-F]+ (".*)$`)

// render is v's recording value; objects and lists are read one level
// down (one request), their elements and fields shown shallow.
func (vr *valueRenderer) render(ctx context.Context, r *connection, v dap.Variable) string {
	if v.VariablesReference == 0 || readsAsString(v.Value) {
		return scalarText(v.Value)
	}
	kids, err := children(ctx, r, v)
	if err != nil {
		return vr.identity(v)
	}
	kids = filterSpecial(kids, false)
	// A pointer whose one child is the object it points to (Delve) is
	// shown as that object, with the pointer's identity.
	if len(kids) == 1 && kids[0].VariablesReference != 0 && strings.HasPrefix(strings.TrimSpace(v.Type), "*") {
		inner := kids[0]
		if more, err := children(ctx, r, inner); err == nil {
			return vr.object(v, filterSpecial(more, false))
		}
	}
	if isList(kids) {
		return vr.list(v, kids)
	}
	return vr.object(v, kids)
}

// children reads a variable's first children: a page of the indexed
// ones of a list, all the named ones of an object (DAP pages indexed
// children only).
func children(ctx context.Context, r *connection, v dap.Variable) ([]dap.Variable, error) {
	if v.IndexedVariables > 0 {
		return fetchVariables(ctx, r, v.VariablesReference, 0, recordElements+1)
	}
	return fetchVariables(ctx, r, v.VariablesReference, 0, 0)
}

func isList(kids []dap.Variable) bool {
	for _, k := range kids {
		if !strings.HasPrefix(k.Name, "[") {
			return false
		}
	}
	return len(kids) > 0
}

func (vr *valueRenderer) list(v dap.Variable, kids []dap.Variable) string {
	total := max(v.IndexedVariables, len(kids))
	if n := lenFromText(v.Value); n > total {
		total = n
	}
	var parts []string
	for i, k := range kids {
		if i == recordElements {
			break
		}
		parts = append(parts, vr.shallow(k))
	}
	if rest := total - len(parts); rest > 0 {
		parts = append(parts, fmt.Sprintf("…+%d", rest))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// lenFromText reads the length Delve writes in a slice's text
// ("[]int len: 30, cap: 30, [...]") or lldb in a container's summary (a
// std::vector's or a Rust slice's "size=3").
func lenFromText(text string) int {
	var n int
	if i := strings.Index(text, "len: "); i >= 0 {
		fmt.Sscanf(text[i+5:], "%d", &n)
	} else if rest, ok := strings.CutPrefix(text, "size="); ok {
		fmt.Sscanf(rest, "%d", &n)
	}
	return n
}

func (vr *valueRenderer) object(v dap.Variable, kids []dap.Variable) string {
	var parts []string
	for i, k := range kids {
		if i == recordFields {
			break
		}
		parts = append(parts, k.Name+"="+vr.shallow(k))
	}
	return vr.identity(v) + "{" + strings.Join(parts, ", ") + "}"
}

// shallow renders an element or field without reading further.
func (vr *valueRenderer) shallow(v dap.Variable) string {
	if v.VariablesReference == 0 || readsAsString(v.Value) {
		return scalarText(v.Value)
	}
	if n := max(v.IndexedVariables, lenFromText(v.Value)); n > 0 {
		return fmt.Sprintf("[…+%d]", n)
	}
	return vr.identity(v)
}

// readsAsString reports a value that has children (its chars, or a
// string object's fields) but that the adapter shows as the string it
// holds: lldb's text of a char pointer (its address, then the string), and
// its summary of a C++ std::string or a Rust &str or String ("pen").
func readsAsString(text string) bool {
	return stringWithAddress.MatchString(text) || strings.HasPrefix(text, `"`)
}

// identity is an object's type and a number stable within the recording
// for the same address; an object whose address the adapter does not
// show gets a number of its own. A value that is no pointer (a C struct
// passed by value) has no identity to keep: lldb's memory reference is
// then the stack slot, the same for every call.
func (vr *valueRenderer) identity(v dap.Variable) string {
	key := hexAddress.FindString(v.Value)
	if key == "" && strings.Contains(v.Type, "*") {
		key = v.MemoryReference
	}
	id, ok := vr.ids[key]
	if !ok || key == "" {
		vr.next++
		id = vr.next
		if key != "" {
			vr.ids[key] = id
		}
	}
	return shortType(v.Type, v.Value) + fmt.Sprintf("#%d", id)
}

// shortType is a type's name without its package, template arguments,
// qualifiers or pointer marks ("*main.Cart" → "Cart", "cart::Item *" →
// "Item", "struct item" → "item", "shop::Cart *const" → "Cart",
// "std::vector<shop::Item>" → "vector").
func shortType(typ, value string) string {
	t := strings.TrimSpace(typ)
	if t == "" {
		t, _, _ = strings.Cut(strings.TrimSpace(value), " ")
	}
	if i := strings.IndexByte(t, '<'); i > 0 {
		t = t[:i]
	}
	t = strings.TrimRight(t, "*& ")
	if base, ok := strings.CutSuffix(t, "const"); ok && (strings.HasSuffix(base, " ") || strings.HasSuffix(base, "*")) {
		t = base
	}
	t = strings.Trim(strings.TrimPrefix(strings.TrimPrefix(t, "const "), "struct "), "*& ")
	if i := strings.LastIndex(t, "::"); i >= 0 {
		t = t[i+2:]
	}
	if !strings.ContainsAny(t, "[]") {
		if i := strings.LastIndex(t, "."); i >= 0 {
			t = t[i+1:]
		}
	}
	if t == "" {
		return "object"
	}
	return t
}

// scalarText is a scalar's text as the adapter shows it, a C string
// without its address, cut at the recording's string length.
func scalarText(text string) string {
	if m := stringWithAddress.FindStringSubmatch(text); m != nil {
		text = m[1]
	}
	if r := []rune(text); len(r) > recordStringLen {
		return string(r[:recordStringLen]) + "…"
	}
	return text
}
