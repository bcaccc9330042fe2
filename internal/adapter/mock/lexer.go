package mock

import (
	"fmt"
	"strconv"
	"strings"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tStr
	tOp
)

// token is one lexeme of a line. Statements never span lines, so the lexer
// works a line at a time.
type token struct {
	kind tokKind
	text string // identifier, operator or integer as written
	num  int64
	str  string
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of line"
	case tStr:
		return strconv.Quote(t.str)
	}
	return strconv.Quote(t.text)
}

// keywords cannot be used as names.
var keywords = map[string]bool{
	"let": true, "set": true, "print": true, "eprint": true, "func": true,
	"return": true, "for": true, "in": true, "loop": true, "end": true,
	"sleep": true, "throw": true, "exit": true, "crash": true,
	"true": true, "false": true, "null": true, "and": true, "or": true, "not": true,
}

var twoCharOps = []string{"==", "!=", "<=", ">=", ".."}

// lex splits one line into tokens, dropping a trailing comment.
func lex(line string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(line) {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			i = len(line)
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			n, err := strconv.ParseInt(line[i:j], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("integer %s is too large", line[i:j])
			}
			toks = append(toks, token{kind: tInt, text: line[i:j], num: n})
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(line) && (line[j] == '_' || line[j] >= 'a' && line[j] <= 'z' || line[j] >= 'A' && line[j] <= 'Z' || line[j] >= '0' && line[j] <= '9') {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: line[i:j]})
			i = j
		case c == '"':
			s, n, err := lexString(line[i:])
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tStr, str: s})
			i += n
		default:
			op := ""
			for _, two := range twoCharOps {
				if strings.HasPrefix(line[i:], two) {
					op = two
					break
				}
			}
			if op == "" && strings.IndexByte("()[]{},:.+-*/%<>=", c) >= 0 {
				op = line[i : i+1]
			}
			if op == "" {
				return nil, fmt.Errorf("unexpected character %q", rune(c))
			}
			toks = append(toks, token{kind: tOp, text: op})
			i += len(op)
		}
	}
	return toks, nil
}

// lexString reads a double-quoted literal at the start of s and returns its
// value and its length in s.
func lexString(s string) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			if i+1 == len(s) {
				return "", 0, fmt.Errorf("unterminated string")
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '"', '\\':
				b.WriteByte(s[i])
			default:
				return "", 0, fmt.Errorf("unknown escape \\%c in string", s[i])
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return "", 0, fmt.Errorf("unterminated string")
}
