# Asks for a name on its standard input (see README.md): without input,
# input() raises EOFError.
name = input("name? ")
print("hello", name)
