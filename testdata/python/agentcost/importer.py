"""Imports expense rows: the import fails with ImportFailed on row 3, but
the error that made it is another one, swallowed in parse_row."""


class ImportFailed(Exception):
    pass


def parse_amount(text):
    return float(text.replace(",", ""))  # Bug: "1 234,50" is written the European way.


CATEGORIES = {"paper": "office", "lamp": "furniture"}


def category_of(name):
    try:
        return CATEGORIES[name]
    except KeyError:
        return "other"


def parse_row(row):
    try:
        return {"name": row[0], "category": category_of(row[0]), "amount": parse_amount(row[1])}
    except (ValueError, IndexError):
        return None


def load(rows):
    records = []
    for number, row in enumerate(rows, 1):
        record = parse_row(row)
        if record is None:
            raise ImportFailed(f"row {number} is not a record")
        records.append(record)
    return records


ROWS = [
    ["paper", "12,000"],
    ["toner", "89.90"],
    ["desk", "1 234,50"],
    ["lamp", "45.00"],
]

if __name__ == "__main__":
    total = sum(r["amount"] for r in load(ROWS))
    print("imported", total)
