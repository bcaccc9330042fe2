package session

import (
	"slices"
	"testing"
)

func TestShownSourceLeavesOutWhatWasJustRead(t *testing.T) {
	s := &Session{}
	numbers := func(lines []SourceLine) []int {
		var n []int
		for _, l := range lines {
			n = append(n, l.Line)
		}
		return n
	}
	window := func(from, to int, edited ...int) []SourceLine {
		var lines []SourceLine
		for n := from; n <= to; n++ {
			text := "line"
			if slices.Contains(edited, n) {
				text = "edited"
			}
			lines = append(lines, SourceLine{Line: n, Content: text})
		}
		return lines
	}
	if got := numbers(s.showedSource("a.py", window(8, 12), false)); !slices.Equal(got, []int{8, 9, 10, 11, 12}) {
		t.Fatalf("nothing shown yet: %v", got)
	}
	if got := numbers(s.showedSource("a.py", window(9, 13), true)); !slices.Equal(got, []int{13}) {
		t.Errorf("after set_breakpoint's window, a stop shows only the new line: %v", got)
	}
	if got := numbers(s.showedSource("b.py", window(9, 13), true)); len(got) != 5 {
		t.Errorf("another file is all new: %v", got)
	}
	if got := numbers(s.showedSource("b.py", window(10, 14, 11), true)); !slices.Equal(got, []int{11, 14}) {
		t.Errorf("an edited line and a new one are shown: %v", got)
	}
	if got := numbers(s.showedSource("a.py", window(9, 13), true)); len(got) != 0 {
		t.Errorf("lines shown a few stops ago still count as read: %v", got)
	}
	for range sourceMemory {
		s.showedSource("c.py", window(1, 3), true)
	}
	if got := numbers(s.showedSource("a.py", window(9, 13), true)); len(got) != 5 {
		t.Errorf("lines shown more than sourceMemory stops ago are shown again: %v", got)
	}
}
