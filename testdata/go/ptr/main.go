// Command ptr follows a pointer to a struct that points on.
package main

import "fmt"

type node struct {
	Name string
	Next *node
}

func main() {
	tail := &node{Name: "tail"}
	head := &node{Name: "head", Next: tail}
	fmt.Println(head.Name, head.Next.Name)
}
