package main

import "testing"

func TestTotalWithoutDiscount(t *testing.T) {
	c := &Cart{Items: []Item{{"pen", 3, 10}}}
	if got := c.Total(); got != 30 {
		t.Errorf("total %d, want 30", got)
	}
}

// The discount takes a tenth off a total over 100: 110 pays 100.
func TestTotalWithDiscount(t *testing.T) {
	c := &Cart{Items: []Item{{"pen", 3, 10}, {"book", 40, 2}}}
	if got := c.Total(); got != 100 {
		t.Errorf("total %d, want 100", got)
	}
}

// An ink with a negative quantity makes price panic under the test.
func TestTotalOfABadQuantity(t *testing.T) {
	c := &Cart{Items: []Item{{"pen", 3, 10}, {"ink", 5, -1}}}
	if got := c.Total(); got != 25 {
		t.Errorf("total %d, want 25", got)
	}
}

// An empty cart costs nothing; the test stops at its first wrong answer.
func TestTotalOfAnEmptyCart(t *testing.T) {
	c := &Cart{}
	if got := discount(c.Total() + 200); got != 0 {
		t.Fatalf("discount %d on an empty cart, want 0", got)
	}
	t.Log("not reached")
}
