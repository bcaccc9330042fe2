//go:build unix

package session

import (
	"fmt"
	"syscall"
)

// fullBelow is the free space under which a recording's disk counts as
// full: a recorder's write of one event batch needs more.
const fullBelow = 256 << 10

// diskFullNote says, when the file system holding dir is (nearly) full,
// that a recording there could not be written whole and what to do; ""
// otherwise. A recorder that runs out of space stops writing: without
// this, its truncated recording reads as a program killed.
func diskFullNote(dir string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return ""
	}
	free := uint64(st.Bavail) * uint64(st.Bsize)
	if free >= fullBelow {
		return ""
	}
	return fmt.Sprintf("no space left on device: the disk holding %s has %d KiB free; free some, or point TMPDIR at a larger disk, and record again", dir, free>>10)
}
