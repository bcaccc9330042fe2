# Fixture for debug_test (see README.md): one passing and one failing test.
require "minitest/autorun"

def total(prices, rate)
  prices.sum { |p| p - p * rate }
end

class CartTest < Minitest::Test
  def test_total_without_discount
    assert_equal 30, total([10, 20], 0)
  end

  def test_total_with_discount
    prices = [10, 20, 30]
    got = total(prices, 0.5)
    assert_equal 40, got, "discounted total"
  end
end
