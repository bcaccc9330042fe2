// A compiler gives each variable a slot. A function definition's
// parameters take theirs from the same counter, restarted at 0 instead of
// continued, so a parameter reuses the slot of a variable still live
// outside the definition (gojq's bug: a variable slot reused across a
// function definition).
package main

import "fmt"

type compiler struct{ next int }

func (c *compiler) slot() int {
	s := c.next
	c.next++
	return s
}

func (c *compiler) defineFunc(params int) []int {
	saved := c.next
	c.next = 0
	var slots []int
	for range params {
		slots = append(slots, c.slot())
	}
	c.next = saved
	return slots
}

func main() {
	c := &compiler{}
	x := c.slot()
	fn := c.defineFunc(1)
	if fn[0] == x {
		panic(fmt.Sprintf("the function's parameter reuses slot %d of x", x))
	}
}
