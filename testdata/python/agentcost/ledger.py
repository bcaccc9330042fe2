"""Account bookkeeping: the last payment from carol fails for lack of
funds, but her balance was corrupted by an earlier call."""


class InsufficientFunds(Exception):
    pass


def deposit(accounts, name, amount):
    accounts[name] += amount
    return accounts[name]


def withdraw(accounts, name, amount):
    if accounts[name] < amount:
        raise InsufficientFunds(f"{name} has {accounts[name]}, needs {amount}")
    accounts[name] -= amount
    return accounts[name]


def transfer(accounts, source, target, amount):
    withdraw(accounts, source, amount)
    return deposit(accounts, target, amount)


def refund(accounts, name, amount):
    accounts[name] = amount  # Bug: replaces the balance instead of adding to it.
    return accounts[name]


def run():
    accounts = {"ann": 100, "bob": 50, "carol": 200}
    deposit(accounts, "ann", 30)
    transfer(accounts, "carol", "bob", 20)
    refund(accounts, "carol", 15)
    withdraw(accounts, "bob", 10)
    transfer(accounts, "ann", "carol", 40)
    withdraw(accounts, "carol", 120)
    return accounts


if __name__ == "__main__":
    print(run())
