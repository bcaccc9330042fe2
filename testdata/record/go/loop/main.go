// Command loop calls square as many times as its argument says: the
// record benchmark (internal/server/record_native_bench_test.go) divides
// the recorded run's time by its calls.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func square(n int) int {
	return n * n
}

func main() {
	count, _ := strconv.Atoi(os.Args[1])
	sum := 0
	for i := 0; i < count; i++ {
		sum += square(i)
	}
	fmt.Println("sum", sum)
}
