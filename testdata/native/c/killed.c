#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	int n = 1;
	printf("after %d\n", n);
	fflush(stdout);
	while (argc > 1 && strcmp(argv[1], "wait") == 0)
		usleep(100000);
	return 0;
}
