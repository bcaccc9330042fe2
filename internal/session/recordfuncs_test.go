package session

import (
	"go/parser"
	"testing"
)

// A return statement's lone call names the function whose result the
// call returns; a result that computes on a call, or a call whose
// arguments call, names none: its value is not one call's.
func TestCalleeNameOfAReturnedCall(t *testing.T) {
	for expr, want := range map[string]string{
		"lineQty(text)":             "lineQty",
		"c.store.Get(key)":          "Get",
		"strconv.Itoa(n)":           "Itoa",
		"lineQty(text) + 1":         "",
		"lineQty(trim(text))":       "",
		"parse()(text)":             "",
		"total":                     "",
		"func() int { return 1 }()": "",
	} {
		e, err := parser.ParseExpr(expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := calleeName(e); got != want {
			t.Errorf("calleeName(%s) = %q, want %q", expr, got, want)
		}
	}
}
