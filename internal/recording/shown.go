package recording

import (
	"strconv"
	"strings"
)

// repeatMin is the shortest argument value the report refers back to
// instead of repeating: shorter ones cost less than the reference.
const repeatMin = 24

// shown remembers what the report has already shown, so that it says each
// thing once: an argument whose value the same parameter had on a line
// added before is shown as "(as #id)", naming that line's call, and an
// object (Type#3{...}) shown before with the same fields is shown by its
// identity alone (Type#3). Lines are added in the order a cut report loses them,
// last lost first: the path, then the last calls from the latest.
type shown struct {
	args    map[string]int
	objects map[string]bool
}

func newShown() *shown {
	return &shown{args: map[string]int{}, objects: map[string]bool{}}
}

// callArgs shows call id's arguments as a call would: a=1, b='x'.
func (s *shown) callArgs(id int, args [][]string) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if len(a) == 2 {
			parts = append(parts, a[0]+"="+cut(s.arg(id, a[0], a[1]), argCut))
		}
	}
	return cut(strings.Join(parts, ", "), argsCut)
}

// arg is how the report shows an argument of call id.
func (s *shown) arg(id int, name, value string) string {
	if len(value) >= repeatMin {
		key := name + "\x00" + value
		if earlier, ok := s.args[key]; ok && earlier != id {
			return "(as #" + strconv.Itoa(earlier) + ")"
		}
		s.args[key] = id
	}
	return s.value(value)
}

// value is a rendered value with the objects shown before by identity.
func (s *shown) value(v string) string {
	var out strings.Builder
	s.compact(&out, v)
	return out.String()
}

// compact writes v, each object in it either in full (the first time,
// its own fields compacted) or by its identity (when shown before).
func (s *shown) compact(out *strings.Builder, v string) {
	for i := 0; i < len(v); {
		switch c := v[i]; {
		case c == '\'' || c == '"':
			end := quotedEnd(v, i)
			out.WriteString(v[i:end])
			i = end
		case isNameByte(c) && (i == 0 || !isNameByte(v[i-1])):
			open, close := objectAt(v, i)
			if close < 0 {
				end := i + 1
				for end < len(v) && isNameByte(v[end]) {
					end++
				}
				out.WriteString(v[i:end])
				i = end
				continue
			}
			full := v[i : close+1]
			out.WriteString(v[i:open])
			if !s.objects[full] {
				s.objects[full] = true
				out.WriteByte('{')
				s.compact(out, v[open+1:close])
				out.WriteByte('}')
			}
			i = close + 1
		default:
			out.WriteByte(c)
			i++
		}
	}
}

// objectAt finds an object rendered as Type#3{...} starting at i: the
// index of its opening brace and of the brace that closes it, close -1
// when none starts there (or a cut value lost its end).
func objectAt(v string, i int) (open, close int) {
	j := i
	for j < len(v) && isNameByte(v[j]) {
		j++
	}
	if j == i || j >= len(v) || v[j] != '#' {
		return 0, -1
	}
	k := j + 1
	for k < len(v) && v[k] >= '0' && v[k] <= '9' {
		k++
	}
	if k == j+1 || k >= len(v) || v[k] != '{' {
		return 0, -1
	}
	depth := 0
	for m := k; m < len(v); {
		switch v[m] {
		case '\'', '"':
			m = quotedEnd(v, m)
			continue
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
			if depth == 0 {
				if v[m] != '}' {
					return 0, -1
				}
				return k, m
			}
		}
		m++
	}
	return 0, -1
}

// quotedEnd is the index just past the string literal opening at i (its
// end when the value was cut inside it).
func quotedEnd(v string, i int) int {
	q := v[i]
	for j := i + 1; j < len(v); j++ {
		switch v[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(v)
}

// isNameByte is a byte of a type's name as recorders write it
// (pkg.Type, Outer$Inner, item).
func isNameByte(c byte) bool {
	return c == '_' || c == '$' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
