# Tallies "name quantity" lines from its standard input (see README.md):
# a quantity that is not a number stops it with ValueError.
import sys


def tally(lines):
    total = 0
    for line in lines:
        name, qty = line.split()
        total += int(qty)
    return total


print("total", tally(sys.stdin.read().splitlines()))
