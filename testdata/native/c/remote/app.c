/* Debugged from another root: the tests build and run it where its files
   are at /mnt/app, with remote_only.c, which only that copy has. */
#include <stdio.h>

int limit(int n);

static int total(const int *items, int count) {
	int s = 0;
	for (int i = 0; i < count; i++) {
		s += items[i];
	}
	return s;
}

int main(void) {
	int items[] = {1, 2, 3};
	int t = total(items, 3);
	printf("total %d\n", t);
	fflush(stdout);
	printf("limit %d\n", limit(t));
	return 0;
}
