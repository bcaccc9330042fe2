//go:build unix

// Package hostilefile makes the files that once took the server down or
// held a call forever when named as a source path: a FIFO (a read waits
// for a writer) and a sparse file of 2 GiB (a read takes it whole). With
// /dev/zero and /dev/urandom they are what every path argument is tried
// with.
package hostilefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// HugeSize is the sparse file's size.
const HugeSize = 2 << 30

// Make creates, in a temporary directory of t's, a FIFO and a sparse
// HugeSize file whose names end in ext (".py", ".mock"), and returns
// their paths.
func Make(t testing.TB, ext string) (fifo, huge string) {
	t.Helper()
	dir := t.TempDir()
	fifo = filepath.Join(dir, "fifo"+ext)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge = filepath.Join(dir, "huge"+ext)
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(HugeSize); err != nil {
		t.Fatal(err)
	}
	return fifo, huge
}
