"""Blank and comment lines for the breakpoint placement tests; README.md lists its lines."""


def scale(values):
    total = 0
    # sum every value, doubled
    for v in values:
        total += v * 2

    return total


def unused():
    return "never called"


def main():
    print("scaled", scale([1, 2, 3]))


if __name__ == "__main__":
    main()
