module example.com/subtests

go 1.21
