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
		"function\n  multiline(x) {\n  return x;\n}\n" + // 11-14
		"const é = { total: n => n };\n" // 15
	cases := map[string][]declaration{
		"weigh":      {{1, position{1, 30}}},
		"half":       {{4, position{4, 20}}},
		"double":     {{5, position{5, 37}}},
		"Cart.total": {{15, position{15, 24}}, {7, position{7, 21}}},
		"multiline":  {{12, position{12, 16}}},
		"weigh2":     nil, // only called
		"nothing":    nil,
	}
	for name, want := range cases {
		if got := findDeclarations(src, name); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
}
