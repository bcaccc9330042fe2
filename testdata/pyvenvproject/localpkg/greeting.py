"""Importable only through the project venv's .pth file (see README.md)."""


def greet(name):
    return "hello, " + name
