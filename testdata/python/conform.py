# The conformance table's Python program (internal/server/conformance_test.go):
# weigh called in a loop, an exception chosen by "raise", a wait for an
# attach chosen by "wait", output and exit code 3.
import sys
import time


def weigh(item, factor):
    scaled = item * factor
    return scaled


def main(mode):
    total = 0
    for i in range(4):
        total += weigh(i, 3)
    if mode == "raise":
        raise ValueError("bad mode " + mode)
    if mode == "wait":
        print("ready", flush=True)
        while total >= 0:
            total += weigh(1, 1)
            time.sleep(0.01)
    print("conform total", total)
    return 3


sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))
