package server

import (
	"reflect"
	"testing"
)

func TestParseProbe(t *testing.T) {
	for _, c := range []struct {
		text string
		want probe
	}{
		{"app.py:42", probe{File: "app.py", Line: 42}},
		{"  /src/app.py:7  ", probe{File: "/src/app.py", Line: 7}},
		{`C:\src\app.py:12 print x`, probe{File: `C:\src\app.py`, Line: 12, Print: []string{"x"}}},
		{"a.go:3 print i, f(a, b), m[\"k,v\"], s.x", probe{File: "a.go", Line: 3, Print: []string{"i", "f(a, b)", `m["k,v"]`, "s.x"}}},
		{"a.js:3 if xs.some(x => x > 1)", probe{File: "a.js", Line: 3, Condition: "xs.some(x => x > 1)"}},
		{"a.rb:9 if n > 3 print n, total", probe{File: "a.rb", Line: 9, Condition: "n > 3", Print: []string{"n", "total"}}},
	} {
		got, err := parseProbe(c.text)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseProbe(%q) = %+v, %v; want %+v", c.text, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "app.py", "app.py:0", "app.py:x", "app.py:3 show x", "app.py:3 print ", "app.py:3 print ,", "app.py:3 if  print x"} {
		if p, err := parseProbe(bad); err == nil {
			t.Errorf("parseProbe(%q) = %+v, want an error", bad, p)
		}
	}
	many := make([]string, maxProbes+1)
	for i := range many {
		many[i] = "a.py:1"
	}
	if _, err := parseProbes(many); err == nil {
		t.Errorf("%d probes were not refused", len(many))
	}
}
