/* Calls square as many times as its argument says: the record benchmark
 * (internal/server/record_native_bench_test.go) divides the recorded
 * run's time by its calls. */
#include <stdio.h>
#include <stdlib.h>

static int square(int n)
{
	return n * n;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 0;
	long sum = 0;
	for (int i = 0; i < count; i++) {
		sum += square(i);
	}
	printf("sum %ld\n", sum);
	return 0;
}
