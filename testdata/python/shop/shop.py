"""Code under test of test_shop.py: an invoice priced from packs, where one
catalogue entry's pack size parses to 0 and the division fails three calls
below the test (see ../README.md; keep the lines in place)."""

CATALOGUE = "apple=6x1.20 pear=4x2.00 fig=0x3.50 plum=8x2.40"


def catalogue():
    packs = {}
    for entry in CATALOGUE.split():
        name, spec = entry.split("=")
        size, price = spec.split("x")
        packs[name] = (int(size), float(price))
    return packs


def unit_price(pack):
    size, price = pack
    return price / size


def line_total(pack, qty):
    return qty * unit_price(pack)


def invoice(order):
    packs = catalogue()
    return sum(line_total(packs[name], qty) for name, qty in order)
