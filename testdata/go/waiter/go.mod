module example.com/waiter

go 1.22
