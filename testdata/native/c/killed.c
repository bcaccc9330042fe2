#include <stdio.h>
#include <unistd.h>

int main(void) {
	printf("pid %d\n", (int)getpid());
	fflush(stdout);
	int n = 1;
	printf("after %d\n", n);
	return 0;
}
