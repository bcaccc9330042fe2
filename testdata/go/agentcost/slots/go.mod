module example.com/slots

go 1.22
