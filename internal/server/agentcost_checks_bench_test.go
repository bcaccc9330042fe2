package server

import "testing"

// The agent-cost scripts decide "found it" with shows and showsInOrder on
// the answers' text, whatever their shape: these must see a fact in JSON
// and in text, and must not see it where it is absent.
func TestAgentCostChecksFindFactsOnlyWhereShown(t *testing.T) {
	trace := `{"entries":[{"seq":17,"values":[{"name":"day","value":"16"},{"name":"used","value":"46"}]},` +
		`{"seq":18,"values":[{"name":"day","value":"17"},{"name":"used","value":"-44035"}]}]}`
	table := "seq | day | used\n16 | 16 | 46\n17 | 17 | -44035\n"
	for _, tc := range []struct {
		text, name, value string
		want              bool
	}{
		{trace, "17", "-44035", true},
		{table, "17", "-44035", true},
		{"day=17 used=-44035", "17", "-44035", true},
		{trace, "16", "-44035", false},
		{table, "16", "-44035", false},
		{"17 | 44035", "17", "-44035", false},
		{"17 | -440351", "17", "-44035", false},
		{"17 | -5", "17", "5", false},
		{`{"name":"pack","value":"(0, 3.5)"}`, "pack", "(0, 3.5)", true},
		{`{"name":"packs","value":"{'fig': (0, 3.5)}"}`, "pack", "(0, 3.5)", false},
		{"pack.size\n0", "size", "0", false},
		{"Paused at bugs.py:9 in rank", "bugs.py", "9", true},
		{"Paused at bugs.py:19 in rank", "bugs.py", "9", false},
		{`"file":"/x/bugs.py","line":9,`, "bugs.py", "9", true},
	} {
		if got := shows(tc.text, tc.name, tc.value); got != tc.want {
			t.Errorf("shows(%q, %q, %q) = %v, want %v", tc.text, tc.name, tc.value, got, tc.want)
		}
	}
	returns := "call ratio(4, 2)\nreturn 2.0\ncall ratio(5, 0)\nreturn None\nreturn 12.0\n"
	if !showsInOrder(returns, "2.0", "None") || showsInOrder(returns, "None", "2.0") || showsInOrder(returns, "None", "2.0", "2.0") {
		t.Errorf("showsInOrder must follow the order and not match within longer numbers")
	}
}
