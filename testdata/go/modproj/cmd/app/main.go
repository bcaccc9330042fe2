package main

import (
	"fmt"

	"example.com/shop/internal/price"
)

func main() {
	items := []int{3, 4}
	total := price.Sum(items)
	fmt.Println(label(total))
}
