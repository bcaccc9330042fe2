package session

import "testing"

func TestNamesOnlyItsType(t *testing.T) {
	for _, c := range []struct {
		value, typ string
		want       bool
	}{
		{"Shape", "Shape", true},
		{"Shape @ 0x55555556deb0", "Shape", true},
		{"", "Shape", true},
		{"{w:2, h:3}", "Shape", false},
		{"Shape @ 0x", "Shape", false},
		{"Shape @ 0xzz", "Shape", false},
		{"Other @ 0x1f", "Shape", false},
		{"3", "int", false},
	} {
		if got := namesOnlyItsType(c.value, c.typ); got != c.want {
			t.Errorf("namesOnlyItsType(%q, %q) = %v, want %v", c.value, c.typ, got, c.want)
		}
	}
}
