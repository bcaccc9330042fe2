// Reads its standard input (see ../README.md).
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	var lines []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	first := "none"
	if len(lines) > 0 {
		first = lines[0]
	}
	fmt.Printf("read %d lines, first %s\n", len(lines), first)
}
