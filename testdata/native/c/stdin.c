/* Reads its standard input (see ../README.md). */
#include <stdio.h>
#include <string.h>

int main(void) {
    char line[256], first[256] = "none";
    int n = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (n++ == 0) strcpy(first, line);
    }
    printf("read %d lines, first %s\n", n, first);
    return 0;
}
