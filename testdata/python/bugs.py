"""Small buggy routines for the agent-cost benchmark (internal/server)."""


def clean(scores):
    return [s for s in scores if s is not None]


def rank(scores):
    scores.sort()
    return scores


def normalise(scores):
    valid = clean(scores)
    top = max(valid)
    ordered = rank(scores)
    return [s / top for s in ordered]


def ratio(a, b):
    return a / b


def apply_fee(balance, fee):
    return balance - fee


def main():
    scores = [3, 9, 4]
    print("normalised", normalise(scores), "now", scores)
    pairs = [(4, 2), (9, 3), (8, 4), (6, 3), (10, 5), (5, 0), (8, 4)]
    for a, b in pairs:
        try:
            print("ratio", ratio(a, b))
        except ZeroDivisionError:
            print("bad pair", a, b)
    balance = 100
    for n, fee in enumerate(range(1, 60)):
        balance = apply_fee(balance, fee)
    print("balance", balance)


main()
