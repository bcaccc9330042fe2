"""Benchmark fixture: a long loop to step and continue through."""


def weigh(item, factor):
    scaled = item * factor
    return scaled


def main():
    total = 0
    for i in range(10000000):
        total += weigh(i, 3)
        total -= 1
    return total


main()
