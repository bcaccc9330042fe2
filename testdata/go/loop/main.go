// Command loop weighs a few items; the debugger tests stop in it.
package main

import (
	"fmt"
	"os"
)

type item struct {
	Name  string
	Count int
}

func weigh(item, factor int) int {
	scaled := item * factor
	return scaled
}

func main() {
	it := item{Name: "widget", Count: 3}
	values := []int{10, 20, 30}
	tags := map[string]int{"a": 1, "b": 2}
	total := 0
	for i := 0; i < 5; i++ {
		fmt.Printf("weighing %d\n", i)
		fmt.Fprintf(os.Stderr, "stderr %d\n", i)
		total += weigh(i, 3)
	}
	fmt.Println("total", total, it.Name, len(values), len(tags))
	os.Exit(3)
}
