package userfile

// openNonBlocking is nothing on Windows, where a path names no FIFO that
// an open would wait on (named pipes live under \\.\pipe\ and are not
// regular files, refused before the open).
const openNonBlocking = 0
