package main

import (
	"fmt"

	"example.com/lib"
)

func main() {
	word := lib.Shout("hi")
	fmt.Println(word)
}
