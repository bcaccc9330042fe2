module scale

go 1.21
