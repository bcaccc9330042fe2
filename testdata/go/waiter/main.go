// Command waiter ticks until killed, for attach tests.
package main

import (
	"fmt"
	"time"
)

func tick(n int) int {
	next := n + 1
	return next
}

func main() {
	fmt.Println("ready")
	n := 0
	for {
		n = tick(n)
		time.Sleep(5 * time.Millisecond)
	}
}
