// Prices a cart; the ink's negative quantity throws three calls deep.
// internal/server/record_native_test.go records it.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace shop {

struct Item {
	std::string name;
	int price;
	int qty;
};

int discount(int total)
{
	if (total > 100) {
		return total / 10;
	}
	return 0;
}

int price(const Item &it)
{
	if (it.qty < 0) {
		throw std::invalid_argument("bad quantity for " + it.name);
	}
	return it.price * it.qty;
}

class Cart {
public:
	void add(const Item &it) { items.push_back(it); }
	int total() const
	{
		int sum = 0;
		for (const Item &it : items) {
			sum += price(it);
		}
		sum -= discount(sum);
		return sum;
	}

private:
	std::vector<Item> items;
};

} // namespace shop

int main(int argc, char **argv)
{
	shop::Cart cart;
	cart.add({"pen", 3, 10});
	cart.add({"book", 40, 2});
	if (argc < 2) {
		cart.add({"ink", 5, -1});
	}
	std::printf("total %d\n", cart.total());
	return 0;
}
