# Reads its standard input (see README.md): the program's input is given
# by start_debugging's stdin.
import sys

lines = sys.stdin.read().splitlines()
print("read %d lines, first %s" % (len(lines), lines[0] if lines else "none"))
