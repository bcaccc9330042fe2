"""Loop fixture for the Python adapter tests; README.md lists its lines."""
import sys


def weigh(item, factor):
    scaled = item * factor
    label = "item-%d" % item
    return scaled, label


def main():
    total = 0
    for i in range(5):
        print("weighing", i)
        sys.stderr.write("stderr %d\n" % i)
        scaled, label = weigh(i, 3)
        total += scaled
    print("total", total)
    return total


if __name__ == "__main__":
    main()
