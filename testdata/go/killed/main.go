package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Printf("pid %d\n", os.Getpid())
	n := 1
	fmt.Println("after", n)
}
