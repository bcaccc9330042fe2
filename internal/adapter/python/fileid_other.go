//go:build !unix

package python

import "os"

// sameFileHere reports whether path exists here. Python's st_dev and st_ino
// on Windows are not an identity Go's os.Stat exposes, so they are not
// compared; an interpreter run in a chroot by a script is a Unix arrangement.
func sameFileHere(path string, id []uint64) bool {
	_, err := os.Stat(path)
	return err == nil
}
