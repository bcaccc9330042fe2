#include "price.h"

int total(const int *prices, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
        sum += prices[i];
    }
    return sum;
}
