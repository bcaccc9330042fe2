//go:build unix

package python

import (
	"os"
	"syscall"
)

// sameFileHere reports whether path, on this side, is the file whose device
// and inode an interpreter reported (probe.py's executable_id). Without an
// id (the interpreter could not stat its own executable) it is enough that
// the path exists here.
func sameFileHere(path string, id []uint64) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if len(id) != 2 || !ok {
		return true
	}
	return uint64(st.Dev) == id[0] && uint64(st.Ino) == id[1]
}
