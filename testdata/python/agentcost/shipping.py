"""Order totals: order B-2's total is far too high. The wrong value is made
three calls below order_total."""

RATES = {"standard": 4.5, "express": 12.0}
ZONES = {"north": 1.0, "south": 1.25, "islands": 2.0}


def weight_surcharge(kg):
    if kg <= 5:
        return 0.0
    return (kg - 5) * 0.9 * 100  # Bug: in cents; every other price is in euros.


def carrier_rate(method, kg):
    return RATES[method] + weight_surcharge(kg)


def shipping(order):
    kg = 0
    for item in order["items"]:
        kg += item["kg"] * item["qty"]
    return carrier_rate(order["method"], kg) * ZONES[order["zone"]]


def subtotal(order):
    total = 0.0
    for item in order["items"]:
        total += item["price"] * item["qty"]
    return total


def order_total(order):
    return round(subtotal(order) + shipping(order), 2)


ORDERS = [
    {"id": "A-1", "method": "standard", "zone": "north",
     "items": [{"price": 12.0, "qty": 2, "kg": 0.5}, {"price": 3.5, "qty": 4, "kg": 0.25}]},
    {"id": "B-2", "method": "express", "zone": "south",
     "items": [{"price": 40.0, "qty": 1, "kg": 6.0}, {"price": 9.0, "qty": 2, "kg": 1.0}]},
    {"id": "C-3", "method": "standard", "zone": "islands",
     "items": [{"price": 25.0, "qty": 1, "kg": 2.0}]},
]

if __name__ == "__main__":
    for order in ORDERS:
        print(order["id"], order_total(order))
