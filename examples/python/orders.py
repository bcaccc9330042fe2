"""Prices an order. It has a bug: the order total comes out too low.

Debug it with mcp-debugger (see `make demo`): the bulk discount is applied twice.
"""
import sys

PRICES = {"apple": 0.5, "pear": 0.75, "melon": 3.0}
BULK_QTY = 10


def line_total(item, qty):
    price = PRICES[item]
    total = price * qty
    if qty >= BULK_QTY:
        total = total * 0.9
    return total


def order_total(order):
    subtotal = 0
    for item, qty in order:
        subtotal += line_total(item, qty)
    if subtotal > 20:
        subtotal = subtotal * 0.9
    return round(subtotal, 2)


def main():
    order = [("apple", 12), ("pear", 4), ("melon", 6)]
    total = order_total(order)
    print(f"order total: {total}")
    expected = 26.4
    if total != expected:
        print(f"expected {expected}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
