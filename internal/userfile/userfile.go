// Package userfile reads the files a client names by path (a source file
// to set a breakpoint in or to show, the files of a project scanned for
// functions) so that no name can bring the server down: a device
// (/dev/zero, /dev/urandom) would be read without end, a FIFO would block
// the call until a writer came, and a huge file would take the server's
// memory. Every such read goes through Open or Read.
package userfile

import (
	"fmt"
	"io"
	"os"
)

// MaxSize is the largest file read, 16 MiB: about twice SQLite's
// amalgamation (sqlite3.c, 9 MB), among the largest source files kept by
// hand. A generated file beyond it is refused, not cut, so that no line
// number ever points into a part that was not read.
const MaxSize = 16 << 20

// Error is a file refused: what it is, and what to do instead.
type Error struct {
	Path string
	Msg  string
	// Hint says what the caller can do.
	Hint string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

const (
	notRegularHint = "name a regular file: the program's own source file, not a device, FIFO, socket or directory"
	tooLargeHint   = "mcp-debugger reads source files of at most 16 MiB; set the breakpoint in a smaller file (a caller), or by function name"
)

// Open opens path for reading when it is a regular file of at most
// MaxSize bytes; the FileInfo is the open file's own.
func Open(path string) (*os.File, os.FileInfo, error) {
	// Stat first: a device is never opened (opening one can do things),
	// a FIFO never waits for a writer.
	named, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := check(path, named); err != nil {
		return nil, nil, err
	}
	// O_NONBLOCK: a FIFO put at the path since the Stat opens at once
	// instead of waiting for a writer, and is refused below.
	f, err := os.OpenFile(path, os.O_RDONLY|openNonBlocking, 0)
	if err != nil {
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err == nil {
		err = check(path, opened)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, opened, nil
}

// Read returns the contents of path when it is a regular file of at most
// MaxSize bytes.
func Read(path string) ([]byte, error) {
	f, _, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadOpened(f)
}

// ReadOpened reads a file Open opened, no more than MaxSize bytes even if
// it grew since.
func ReadOpened(f *os.File) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", f.Name(), err)
	}
	if len(b) > MaxSize {
		return nil, tooLarge(f.Name(), int64(len(b)))
	}
	return b, nil
}

// check refuses what is not a regular file of at most MaxSize bytes.
func check(path string, fi os.FileInfo) error {
	mode := fi.Mode()
	switch {
	case mode.IsRegular():
		if fi.Size() > MaxSize {
			return tooLarge(path, fi.Size())
		}
		return nil
	case mode.IsDir():
		return &Error{Path: path, Msg: "is a directory, not a file", Hint: notRegularHint}
	case mode&os.ModeNamedPipe != 0:
		return &Error{Path: path, Msg: "is a FIFO (named pipe), not a regular file", Hint: notRegularHint}
	case mode&os.ModeSocket != 0:
		return &Error{Path: path, Msg: "is a socket, not a regular file", Hint: notRegularHint}
	case mode&os.ModeDevice != 0:
		return &Error{Path: path, Msg: "is a device, not a regular file", Hint: notRegularHint}
	}
	return &Error{Path: path, Msg: "is not a regular file", Hint: notRegularHint}
}

func tooLarge(path string, size int64) error {
	return &Error{Path: path, Msg: fmt.Sprintf("is %.1f MiB, over the %d MiB a source file may have here", float64(size)/(1<<20), MaxSize>>20), Hint: tooLargeHint}
}
