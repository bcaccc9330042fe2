package main

import "fmt"

// label is in a second file of package main: building main.go alone fails.
func label(total int) string {
	return fmt.Sprintf("total %d", total)
}
