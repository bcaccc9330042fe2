package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlaceOnCode(t *testing.T) {
	c := "int main(void) {\n" +
		"\tint x = 1;\n" +
		"\t/* a block\n" +
		"\t * comment */\n" +
		"\t*p = x;\n" +
		"\n" +
		"\treturn 0;\n" +
		"}\n" +
		"\n" +
		"static int other(void) {\n" +
		"\treturn 1;\n" +
		"}\n"
	ruby := "def weigh(item)\n" +
		"  # scale it\n" +
		"  item * 3\n" +
		"end\n" +
		"\n" +
		"puts weigh(2)\n"
	python := "x = 1\n" +
		"\n" +
		"@cache\n" +
		"def f():\n" +
		"    return x\n"
	methods := "class Cart:\n" +
		"    def total(self):\n" +
		"        return 1\n" +
		"\n" +
		"    def count(self):\n" +
		"        # none yet\n" +
		"        for i in []:\n" +
		"            pass\n"
	java := "class Cart {\n" +
		"    int total() {\n" +
		"        return 1;\n" +
		"    }\n" +
		"\n" +
		"    @Override\n" +
		"    public String toString() {\n" +
		"        return \"cart\";\n" +
		"    }\n" +
		"}\n"
	cases := []struct {
		name, file, text string
		line, want       int
		refusedNear      string
	}{
		{name: "code stays", file: "a.c", text: c, line: 2, want: 2},
		{name: "block comment binds after it", file: "a.c", text: c, line: 4, want: 5},
		{name: "a deref is code, not a comment", file: "a.c", text: c, line: 5, want: 5},
		{name: "blank line in a function", file: "a.c", text: c, line: 6, want: 7},
		{name: "gap before a declaration", file: "a.c", text: c, line: 9, refusedNear: "8 (}) and 10"},
		{name: "ruby comment in a method", file: "a.rb", text: ruby, line: 2, want: 3},
		{name: "ruby top-level statement after a method", file: "a.rb", text: ruby, line: 5, want: 6},
		{name: "gap between methods", file: "m.py", text: methods, line: 4, refusedNear: "3 (return 1) and 5 (def count(self):)"},
		{name: "comment before a loop", file: "m.py", text: methods, line: 6, want: 7},
		{name: "gap before an annotated method", file: "Cart.java", text: java, line: 5, refusedNear: "4 (}) and 6 (@Override)"},
		{name: "gap before a decorator", file: "a.py", text: python, line: 2, refusedNear: "1 (x = 1) and 3 (@cache)"},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := placeOnCode(path, tc.line)
			if tc.refusedNear != "" {
				e, ok := err.(*Error)
				if !ok || !strings.Contains(e.Hint, tc.refusedNear) {
					t.Fatalf("line %d: want a refusal naming %q, got %d, %v", tc.line, tc.refusedNear, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("line %d: got %d, %v; want %d", tc.line, got, err, tc.want)
			}
		})
	}
}
