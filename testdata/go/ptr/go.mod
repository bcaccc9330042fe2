module example.com/ptr

go 1.22
