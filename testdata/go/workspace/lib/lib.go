// Package lib is a module of the workspace, found only through go.work.
package lib

import "strings"

// Shout upper-cases s.
func Shout(s string) string {
	return strings.ToUpper(s) + "!"
}
