// Calls Counter::square as many times as its argument says: the record
// benchmark (internal/server/record_native_bench_test.go) divides the
// recorded run's time by its calls. The method is on one line, so each
// call also costs the steps through its prologue (GCC marks none).
#include <cstdio>
#include <cstdlib>

namespace bench {

struct Counter {
	long square(long n) const { return n * n; }
};

} // namespace bench

int main(int argc, char **argv)
{
	int count = argc > 1 ? std::atoi(argv[1]) : 0;
	bench::Counter counter;
	long sum = 0;
	for (int i = 0; i < count; i++) {
		sum += counter.square(i);
	}
	std::printf("sum %ld\n", sum);
	return 0;
}
