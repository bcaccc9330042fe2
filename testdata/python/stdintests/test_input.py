# A test that reads its standard input (see ../README.md): debug_test's
# stdin reaches it, under pytest's capture too.
import sys


def test_reads_input():
    lines = sys.stdin.read().splitlines()
    first = lines[0] if lines else "none"
    assert not lines, "read %d lines, first %s" % (len(lines), first)
