// Command cart prices a shopping cart; a discount deep in the call chain
// returns a wrong value, and "panic" as the argument makes a bad quantity
// panic. The record tests read its recording (internal/server/recordbp_test.go).
package main

import (
	"fmt"
	"os"
)

// Item is one line of the cart.
type Item struct {
	Name  string
	Price int
	Qty   int
}

// Cart holds the items being bought.
type Cart struct {
	Items []Item
}

func discount(total int) int {
	if total > 100 {
		return total / 10
	}
	return 0
}

func price(it Item) int {
	if it.Qty < 0 {
		panic(fmt.Sprintf("bad quantity %d for %s", it.Qty, it.Name))
	}
	return it.Price * it.Qty
}

// Total is the cart's price after the discount.
func (c *Cart) Total() int {
	sum := 0
	for _, it := range c.Items {
		sum += price(it)
	}
	off := discount(sum)
	sum -= off
	return sum
}

func main() {
	c := &Cart{Items: []Item{{"pen", 3, 10}, {"book", 40, 2}}}
	if len(os.Args) > 1 && os.Args[1] == "panic" {
		c.Items = append(c.Items, Item{"ink", 5, -1})
	}
	fmt.Println("total", c.Total())
}
