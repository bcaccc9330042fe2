/* deep recurses as deep as its argument (100000 by default): the first
 * stop at line 10 is at the bottom, under that many frames of depth_sum. */
#include <stdio.h>
#include <stdlib.h>

static long depth_sum(long n) {
    long acc = n * 10 + 1;
    if (n > 0)
        acc += depth_sum(n - 1);
    return acc;
}

int main(int argc, char **argv) {
    long depth = argc > 1 ? atol(argv[1]) : 100000;
    printf("%ld\n", depth_sum(depth));
    return 0;
}
