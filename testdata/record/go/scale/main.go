// Command scale calls scale(i, i+10) for i in 1..4: stopAt's tests stop
// at its third call.
package main

import "fmt"

//go:noinline
func scale(x, factor int) int {
	y := x * factor
	return y
}

func main() {
	var results []int
	for i := 1; i <= 4; i++ {
		results = append(results, scale(i, i+10))
	}
	fmt.Println(results)
}
