package mock

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		"let = 1":                          "syntax error at line 1: expected variable name, found \"=\"",
		"let x 1":                          `syntax error at line 1: expected "=", found "1"`,
		"let end = 1":                      "syntax error at line 1: end is a reserved word and cannot be a variable name",
		"\n\nfunc f(\n":                    `syntax error at line 3: expected parameter name, found end of line`,
		"func f()\n  print 1\n":            "syntax error at line 1: func f has no matching end",
		"for i in 1..3\nloop\nend":         "syntax error at line 1: for has no matching end",
		"end":                              "syntax error at line 1: end without a func, for or loop to close",
		"return 1":                         "syntax error at line 1: return outside a function",
		"for i in 1..2\n  return\nend":     "syntax error at line 2: return outside a function",
		"func f()\n  func g()\n  end\nend": "syntax error at line 2: func is only allowed at the top level",
		"func f()\nend\nfunc f()\nend":     "syntax error at line 3: function f is already defined at line 1",
		"func len(x)\nend":                 "syntax error at line 1: len is a built-in function and cannot be redefined",
		"x + 1":                            `syntax error at line 1: expected a statement, found "x"`,
		`print "abc`:                       "syntax error at line 1: unterminated string",
		`print "\q"`:                       `syntax error at line 1: unknown escape \q in string`,
		"print 1 @ 2":                      "syntax error at line 1: unexpected character '@'",
		"print 99999999999999999999":       "syntax error at line 1: integer 99999999999999999999 is too large",
		"crash now":                        `syntax error at line 1: unexpected "now"`,
		"loop\nend extra":                  `syntax error at line 2: unexpected "extra" after end`,
		"for i in 1 to 3\nend":             `syntax error at line 1: expected "..", found "to"`,
		"print {1: 2}":                     `syntax error at line 1: expected a map key, found "1"`,
	} {
		_, err := parseProgram("/p.mock", []byte(src))
		if err == nil || err.Error() != want {
			t.Errorf("parse %q: %v; want %q", src, err, want)
		}
	}
}

