// Command lines has blank and comment lines for the breakpoint placement tests.
package main

import "fmt"

func scale(values []int) int {
	total := 0
	// sum every value, doubled
	for _, v := range values {
		total += v * 2
	}

	return total
}

func main() {
	fmt.Println("scaled", scale([]int{1, 2, 3}))
}
