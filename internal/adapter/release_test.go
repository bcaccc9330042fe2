package adapter

import "testing"

func TestReleaseAtLeast(t *testing.T) {
	for _, c := range []struct {
		v    string
		want []int
		ok   bool
	}{
		{"1.6.3", []int{1, 5}, true},
		{"1.4.0", []int{1, 5}, false},
		{"v22.6.0", []int{22, 6}, true},
		{"v22.5.1", []int{22, 6}, false},
		{"1.26.2", []int{1, 26, 2}, true},
		{"1.25.2", []int{1, 26, 2}, false},
		{"1.7.0.beta1", []int{1, 7}, true},
		{"2.0", []int{1, 26, 2}, true},
	} {
		r, ok := ParseRelease(c.v)
		if !ok || r.AtLeast(c.want...) != c.ok {
			t.Errorf("%s at least %v: %v (parsed %v, %v)", c.v, c.want, r.AtLeast(c.want...), r, ok)
		}
	}
	if _, ok := ParseRelease("weird"); ok {
		t.Error(`"weird" is no release`)
	}
}