func TestParseLines(t *testing.T) {
	src := "# comment\n\nfunc f(a, b)\n  return a  # trailing\nend\nlet x = f(1, 2)\nloop\nend\n"
	prog, err := parseProgram("/p.mock", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if prog.lineCount != 8 {
		t.Errorf("lineCount %d", prog.lineCount)
	}
	if got := prog.stmtLines; len(got) != 4 || got[0] != 3 || got[1] != 4 || got[2] != 6 || got[3] != 7 {
		t.Errorf("statement lines %v", got)
	}
	for line, want := range map[int]int{1: 3, 2: 3, 5: 6, 8: 0} {
		if got, _ := prog.resolveLine(line); got != want {
			t.Errorf("resolveLine(%d) = %d; want %d", line, got, want)
		}
	}
	if _, why := prog.resolveLine(8); why != "no statement at or after line 8 (the program has 8 lines)" {
		t.Errorf("resolveLine(8): %q", why)
	}
	if empty, err := parseProgram("/e.mock", nil); err != nil || empty.lineCount != 0 || len(empty.top) != 0 {
		t.Errorf("empty program: %+v %v", empty, err)
	}
}

// evaluate runs src in a fresh program's top level.
func evaluate(t *testing.T, prelude, src string) (value, error) {
	t.Helper()
	prog, err := parseProgram("/p.mock", []byte(prelude))
	if err != nil {
		t.Fatal(err)
	}
	globals := newDict()
	th := &thread{prog: prog, globals: globals, stack: []*frame{{locals: globals}}, hooks: &evalHooks{out: func(string, string) {}}}
	if err := th.run(); err != nil {
		t.Fatalf("prelude: %v", err)
	}
	x, err := parseExpression(src)
	if err != nil {
		return nil, err
	}
	return evalIn(prog, globals, th.stack[0], x, func(string, string) {})
}

func TestEvaluation(t *testing.T) {
	prelude := "func fact(n)\n  let r = 1\n  for i in 2..n\n    set r = r * i\n  end\n  return r\nend\n" +
		"func forever()\n  loop\n  end\nend\n" +
		"func deep(n)\n  return deep(n + 1)\nend\n" +
		"func nap()\n  sleep 10\nend\n" +
		"func quit()\n  exit 2\nend\n" +
		"func none()\nend\n" +
		`let m = {"a b": 1, c: [true, null]}` + "\n"
	for src, want := range map[string]string{
		"fact(5)":              "120",
		"7 / 2 + 7 % 2":        "4",
		"2 + 3 * 4 - -1":       "15",
		`"b" > "a"`:            "true",
		`"ab" <= "a"`:          "false",
		"1 < 2 and 2 >= 3":     "false",
		"0 or [] or {}":        "false",
		`"" or "x"`:            "true",
		"not null":             "true",
		"m":                    `{"a b": 1, c: [true, null]}`,
		`m["a b"]`:             "1",
		"m.c[1]":               "null",
		"len(m) + len(m.c)":    "4",
		`len("héllo")`:         "5",
		`str(m.c)`:             `"[true, null]"`,
		`[1, [2]] == [1, [2]]`: "true",
		`{a: 1} != {a: 2}`:     "true",
		`m == m`:               "true",
		"none()":               "null",
	} {
		v, err := evaluate(t, prelude, src)
		if err != nil || show(v) != want {
			t.Errorf("%s = %s, %v; want %s", src, show(v), err, want)
		}
	}
	for src, want := range map[string]string{
		"forever()":   "RuntimeError: evaluation gave up after 10000 statements",
		"deep(0)":     "RecursionError: maximum call depth (200) exceeded",
		"nap()":       "RuntimeError: sleep is not allowed while evaluating",
		"quit()":      "exit is not allowed while evaluating",
		"-\"a\"":      "TypeError: bad operand type for unary -: str",
		`1 < "a"`:     "TypeError: unsupported operand types for <: int and str",
		"5 % 0":       "ZeroDivisionError: division by zero",
		`m.c["x"]`:    "TypeError: list indices must be int, not str",
		`m[1]`:        "TypeError: map keys are str, not int",
		`1[0]`:        "TypeError: int cannot be indexed",
		"m.c[-1]":     "IndexError: list index -1 out of range (length 2)",
		"undefined()": "NameError: name 'undefined' is not defined",
	} {
		_, err := evaluate(t, prelude, src)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v; want %q", src, err, want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	for src, want := range map[string]string{
		"set x = 1":              "NameError: name 'x' is not defined (use let to define it)",
		"for i in 1..\"3\"\nend": "TypeError: range end must be an int, not str",
		"exit \"no\"":            "TypeError: exit code must be an int, not str",
		"throw [1]":              "[1]",
		"func f(a)\nend\nf()":    "TypeError: f() takes 1 arguments (0 given)",
		"let s = \"x\"\nsleep s": "TypeError: sleep duration must be an int, not str",
		"throw \"no colon\"":     "no colon",
	} {
		prog, err := parseProgram("/p.mock", []byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		globals := newDict()
		th := &thread{prog: prog, globals: globals, stack: []*frame{{locals: globals}}, hooks: &evalHooks{out: func(string, string) {}}}
		err = th.run()
		var r *raised
		if !errors.As(err, &r) || r.msg != want {
			t.Errorf("%q: %v; want %q", src, err, want)
		}
		if r != nil && strings.Contains(want, ":") && r.kind() != strings.SplitN(want, ":", 2)[0] {
			t.Errorf("%q: kind %q", src, r.kind())
		}
		if r != nil && !strings.Contains(want, ":") && r.kind() != "Error" {
			t.Errorf("%q: kind %q; want Error", src, r.kind())
		}
	}
}
