package dap

import "testing"

func TestHitConditions(t *testing.T) {
	for _, tc := range []struct {
		cond string
		hits []bool // hits 1..6
	}{
		{"", []bool{true, true, true, true, true, true}},
		{"3", []bool{false, false, true, false, false, false}},
		{"== 3", []bool{false, false, true, false, false, false}},
		{">= 3", []bool{false, false, true, true, true, true}},
		{">3", []bool{false, false, false, true, true, true}},
		{"<= 2", []bool{true, true, false, false, false, false}},
		{"< 2", []bool{true, false, false, false, false, false}},
		{"%3", []bool{false, false, true, false, false, true}},
	} {
		h, err := ParseHitCondition(tc.cond)
		if err != nil {
			t.Fatalf("%q: %v", tc.cond, err)
		}
		for i, want := range tc.hits {
			if got := h.Match(i + 1); got != want {
				t.Errorf("%q at hit %d: %v", tc.cond, i+1, got)
			}
		}
	}
	for _, bad := range []string{"x", "% 0", ">= -1", "=3"} {
		if _, err := ParseHitCondition(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
