"""Recursion fixture (as deep as its argument, 2 by default); README.md lists its lines."""
import sys

class Box:
    pass


def depth_sum(n):
    box = Box()
    acc = n * 10 + 1
    if n > 0:
        sub = depth_sum(n - 1)
        acc += sub
    return acc


def main():
    kept = []
    for i in range(3):
        current = Box()
        kept.append(current)
        print(i, len(kept))
    print(depth_sum(int(sys.argv[1]) if len(sys.argv) > 1 else 2))


if __name__ == "__main__":
    main()
