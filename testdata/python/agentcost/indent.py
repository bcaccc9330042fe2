# A formatter checks that its tokenizer and its printer agree on each
# line's indentation. The tokenizer counts a tab as one column, the printer
# as four (black's bug: two packages, two tab widths). Line 2 is the first
# with a tab; the check fails there, two calls away from the cause.


def token_indent(line):
    """The tokenizer's column of the first non-blank character."""
    width = 0
    for ch in line:
        if ch == " " or ch == "\t":
            width += 1
        else:
            break
    return width


def printer_indent(line):
    """The printer's column of the first non-blank character."""
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def check_block(lines):
    for number, line in enumerate(lines, 1):
        if token_indent(line) != printer_indent(line):
            raise ValueError(f"line {number}: the tokenizer and the printer disagree on its indentation")


if __name__ == "__main__":
    check_block(["def f():", "\treturn 1"])
