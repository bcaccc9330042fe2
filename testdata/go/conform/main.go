// The conformance table's Go program (internal/server/conformance_test.go):
// weigh called in a loop, a panic chosen by "raise", a wait for an attach
// chosen by "wait", output and exit code 3.
package main

import (
	"fmt"
	"os"
	"time"
)

func weigh(item, factor int) int {
	scaled := item * factor
	return scaled
}

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	total := 0
	for i := 0; i < 4; i++ {
		total += weigh(i, 3)
	}
	if mode == "raise" {
		panic("bad mode " + mode)
	}
	if mode == "wait" {
		fmt.Println("ready")
		for total >= 0 {
			total += weigh(1, 1)
			time.Sleep(10 * time.Millisecond)
		}
	}
	fmt.Println("conform total", total)
	os.Exit(3)
}
