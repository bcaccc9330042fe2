int total(const int *prices, int n);
