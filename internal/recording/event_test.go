package recording

import (
	"errors"
	"testing"
)

func TestParseEventReadsEveryForm(t *testing.T) {
	for in, want := range map[string]Event{
		"#7":            {Call: 7, Kind: EventCall},
		"7":             {Call: 7, Kind: EventCall},
		"#7 return":     {Call: 7, Kind: EventReturn},
		"#7 raise":      {Call: 7, Kind: EventRaise},
		"#7 line 27":    {Call: 7, Kind: EventLine, Line: 27, Run: 1},
		"#7 line 27 x2": {Call: 7, Kind: EventLine, Line: 27, Run: 2},
		"failure":       {Failure: true, Kind: EventRaise},
	} {
		if got, err := ParseEvent(in); err != nil || got != want {
			t.Errorf("ParseEvent(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "#0", "#7 exit", "#7 line", "#7 line 27 2", "#7 line 27 x0", "the third call"} {
		if _, err := ParseEvent(in); !errors.Is(err, ErrEventSyntax) {
			t.Errorf("ParseEvent(%q): want ErrEventSyntax, got %v", in, err)
		}
	}
}

// The second call of ship_all began on the same line as the first: its
// entry is that line's second run. It raised on the second run of line 6
// in it, which the recorded lines count.
func TestLocateFindsTheEntryRunAndTheRaisingLinesRun(t *testing.T) {
	r := open(t, "raise_in_loop.jsonl")
	for _, ev := range []Event{{Call: 3, Kind: EventRaise}, {Failure: true, Kind: EventRaise}} {
		got, err := r.Locate(ev)
		if err != nil {
			t.Fatal(err)
		}
		if got.Call.ID != 3 || got.Entry != 2 || got.Line != 6 || got.Run != 2 {
			t.Errorf("%+v: call %d, entry run %d, line %d run %d; want call 3, entry run 2, line 6 run 2", ev, got.Call.ID, got.Entry, got.Line, got.Run)
		}
		if got.Name != "#3 ship.ship_all(orders=[1, -2]) at line 6, where the exception came" {
			t.Errorf("name: %s", got.Name)
		}
	}
	if _, err := r.Locate(Event{Call: 2, Kind: EventRaise}); err == nil {
		t.Error("call 2 raised nothing, yet a raise was located in it")
	}
	if _, err := r.Locate(Event{Call: 9, Kind: EventCall}); err == nil {
		t.Error("the recording has no call 9, yet it was located")
	}
	if _, err := open(t, "lines.jsonl").Locate(Event{Failure: true, Kind: EventRaise}); !errors.Is(err, ErrNoFailure) {
		t.Errorf("a run that exited 0 has no failure: %v", err)
	}
}
