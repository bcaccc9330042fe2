module loop

go 1.21
