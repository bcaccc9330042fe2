package recording

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Predicate is a condition on a call's arguments and return value: one or
// more comparisons joined by &&, each a name (an argument, or return), an
// operator (== != < <= > >=) and a literal (a number, a quoted string,
// True/False/None). It is parsed, never evaluated as code: values are the
// recorded strings, compared as numbers when both sides are numbers.
type Predicate struct {
	terms []comparison
}

type comparison struct {
	name, op string
	literal  string
	number   float64
	isNumber bool
	isString bool
}

var operators = []string{"==", "!=", "<=", ">=", "<", ">"}

// ParsePredicate reads a predicate such as `n > 3 && name == 'x'`.
func ParsePredicate(src string) (*Predicate, error) {
	p := &Predicate{}
	for _, part := range strings.Split(src, "&&") {
		c, err := parseComparison(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("predicate %q: %w", src, err)
		}
		p.terms = append(p.terms, c)
	}
	return p, nil
}

func parseComparison(s string) (comparison, error) {
	end := strings.IndexFunc(s, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') })
	if end <= 0 {
		return comparison{}, fmt.Errorf("%q: expected a name (an argument or return) first", s)
	}
	c := comparison{name: s[:end]}
	rest := strings.TrimSpace(s[end:])
	for _, op := range operators {
		if strings.HasPrefix(rest, op) {
			c.op = op
			rest = strings.TrimSpace(rest[len(op):])
			break
		}
	}
	if c.op == "" {
		return comparison{}, fmt.Errorf("%q: expected one of == != < <= > >= after %s", s, c.name)
	}
	if rest == "" {
		return comparison{}, fmt.Errorf("%q: expected a value after %s", s, c.op)
	}
	switch q := rest[0]; {
	case q == '\'' || q == '"':
		if len(rest) < 2 || rest[len(rest)-1] != q {
			return comparison{}, fmt.Errorf("%q: unterminated string", s)
		}
		c.literal, c.isString = rest[1:len(rest)-1], true
	default:
		if n, err := strconv.ParseFloat(rest, 64); err == nil {
			c.number, c.isNumber = n, true
		} else if strings.ContainsAny(rest, " ()[]{}") {
			return comparison{}, fmt.Errorf("%q: the value must be a number, a quoted string or a word such as None", s)
		}
		c.literal = rest
	}
	return c, nil
}

// Names are the names the predicate compares.
func (p *Predicate) Names() []string {
	var out []string
	for _, t := range p.terms {
		out = append(out, t.name)
	}
	return out
}

// Holds reports whether every comparison holds for the values (recorded
// strings by name); a name without a value fails its comparison.
func (p *Predicate) Holds(values map[string]string) bool {
	for _, t := range p.terms {
		v, ok := values[t.name]
		if !ok || !t.holds(v) {
			return false
		}
	}
	return true
}

func (c comparison) holds(value string) bool {
	if c.isNumber {
		n, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return c.op == "!="
		}
		return compare(c.op, cmpFloat(n, c.number))
	}
	if c.isString {
		s, ok := unquote(value)
		if !ok {
			return c.op == "!="
		}
		return compare(c.op, strings.Compare(s, c.literal))
	}
	return compare(c.op, strings.Compare(normalWord(value), normalWord(c.literal)))
}

// unquote reads a recorded string value ('x' or "x"); escapes stay as
// the recorder wrote them.
func unquote(v string) (string, bool) {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1], true
	}
	return "", false
}

// normalWord lets true, True and TRUE (and null, None, nil) compare equal
// whatever the language writes.
func normalWord(s string) string {
	switch strings.ToLower(s) {
	case "none", "null", "nil", "undefined":
		return "null"
	}
	return strings.ToLower(s)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compare(op string, c int) bool {
	switch op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}
