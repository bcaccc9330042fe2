// Command spawner runs itself once as a child process and prints what the
// child wrote.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		fmt.Println("child says 42")
		return
	}
	out, err := exec.Command(os.Args[0], "child").Output()
	got := strings.TrimSpace(string(out))
	fmt.Println("child answered", got, err)
}
