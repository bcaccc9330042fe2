"""Uncaught-exception fixture; README.md lists its lines."""


def check(value):
    if value < 0:
        raise ValueError("negative value: %d" % value)
    return value


print("checking")
check(-1)
