// Command deadlock blocks forever with no other goroutine: a fatal error.
package main

func main() {
	ch := make(chan int)
	<-ch
}
