"""Fixture for debug_test: one passing test and one failing assertion."""


def total(prices, rate):
    return sum(p - p * rate for p in prices)


def test_total_without_discount():
    assert total([10, 20], 0) == 30


def test_total_with_discount():
    prices = [10, 20, 30]
    got = total(prices, 0.5)
    assert got == 40, "discounted total"
