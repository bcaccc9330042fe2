package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-dap"
)

// Bounds on the elements shown inline in a container's value, so that a
// snapshot or trace entry stays small: elements per container, bytes per
// element, and containers per fetch (each costs one request).
const (
	inlineElements   = 8
	inlineElementLen = 40
	inlineContainers = 8
)

// inlineAll rewrites, in place, the values of vars that the adapter shows
// as a bare element count (Quirks.ElementCount: lldb-dap's "size=2" for a
// std::vector or a Rust Vec) into the count followed by the first elements,
// "size=2 [1, 2]", for at most inlineContainers of them.
func inlineAll(ctx context.Context, r *connection, vars []dap.Variable) {
	done := 0
	for i := range vars {
		if done == inlineContainers {
			return
		}
		v, ok := inlineValue(ctx, r, vars[i].Value, vars[i].VariablesReference)
		if ok {
			vars[i].Value = v
			done++
		}
	}
}

// inlineValue is value with its first elements appended, when the adapter
// showed only the count of a container that has children; ok is false,
// and value unchanged, otherwise.
func inlineValue(ctx context.Context, r *connection, value string, ref int) (string, bool) {
	count := r.conn.Quirks.ElementCount
	if count == nil || ref == 0 {
		return value, false
	}
	n, ok := count(value)
	if !ok || n == 0 {
		return value, false
	}
	elems, err := fetchVariables(ctx, r, ref, 0, min(n, inlineElements))
	if err != nil || len(elems) == 0 {
		return value, false
	}
	shown := make([]string, 0, len(elems))
	for _, e := range elems {
		if len(shown) == inlineElements {
			// An adapter may answer with every child, count or not.
			break
		}
		if namesOnlyItsType(e.Value, e.Type) {
			// A list of those says nothing the count does not.
			return value, false
		}
		// Masked one by one: a credential cut short would no longer
		// match the shapes that masking recognises.
		ev, _ := maskValue("", e.Value, e.VariablesReference)
		ev, _ = Cut(ev, inlineElementLen)
		shown = append(shown, ev)
	}
	more := ""
	if n > len(shown) {
		more = ", …"
	}
	return fmt.Sprintf("%s [%s%s]", value, strings.Join(shown, ", "), more), true
}

// namesOnlyItsType reports whether value, a struct's without a summary,
// says no more than its type: lldb-dap 22 shows such a struct as its type
// name ("Shape"), lldb-dap 19 as the name and its address
// ("Shape @ 0x55555556deb0"; docs/adapter-quirks.md, lldb-22).
func namesOnlyItsType(value, typ string) bool {
	if value == "" || value == typ {
		return true
	}
	addr, ok := strings.CutPrefix(value, typ+" @ 0x")
	if !ok || addr == "" {
		return false
	}
	return strings.Trim(addr, "0123456789abcdefABCDEF") == ""
}
