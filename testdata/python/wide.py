"""Fixture for answer budgets: a stop whose locals pass 1000 bytes."""


def report():
    north = "n" * 150
    south = "s" * 150
    east = "e" * 150
    west = "w" * 150
    middle = "m" * 150
    print(len(north + south + east + west + middle))


report()
