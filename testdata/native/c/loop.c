#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct item {
	const char *name;
	int count;
};

int weigh(int item, int factor)
{
	int scaled = item * factor;
	return scaled;
}

static void crash(void)
{
	int *p = NULL;
	*p = 42;
}

int main(int argc, char **argv)
{
	struct item it = {"widget", 3};
	int values[3] = {10, 20, 30};
	char label[16] = "total";
	int total = 0;
	if (argc > 1 && strcmp(argv[1], "crash") == 0)
		crash();
	if (argc > 1 && strcmp(argv[1], "wait") == 0) {
		printf("ready %d\n", (int)getpid());
		fflush(stdout);
		for (int n = 0;; n++) {
			total += weigh(n, 1);
			usleep(10000);
		}
	}
	for (int i = 0; i < 5; i++) {
		total += weigh(i, 3);
		printf("weighing %d\n", i);
	}
	printf("%s %d %s %d %d\n", label, total, it.name, it.count, values[2]);
	return 3;
}
