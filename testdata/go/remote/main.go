// Command remote is debugged from another root: the tests run it where its
// files are at /mnt/app, with limit.go, which only that copy has.
package main

import "fmt"

func total(items []int) int {
	s := 0
	for _, x := range items {
		s += x
	}
	return s
}

func main() {
	t := total([]int{1, 2, 3})
	fmt.Println("total", t)
	if t > limit(t) {
		panic(fmt.Sprintf("too big: %d", t))
	}
}
