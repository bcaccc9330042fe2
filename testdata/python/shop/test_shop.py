"""Fixture for the agent-cost benchmark: a test whose exception is raised
deep inside the code under test (shop.py's unit_price)."""

from shop import invoice


def test_invoice_total():
    order = [("apple", 12), ("pear", 8), ("fig", 2), ("plum", 4)]
    assert round(invoice(order), 2) == 14.2
