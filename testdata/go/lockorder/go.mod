module lockorder

go 1.22
