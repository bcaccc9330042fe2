"""scale(x, x + 10) for each number in the file named by its argument:
stopAt's test changes the file between the recording and the live run."""
import sys


def scale(x, factor):
    y = x * factor
    return y


def main():
    with open(sys.argv[1]) as f:
        numbers = [int(word) for word in f.read().split()]
    print([scale(x, x + 10) for x in numbers])


main()
