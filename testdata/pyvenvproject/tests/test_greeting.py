import greeting


def test_greets_by_name():
    said = greeting.greet("pytest")
    assert said == "hi, pytest"
