package main

import (
	"fmt"
	"os"
	"time"
)

func main() {
	fmt.Printf("pid %d\n", os.Getpid())
	n := 1
	fmt.Println("after", n)
	for len(os.Args) > 1 && os.Args[1] == "wait" {
		time.Sleep(100 * time.Millisecond)
	}
}
