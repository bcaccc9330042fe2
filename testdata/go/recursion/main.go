// Command recursion sums down a recursion (as deep as its argument, 2 by
// default); each loop turn makes a new box of the same value at new
// addresses.
package main

import (
	"fmt"
	"os"
	"strconv"
)

type label struct{ name *string }

type box struct {
	level int
	tag   *label
}

func depthSum(n int) int {
	b := box{level: n}
	acc := n*10 + 1
	if n > 0 {
		sub := depthSum(n - 1)
		acc += sub
	}
	_ = b
	return acc
}

func main() {
	var kept []box
	for i := 0; i < 3; i++ {
		name := "seven"
		current := []box{{level: 7, tag: &label{name: &name}}}
		kept = append(kept, current...)
		fmt.Println(i, len(kept))
	}
	fmt.Println(depthSum(depth()))
}

func depth() int {
	if len(os.Args) > 1 {
		if n, err := strconv.Atoi(os.Args[1]); err == nil {
			return n
		}
	}
	return 2
}
