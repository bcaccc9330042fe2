module cart

go 1.21
