def scale(x, factor):
    y = x * factor
    return y


def main():
    results = []
    for i in range(1, 5):
        results.append(scale(i, i + 10))
    print(results)


main()
