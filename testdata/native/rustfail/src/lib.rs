//! Totals prices, for debug_test.

/// Sums prices after a discount rate.
pub fn total(prices: &[f64], rate: f64) -> f64 {
    prices.iter().map(|p| p - p * rate).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_without_discount() {
        assert_eq!(total(&[10.0, 20.0], 0.0), 30.0);
    }

    #[test]
    fn total_with_discount() {
        let prices = vec![10.0, 20.0, 30.0];
        let got = total(&prices, 0.5);
        assert_eq!(got, 40.0, "discounted total");
    }
}
