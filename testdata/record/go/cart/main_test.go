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
