import unittest

from shapes.area import rectangle, square


class AreaTest(unittest.TestCase):
    def test_rectangle(self):
        self.assertEqual(rectangle(2, 3), 6)

    def test_square(self):
        side = 3
        got = square(side)
        self.assertEqual(got, 9, "square of three")


if __name__ == "__main__":
    unittest.main()
