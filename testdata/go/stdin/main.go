// Reads its standard input (see ../README.md).
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

// readLines counts r's lines and returns the first ("none" without one).
func readLines(r io.Reader) (n int, first string) {
	first = "none"
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if n == 0 {
			first = sc.Text()
		}
		n++
	}
	return n, first
}

func main() {
	n, first := readLines(os.Stdin)
	fmt.Printf("read %d lines, first %s\n", n, first)
}
