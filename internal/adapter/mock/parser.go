package mock

import (
	"fmt"
	"sort"
	"strings"
)

// program is a parsed .mock file.
type program struct {
	path      string
	lineCount int
	top       []stmt
	funcs     map[string]*funcStmt
	// stmtLines holds every line that starts a statement, sorted: where
	// breakpoints may be verified.
	stmtLines []int
}

// stmt is one statement; each occupies exactly one line.
type stmt interface{ lineNo() int }

type pos struct{ line int }

func (p pos) lineNo() int { return p.line }

type (
	// assignStmt is let (define) or set (assign an existing name).
	assignStmt struct {
		pos
		name   string
		x      expr
		define bool
	}
	printStmt struct {
		pos
		x      expr
		stderr bool
	}
	funcStmt struct {
		pos
		name   string
		params []string
		body   []stmt
	}
	returnStmt struct {
		pos
		x expr // nil returns null
	}
	forStmt struct {
		pos
		name     string
		from, to expr
		body     []stmt
	}
	loopStmt struct {
		pos
		body []stmt
	}
	sleepStmt struct {
		pos
		x expr
	}
	throwStmt struct {
		pos
		x expr
	}
	exitStmt struct {
		pos
		x expr // nil exits with 0
	}
	crashStmt struct{ pos }
	callStmt  struct {
		pos
		call *callExpr
	}
)

// expr is an expression node.
type expr interface{}

type (
	literal  struct{ v value }
	nameExpr struct{ name string }
	listExpr struct{ items []expr }
	mapExpr  struct {
		keys []string
		vals []expr
	}
	memberExpr struct {
		x   expr
		key string
	}
	indexExpr struct{ x, i expr }
	callExpr  struct {
		fn   string
		args []expr
	}
	unaryExpr struct {
		op string
		x  expr
	}
	binaryExpr struct {
		op   string
		l, r expr
	}
)

var builtins = map[string]bool{"str": true, "len": true}

// block is a func, for or loop whose end has not been read yet.
type block struct {
	opener string
	line   int
	body   *[]stmt
}

