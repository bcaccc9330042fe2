package recording

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

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

// The record tool cuts a report over its budget by dropping the earliest
// last calls: what the remaining lines refer to must still be shown.
func TestReportRefersOnlyToLinesACutReportKeeps(t *testing.T) {
	bare := regexp.MustCompile(`[A-Za-z_$][\w$.]*#\d+`)
	as := regexp.MustCompile(`\(as #(\d+)\)`)
	for _, name := range []string{"failing_test.jsonl", "swallowed.jsonl", "raise_in_loop.jsonl", "lines.jsonl"} {
		rep := report(t, name)
		// Objects the recorder rendered bare (nested ones) have no fields
		// to show; those the report shows with fields must keep them.
		whole := strings.Join(rep.LastCalls, "\n")
		for _, f := range rep.Path {
			whole += "\n" + f.Call
		}
		for cut := range rep.LastCalls {
			kept := rep.LastCalls[cut:]
			var text strings.Builder
			for _, f := range rep.Path {
				fmt.Fprintf(&text, "#%d %s\n", f.ID, f.Call)
			}
			for _, line := range kept {
				text.WriteString(line + "\n")
			}
			all := text.String()
			for _, line := range kept {
				for _, id := range bare.FindAllString(line, -1) {
					if strings.Contains(whole, id+"{") && !strings.Contains(all, id+"{") {
						t.Errorf("%s cut to %d last calls: %s is shown without its fields:\n%s", name, len(kept), id, all)
					}
				}
				for _, m := range as.FindAllStringSubmatch(line, -1) {
					if !strings.Contains("\n"+all, "\n#"+m[1]+" ") {
						t.Errorf("%s cut to %d last calls: %s refers to a line not shown:\n%s", name, len(kept), m[0], all)
					}
				}
			}
		}
	}
}
