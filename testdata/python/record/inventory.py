"""Stock bookkeeping: an early call corrupts the state a later one trips on."""


def reserve(stock, name, qty):
    stock[name] = stock[name] - qty
    return stock[name]


def restock(stock, name, qty):
    stock[name] = qty
    return stock[name]


def ship(stock, name, qty):
    left = stock[name] - qty
    if left < 0:
        raise RuntimeError(f"cannot ship {qty} {name}: only {stock[name]} left")
    stock[name] = left
    return left


def run():
    stock = {"bolt": 10, "nut": 8}
    reserve(stock, "bolt", 3)
    restock(stock, "bolt", 2)  # Bug: sets the count instead of adding to it.
    reserve(stock, "nut", 1)
    ship(stock, "nut", 2)
    ship(stock, "bolt", 4)


if __name__ == "__main__":
    run()
