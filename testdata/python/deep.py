"""Recurses as deep as its argument (100000 by default): the first stop at line 10 is at the bottom."""
import sys


def depth_sum(n):
    acc = n * 10 + 1
    if n > 0:
        sub = depth_sum(n - 1)
        acc += sub
    return acc


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    sys.setrecursionlimit(depth + 100)
    print(depth_sum(depth))


if __name__ == "__main__":
    main()
