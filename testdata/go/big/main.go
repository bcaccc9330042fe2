// Command big holds a long slice, then writes to a nil map.
package main

import "fmt"

func main() {
	big := make([]int, 1000)
	for i := range big {
		big[i] = i * 2
	}
	var m map[string]int
	fmt.Println(len(big))
	m["x"] = 1
}
