"""Busy-loop fixture for pause; it never ends on its own."""
counter = 0
print("busy")
while True:
    counter += 1
