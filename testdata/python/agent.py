"""Fixture for the agent tools: watches, run_to, tracepoints, traces, break_on_change."""


def discount(price, rate):
    cut = price * rate
    return price - cut


def add_item(cart, item):
    cart.append(item)


def main():
    cart = []
    total = 0
    for i in range(100):
        total += i
    prices = [10, 20, 30]
    paid = []
    for p in prices:
        paid.append(discount(p, 0.5))
    add_item(cart, "apple")
    add_item(cart, "pear")
    print("total", total, "paid", paid, "cart", cart)


main()
table = {n: str(n) * 20 for n in range(200)}
print("table", len(table))
