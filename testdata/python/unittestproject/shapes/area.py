def rectangle(width, height):
    return width * height


def square(side):
    return rectangle(side, side + 1)
