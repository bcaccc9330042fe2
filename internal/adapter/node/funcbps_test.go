package node

import (
	"reflect"
	"testing"
)

func TestFindDeclarations(t *testing.T) {
	src := "'use strict';\n" + // 0
		"function weigh(item, factor) {\n" + // 1
		"  return weigh2(item);\n" + // 2
		"}\n" + // 3
		"const half = (x) => x / 2;\n" + // 4
		"exports.double = async function (x) { return x * 2; };\n" + // 5
		"class Cart {\n" + // 6
		"  total(items = {}) {\n" + // 7
		"    return half(1);\n" + // 8
		"  }\n" + // 9
		"}\n" + // 10
		"const é = { total: n => n };\n" // 11
	cases := map[string][]position{
		"weigh":      {{1, 30}},
		"half":       {{4, 20}},
		"double":     {{5, 37}},
		"Cart.total": {{11, 24}, {7, 21}},
		"weigh2":     nil, // only called
		"nothing":    nil,
	}
	for name, want := range cases {
		if got := findDeclarations(src, name); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
}
