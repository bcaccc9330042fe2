from pricing import Item, order_total


def test_small_order():
    assert order_total([Item("pen", 1.5, 2)]) == 3.0


def test_bulk_order():
    items = [Item("pen", 0.5, 2), Item("pad", 0.9975, 10)]
    assert order_total(items) == 9.9775