// parseProgram parses a whole file. Errors name the 1-based line.
func parseProgram(path string, src []byte) (*program, error) {
	text := strings.TrimSuffix(string(src), "\n")
	lines := strings.Split(text, "\n")
	if text == "" {
		lines = nil
	}
	prog := &program{path: path, lineCount: len(lines), funcs: map[string]*funcStmt{}}
	stack := []block{{body: &prog.top}}
	for i, raw := range lines {
		n := i + 1
		toks, err := lex(raw)
		if err != nil {
			return nil, fmt.Errorf("syntax error at line %d: %v", n, err)
		}
		if len(toks) == 0 {
			continue
		}
		p := &parser{toks: toks}
		if toks[0].kind == tIdent && toks[0].text == "end" {
			if len(toks) > 1 {
				return nil, fmt.Errorf("syntax error at line %d: unexpected %s after end", n, toks[1])
			}
			if len(stack) == 1 {
				return nil, fmt.Errorf("syntax error at line %d: end without a func, for or loop to close", n)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		s, opens, err := p.statement(n, stack)
		if err != nil {
			return nil, fmt.Errorf("syntax error at line %d: %v", n, err)
		}
		cur := stack[len(stack)-1].body
		*cur = append(*cur, s)
		prog.stmtLines = append(prog.stmtLines, n)
		if f, ok := s.(*funcStmt); ok {
			if prev, dup := prog.funcs[f.name]; dup {
				return nil, fmt.Errorf("syntax error at line %d: function %s is already defined at line %d", n, f.name, prev.line)
			}
			prog.funcs[f.name] = f
		}
		if opens != nil {
			stack = append(stack, *opens)
		}
	}
	if len(stack) > 1 {
		b := stack[len(stack)-1]
		return nil, fmt.Errorf("syntax error at line %d: %s has no matching end", b.line, b.opener)
	}
	sort.Ints(prog.stmtLines)
	return prog, nil
}

// parseExpression parses a whole line as one expression (evaluate,
// conditions, log message holes, setVariable values).
func parseExpression(src string) (expr, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	if err := p.done(); err != nil {
		return nil, err
	}
	return x, nil
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return token{kind: tEOF}
}

func (p *parser) next() token {
	t := p.peek()
	if p.i < len(p.toks) {
		p.i++
	}
	return t
}

// accept consumes an operator or keyword when it is next.
func (p *parser) accept(text string) bool {
	t := p.peek()
	if (t.kind == tOp || t.kind == tIdent) && t.text == text {
		p.i++
		return true
	}
	return false
}

func (p *parser) expect(text string) error {
	if !p.accept(text) {
		return fmt.Errorf("expected %q, found %s", text, p.peek())
	}
	return nil
}

func (p *parser) done() error {
	if t := p.peek(); t.kind != tEOF {
		return fmt.Errorf("unexpected %s", t)
	}
	return nil
}

// name reads an identifier that is not a keyword.
func (p *parser) name(what string) (string, error) {
	t := p.next()
	if t.kind != tIdent {
		return "", fmt.Errorf("expected %s, found %s", what, t)
	}
	if keywords[t.text] {
		return "", fmt.Errorf("%s is a reserved word and cannot be a %s", t.text, what)
	}
	return t.text, nil
}

// statement parses one line; opens is set when the line starts a block.
func (p *parser) statement(line int, stack []block) (s stmt, opens *block, err error) {
	at := pos{line}
	kw := p.peek()
	if kw.kind == tIdent {
		switch kw.text {
		case "let", "set":
			p.next()
			name, err := p.name("variable name")
			if err != nil {
				return nil, nil, err
			}
			if err := p.expect("="); err != nil {
				return nil, nil, err
			}
			x, err := p.rest()
			return &assignStmt{pos: at, name: name, x: x, define: kw.text == "let"}, nil, err
		case "print", "eprint":
			p.next()
			x, err := p.rest()
			return &printStmt{pos: at, x: x, stderr: kw.text == "eprint"}, nil, err
		case "sleep":
			p.next()
			x, err := p.rest()
			return &sleepStmt{pos: at, x: x}, nil, err
		case "throw":
			p.next()
			x, err := p.rest()
			return &throwStmt{pos: at, x: x}, nil, err
		case "return", "exit":
			p.next()
			inFunc := len(stack) > 1 && strings.HasPrefix(stack[1].opener, "func ")
			if !inFunc && kw.text == "return" {
				return nil, nil, fmt.Errorf("return outside a function")
			}
			var x expr
			if p.peek().kind != tEOF {
				if x, err = p.rest(); err != nil {
					return nil, nil, err
				}
			}
			if kw.text == "return" {
				return &returnStmt{pos: at, x: x}, nil, nil
			}
			return &exitStmt{pos: at, x: x}, nil, nil
		case "crash":
			p.next()
			return &crashStmt{pos: at}, nil, p.done()
		case "loop":
			p.next()
			l := &loopStmt{pos: at}
			return l, &block{opener: "loop", line: line, body: &l.body}, p.done()
		case "for":
			return p.forStatement(at)
		case "func":
			if len(stack) > 1 {
				return nil, nil, fmt.Errorf("func is only allowed at the top level")
			}
			return p.funcStatement(at)
		}
	}
	x, err := p.rest()
	if err != nil {
		return nil, nil, err
	}
	call, ok := x.(*callExpr)
	if !ok {
		return nil, nil, fmt.Errorf("expected a statement, found %s", kw)
	}
	return &callStmt{pos: at, call: call}, nil, nil
}

// rest parses an expression that must end the line.
func (p *parser) rest() (expr, error) {
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	return x, p.done()
}

func (p *parser) forStatement(at pos) (stmt, *block, error) {
	p.next()
	name, err := p.name("loop variable")
	if err != nil {
		return nil, nil, err
	}
	if err := p.expect("in"); err != nil {
		return nil, nil, err
	}
	from, err := p.expr()
	if err != nil {
		return nil, nil, err
	}
	if err := p.expect(".."); err != nil {
		return nil, nil, err
	}
	to, err := p.rest()
	if err != nil {
		return nil, nil, err
	}
	f := &forStmt{pos: at, name: name, from: from, to: to}
	return f, &block{opener: "for", line: at.line, body: &f.body}, nil
}

func (p *parser) funcStatement(at pos) (stmt, *block, error) {
	p.next()
	name, err := p.name("function name")
	if err != nil {
		return nil, nil, err
	}
	if builtins[name] {
		return nil, nil, fmt.Errorf("%s is a built-in function and cannot be redefined", name)
	}
	if err := p.expect("("); err != nil {
		return nil, nil, err
	}
	f := &funcStmt{pos: at, name: name}
	for !p.accept(")") {
		if len(f.params) > 0 {
			if err := p.expect(","); err != nil {
				return nil, nil, err
			}
		}
		param, err := p.name("parameter name")
		if err != nil {
			return nil, nil, err
		}
		f.params = append(f.params, param)
	}
	return f, &block{opener: "func " + name, line: at.line, body: &f.body}, p.done()
}

// Expressions, loosest binding first: or, and, not, comparison, + -,
// * / %, unary minus, postfix (. [] call), primary.

func (p *parser) expr() (expr, error) { return p.binary(0) }

var precedence = [][]string{
	{"or"},
	{"and"},
	nil, // not
	{"==", "!=", "<", ">", "<=", ">="},
	{"+", "-"},
	{"*", "/", "%"},
}

func (p *parser) binary(level int) (expr, error) {
	if level == len(precedence) {
		return p.unary()
	}
	if precedence[level] == nil {
		if p.accept("not") {
			x, err := p.binary(level)
			return &unaryExpr{op: "not", x: x}, err
		}
		return p.binary(level + 1)
	}
	l, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		op := ""
		for _, o := range precedence[level] {
			if p.accept(o) {
				op = o
				break
			}
		}
		if op == "" {
			return l, nil
		}
		r, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		l = &binaryExpr{op: op, l: l, r: r}
	}
}

func (p *parser) unary() (expr, error) {
	if p.accept("-") {
		x, err := p.unary()
		return &unaryExpr{op: "-", x: x}, err
	}
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.accept("."):
			t := p.next()
			if t.kind != tIdent {
				return nil, fmt.Errorf("expected a key after \".\", found %s", t)
			}
			x = &memberExpr{x: x, key: t.text}
		case p.accept("["):
			i, err := p.expr()
			if err != nil {
				return nil, err
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			x = &indexExpr{x: x, i: i}
		default:
			return x, nil
		}
	}
}

