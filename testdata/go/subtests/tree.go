// Package tree is debug_test's subtest program (see ../README.md): a sum
// over a range that misses its last element.
package tree

// Sum adds xs[lo:hi+1], the range's both ends included; it leaves out hi.
func Sum(xs []int, lo, hi int) int {
	total := 0
	for i := lo; i < hi; i++ {
		total += xs[i]
	}
	return total
}
