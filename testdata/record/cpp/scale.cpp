// geometry::scale(i, i + 10) for i in 1..4: stopAt's tests stop at its
// third call.
#include <cstdio>

namespace geometry {

int scale(int x, int factor)
{
	int y = x * factor;
	return y;
}

} // namespace geometry

int main()
{
	int results[4];
	for (int i = 1; i <= 4; i++) {
		results[i - 1] = geometry::scale(i, i + 10);
	}
	std::printf("%d %d %d %d\n", results[0], results[1], results[2], results[3]);
	return 0;
}
