import remote_only  # only where the program runs: the test writes it there


def total(items):
    s = 0
    for x in items:
        s += x
    return s


def main():
    print("total", total([1, 2, 3]))
    try:
        remote_only.check(3)
    except ValueError as e:
        raise RuntimeError("wrapped: %s" % e)


main()
