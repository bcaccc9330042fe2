package java

import (
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/jdwp"
)

// localsFrame is a frame whose locals are already read, so that the
// expressions below are parsed and evaluated without a JVM: names resolve
// to these values and only primitives and references are compared (no
// string is created, no method invoked).
func localsFrame() *frameCtx {
	return &frameCtx{loaded: true, locals: []localVar{
		{name: "n", value: jdwp.IntValue(3)},
		{name: "count", value: jdwp.LongValue(10)},
		{name: "ratio", value: jdwp.DoubleValue(0.5)},
		{name: "done", value: jdwp.BoolValue(false)},
		{name: "letter", value: jdwp.Value{Tag: jdwp.TagChar, Prim: 'b'}},
		{name: "list", value: jdwp.ObjectValue(jdwp.TagObject, 7)},
		{name: "same", value: jdwp.ObjectValue(jdwp.TagObject, 7)},
		{name: "other", value: jdwp.ObjectValue(jdwp.TagObject, 8)},
	}}
}

func TestJavaExpressionsEvaluateAsJavaDoes(t *testing.T) {
	for _, tc := range []struct {
		expr, want string
	}{
		{"1 + 2 * 3", "7"},
		{"(1 + 2) * 3", "9"},
		{"7 / 2", "3"},
		{"-7 / 2", "-3"},
		{"7 % 3", "1"},
		{"7.0 / 2", "3.5"},
		{"0.1 + 0.2", "0.30000000000000004"},
		{"1_000 * 3", "3000"},
		{"2147483647 + 1", "-2147483648"},
		{"2147483647L + 1", "2147483648"},
		{"2147483648", "2147483648"},
		{"count * n", "30"},
		{"count >= 10L", "true"},
		{"ratio * 4", "2.0"},
		{"1.5f + 1", "2.5"},
		{"-n", "-3"},
		{"-ratio", "-0.5"},
		{"n * 2 > 5", "true"},
		{"n <= 2", "false"},
		{"n != 3", "false"},
		{"n == 3.0", "true"},
		{"n == 3 && !done", "true"},
		{"done || n > 2 && n < 4", "true"},
		// The right side would divide by zero: && and || short-circuit.
		{"n > 0 || n / 0 == 1", "true"},
		{"done && n / 0 == 1", "false"},
		{"letter", "'b'"},
		{"letter + 1", "99"},
		{"letter == 'b'", "true"},
		{"'\\n' == 10", "true"},
		{"true == !false", "true"},
		{"list == same", "true"},
		{"list == other", "false"},
		{"list != null", "true"},
		{"null == null", "true"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			v, err := localsFrame().eval(tc.expr)
			if err != nil {
				t.Fatalf("eval %q: %v", tc.expr, err)
			}
			if v.IsObject() {
				t.Fatalf("eval %q = an object (%v), want %s", tc.expr, v, tc.want)
			}
			if got := primitiveText(v); got != tc.want {
				t.Errorf("eval %q = %s, want %s", tc.expr, got, tc.want)
			}
		})
	}
}

func TestJavaExpressionsRefusedSayWhy(t *testing.T) {
	for _, tc := range []struct {
		expr, want string
		// unsupported is whether the message lists what is supported.
		unsupported bool
	}{
		{"n / 0", "division by zero (ArithmeticException)", false},
		{"count % 0", "division by zero", false},
		{"done && 1 == 1", "", false},
		{"n && done", "&& needs booleans", false},
		{"done || n", "|| needs booleans", false},
		{"!n", "! needs a boolean", false},
		{"done + 1", "operator + needs numbers, got false and 1", false},
		{"done == 1", "cannot compare false with 1", false},
		{"", "empty expression", false},
		{"1 +", "empty expression", false},
		{"n = 4", `unexpected '='`, true},
		{"(1 + 2", "expected )", true},
		{"1 2", `unexpected "2"`, true},
		{`"abc`, "unterminated literal", false},
		{"'ab'", "char literal 'ab'", false},
		{"new Object()", `"new" is not supported`, true},
		{"n instanceof", "expected a type name after instanceof", true},
		{"n instanceof int[", "expected ] in the type of instanceof", true},
		{"list.", "expected a name after '.'", true},
		{"list[1", "expected ]", true},
		{"list.get(1, 2", "expected , or ) in arguments", true},
		{"99999999999999999999", "number 99999999999999999999", false},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			v, err := localsFrame().eval(tc.expr)
			if tc.want == "" {
				if err != nil || primitiveText(v) != "false" {
					t.Fatalf("eval %q = %v, %v; want false (&& short-circuits before the int)", tc.expr, v, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("eval %q = %v, want an error containing %q", tc.expr, v, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("eval %q: error %q, want it to contain %q", tc.expr, err, tc.want)
			}
			if lists := strings.Contains(err.Error(), errUnsupported.Error()); lists != tc.unsupported {
				t.Errorf("eval %q: error %q lists what is supported: %v, want %v", tc.expr, err, lists, tc.unsupported)
			}
		})
	}
}

func TestJavaLexerSplitsTokens(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []token
	}{
		{"a.b[0] >= 1.5f", []token{{tIdent, "a"}, {tOp, "."}, {tIdent, "b"}, {tOp, "["}, {tInt, "0"}, {tOp, "]"}, {tOp, ">="}, {tFloat, "1.5f"}}},
		{`s != "x\"y" || c == 'q'`, []token{{tIdent, "s"}, {tOp, "!="}, {tString, `"x\"y"`}, {tOp, "||"}, {tIdent, "c"}, {tOp, "=="}, {tChar, "'q'"}}},
		{"$this_1 && 10L", []token{{tIdent, "$this_1"}, {tOp, "&&"}, {tInt, "10L"}}},
		{"f(x,-2d)", []token{{tIdent, "f"}, {tOp, "("}, {tIdent, "x"}, {tOp, ","}, {tOp, "-"}, {tFloat, "2d"}, {tOp, ")"}}},
		{"  ", nil},
	} {
		got, err := lex(tc.src)
		if err != nil {
			t.Errorf("lex %q: %v", tc.src, err)
			continue
		}
		want := append(tc.want, token{kind: tEOF})
		if len(got) != len(want) {
			t.Errorf("lex %q = %v, want %v", tc.src, got, want)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("lex %q token %d = %v, want %v", tc.src, i, got[i], want[i])
			}
		}
	}
}