func (p *parser) primary() (expr, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		return &literal{v: t.num}, nil
	case tStr:
		return &literal{v: t.str}, nil
	case tIdent:
		switch t.text {
		case "true", "false":
			return &literal{v: t.text == "true"}, nil
		case "null":
			return &literal{v: nil}, nil
		}
		if keywords[t.text] {
			return nil, fmt.Errorf("unexpected %s", t)
		}
		if !p.accept("(") {
			return &nameExpr{name: t.text}, nil
		}
		args, err := p.items(")")
		return &callExpr{fn: t.text, args: args}, err
	case tOp:
		switch t.text {
		case "(":
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			return x, p.expect(")")
		case "[":
			items, err := p.items("]")
			return &listExpr{items: items}, err
		case "{":
			return p.mapLiteral()
		}
	}
	return nil, fmt.Errorf("unexpected %s", t)
}

// items parses comma-separated expressions up to the closing token.
func (p *parser) items(closer string) ([]expr, error) {
	var xs []expr
	for !p.accept(closer) {
		if len(xs) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		xs = append(xs, x)
	}
	return xs, nil
}

func (p *parser) mapLiteral() (expr, error) {
	m := &mapExpr{}
	for !p.accept("}") {
		if len(m.keys) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		k := p.next()
		key := k.text
		switch k.kind {
		case tStr:
			key = k.str
		case tIdent:
		default:
			return nil, fmt.Errorf("expected a map key, found %s", k)
		}
		if err := p.expect(":"); err != nil {
			return nil, err
		}
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		m.keys = append(m.keys, key)
		m.vals = append(m.vals, v)
	}
	return m, nil
}

// resolveLine maps a requested breakpoint line to the statement line where
// it takes effect, or explains why there is none.
func (prog *program) resolveLine(line int) (int, string) {
	switch {
	case line < 1:
		return 0, fmt.Sprintf("line %d is not a valid line (lines start at 1)", line)
	case line > prog.lineCount:
		return 0, fmt.Sprintf("line %d is past the end of the program (%d lines)", line, prog.lineCount)
	}
	i := sort.SearchInts(prog.stmtLines, line)
	if i == len(prog.stmtLines) {
		return 0, fmt.Sprintf("no statement at or after line %d (the program has %d lines)", line, prog.lineCount)
	}
	return prog.stmtLines[i], ""
}

// isPath reports whether x is a name followed by members and indexes, i.e.
// something a child's evaluateName can be built on.
func isPath(x expr) bool {
	switch x := x.(type) {
	case *nameExpr:
		return true
	case *memberExpr:
		return isPath(x.x)
	case *indexExpr:
		return isPath(x.x)
	}
	return false
}
