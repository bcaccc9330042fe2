// Reads order quantities, skipping the bad ones: parse_qty throws for a
// negative quantity, std::stoi for one that is no number; qty_or_zero
// catches both, two calls up. internal/server/record_native_test.go
// records it.
#include <cstdio>
#include <stdexcept>
#include <string>

namespace shop {

int parse_qty(const std::string &text)
{
	if (!text.empty() && text[0] == '-') {
		throw std::invalid_argument("negative quantity: " + text);
	}
	return std::stoi(text);
}

int line_qty(const std::string &text)
{
	int qty = parse_qty(text);
	return qty;
}

int qty_or_zero(const std::string &text)
{
	try {
		return line_qty(text);
	} catch (const std::invalid_argument &e) {
		return 0;
	}
}

} // namespace shop

int main()
{
	int total = shop::qty_or_zero("3") + shop::qty_or_zero("-2") + shop::qty_or_zero("x") + shop::qty_or_zero("4");
	std::printf("total %d\n", total);
	return 0;
}
