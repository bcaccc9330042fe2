// Package calc adds and subtracts.
package calc

// Add returns a + b.
func Add(a, b int) int {
	sum := a + b
	return sum
}

// Sub returns a - b.
func Sub(a, b int) int {
	diff := a - b
	return diff
}
