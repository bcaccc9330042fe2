#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

struct Shape {
	std::string name;
	int sides;
};

int perimeter(const Shape &s, int side)
{
	int p = s.sides * side;
	return p;
}

int main(int argc, char **argv)
{
	std::vector<Shape> shapes = {{"triangle", 3}, {"square", 4}};
	std::string title = "shapes";
	std::vector<int> sizes = {1, 2, 3};
	int sum = 0;
	for (const Shape &s : shapes) {
		sum += perimeter(s, 2);
	}
	if (argc > 1 && std::string(argv[1]) == "throw")
		throw std::runtime_error("bad shape");
	std::cout << title << " " << sum << " " << sizes.size() << std::endl;
	return 0;
}
