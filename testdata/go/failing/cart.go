// Package cart totals prices.
package cart

// Total sums prices after a discount rate.
func Total(prices []float64, rate float64) float64 {
	var sum float64
	for _, p := range prices {
		sum += p - p*rate
	}
	return sum
}
