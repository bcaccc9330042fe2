// Package price adds prices up.
package price

// Sum is the total of items.
func Sum(items []int) int {
	total := 0
	for _, it := range items {
		total += it
	}
	return total
}
