/* Prices a cart; the ink's negative quantity fails an assertion three
 * calls deep. internal/server/record_native_test.go records it. */
#include <assert.h>
#include <stdio.h>

struct item {
	const char *name;
	int price;
	int qty;
};

static int discount(int total)
{
	if (total > 100) {
		return total / 10;
	}
	return 0;
}

static int price(struct item it)
{
	assert(it.qty >= 0);
	return it.price * it.qty;
}

static int total(struct item *items, int n)
{
	int sum = 0;
	for (int i = 0; i < n; i++) {
		sum += price(items[i]);
	}
	sum -= discount(sum);
	return sum;
}

int main(int argc, char **argv)
{
	struct item items[] = {{"pen", 3, 10}, {"book", 40, 2}, {"ink", 5, -1}};
	int n = argc > 1 ? 2 : 3;
	printf("total %d\n", total(items, n));
	return 0;
}
