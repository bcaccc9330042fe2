#include <stdio.h>
#include "price.h"

int main(void) {
    int prices[] = {3, 4};
    printf("total %d\n", total(prices, 2));
    return 0;
}
