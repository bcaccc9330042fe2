package recording

import "testing"

func TestShownSaysEachObjectAndLongArgumentOnce(t *testing.T) {
	s := newShown()
	lines := []string{
		s.callArgs(1, [][]string{{"cart", "Cart#1{items=[Item#2{name='pen', qty=2}], note='Item#2{x}'}"}}),
		s.callArgs(2, [][]string{{"item", "Item#2{name='pen', qty=2}"}, {"other", "Item#3{name='ink', qty=1}"}}),
		s.callArgs(3, [][]string{{"item", "Item#2{name='pen', qty=3}"}, {"cart", "Cart#1{items=[Item#2{name='pen', qty=2}], note='Item#2{x}'}"}}),
		s.callArgs(4, [][]string{{"accounts", "{'ann': 130, 'carol': 180}"}, {"n", "1"}}),
		s.callArgs(5, [][]string{{"accounts", "{'ann': 130, 'carol': 180}"}, {"n", "1"}, {"totals", "{'ann': 130, 'carol': 180}"}}),
	}
	want := []string{
		// An object inside a string is not one.
		"cart=Cart#1{items=[Item#2{name='pen', qty=2}], note='Item#2{x}'}",
		"item=Item#2, other=Item#3{name='ink', qty=1}",
		// Item#2's fields changed: shown again; Cart#1 is as before.
		"item=Item#2{name='pen', qty=3}, cart=(as #1)",
		"accounts={'ann': 130, 'carol': 180}, n=1",
		// The same value under another name is not a reference.
		"accounts=(as #4), n=1, totals={'ann': 130, 'carol': 180}",
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], want[i])
		}
	}
}

func TestShownLeavesACutObjectWhole(t *testing.T) {
	s := newShown()
	s.value("Item#2{name='pen', qty=2}")
	if got := s.value("[Item#2{name='pen', qty=2}, Item#2{name='pe…"); got != "[Item#2, Item#2{name='pe…" {
		t.Errorf("got %s", got)
	}
}
