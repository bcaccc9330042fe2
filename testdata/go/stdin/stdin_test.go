package main

import (
	"bufio"
	"os"
	"testing"
)

// TestReadsInput fails saying what it read from its standard input: the
// input debug_test and record give a go test run (../README.md).
func TestReadsInput(t *testing.T) {
	var lines []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	first := "none"
	if len(lines) > 0 {
		first = lines[0]
	}
	if len(lines) > 0 {
		t.Fatalf("read %d lines, first %s", len(lines), first)
	}
}
