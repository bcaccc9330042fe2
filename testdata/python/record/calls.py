"""Call-heavy: 200 000 calls in user code, for the recording benchmark."""
import sys


def leaf(x):
    return x * 2 + 1


def middle(n):
    total = 0
    for i in range(n):
        total += leaf(i)
    return total


def main(rounds):
    s = 0
    for _ in range(rounds):
        s += middle(1000)
    print(s)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
