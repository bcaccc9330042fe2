package tree

import "testing"

func TestSum(t *testing.T) {
	xs := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	for _, c := range []struct {
		name   string
		lo, hi int
		want   int
	}{
		{"single element", 2, 2, 3},
		{"array with size 11 (whole)", 0, 10, 66},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Sum(xs, c.lo, c.hi); got != c.want {
				t.Errorf("Sum(%d, %d) = %d, want %d", c.lo, c.hi, got, c.want)
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	if got := Sum(nil, 0, -1); got != 0 {
		t.Errorf("Sum of nothing = %d", got)
	}
}
