"""Attach fixture: runs until it is killed; README.md lists its lines."""
import time


def tick(n):
    return n + 1


n = 0
while True:
    n = tick(n)
    time.sleep(0.05)
