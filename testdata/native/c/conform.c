/* The conformance table's C program (internal/server/conformance_test.go):
 * weigh called in a loop, a segfault chosen by "raise", a wait for an
 * attach chosen by "wait", output and exit code 3. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int weigh(int item, int factor) {
    int scaled = item * factor;
    return scaled;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    int total = 0;
    for (int i = 0; i < 4; i++) {
        total += weigh(i, 3);
    }
    if (strcmp(mode, "raise") == 0) {
        volatile int *nowhere = NULL;
        *nowhere = total;
    }
    if (strcmp(mode, "wait") == 0) {
        printf("ready %d\n", (int)getpid());
        fflush(stdout);
        while (total >= 0) {
            total += weigh(1, 1);
            usleep(10000);
        }
    }
    printf("conform total %d\n", total);
    return 3;
}
