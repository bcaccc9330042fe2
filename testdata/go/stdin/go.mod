module example.com/stdin

go 1.21
