// Command goroutines parks 10,000 goroutines before line 19, for
// list_threads paging.
package main

import (
	"fmt"
	"sync"
)

func main() {
	var started sync.WaitGroup
	block := make(chan struct{})
	for range 10000 {
		started.Add(1)
		go func() { started.Done(); <-block }()
	}
	started.Wait()
	n := 10000
	fmt.Println("parked", n)
	close(block)
}
