package cart

import "testing"

func TestTotalWithoutDiscount(t *testing.T) {
	if got := Total([]float64{10, 20}, 0); got != 30 {
		t.Errorf("Total = %v, want 30", got)
	}
}

func TestTotalWithDiscount(t *testing.T) {
	prices := []float64{10, 20, 30}
	got := Total(prices, 0.5)
	if got != 40 {
		t.Errorf("discounted total = %v, want 40", got)
	}
}
