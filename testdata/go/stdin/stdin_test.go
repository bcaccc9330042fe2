package main

import (
	"os"
	"testing"
)

// TestReadsInput fails saying what it read from its standard input: the
// input debug_test and record give a go test run (../README.md).
func TestReadsInput(t *testing.T) {
	if n, first := readLines(os.Stdin); n > 0 {
		t.Fatalf("read %d lines, first %s", n, first)
	}
}
