"""Order pricing: a bulk discount applied deep in the call chain."""


class Item:
    def __init__(self, name, price, qty):
        self.name = name
        self.price = price
        self.qty = qty


def discount_rate(qty):
    # Bug: a bulk order is 10 or more, but this asks for more than 10.
    if qty > 10:
        return 0.1
    return 0.0


def line_total(item):
    rate = discount_rate(item.qty)
    return round(item.price * item.qty * (1 - rate), 3)


def order_total(items):
    total = 0
    for item in items:
        subtotal = line_total(item)
        total = total + subtotal
    return total
