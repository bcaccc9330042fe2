// Command panics panics on a negative value.
package main

import "fmt"

func check(value int) int {
	if value < 0 {
		panic(fmt.Sprintf("negative value: %d", value))
	}
	return value
}

func main() {
	for _, v := range []int{2, 1, -1} {
		fmt.Println("checked", check(v))
	}
}
