module killed

go 1.21
