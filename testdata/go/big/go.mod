module example.com/big

go 1.22
