package session

import (
	"strings"
	"testing"
)

func texts(entries []OutputEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Category+":"+e.Output)
	}
	return out
}

func TestOutputJoinsPiecesIntoLines(t *testing.T) {
	b := NewOutputBuffer()
	for _, piece := range []string{"weighing", " ", "0", "\n"} {
		b.Append("stdout", piece)
	}
	b.Append("stderr", "warn\n")
	b.Append("stdout", "total ")
	b.Append("stdout", "30\n")
	got := strings.Join(texts(b.Since(0, 0).Entries), "|")
	if got != "stdout:weighing 0\n|stderr:warn\n|stdout:total 30\n" {
		t.Errorf("entries = %q", got)
	}
}

func TestOutputReadSeesUnfinishedLine(t *testing.T) {
	b := NewOutputBuffer()
	b.Append("stdout", "prompt: ")
	first := b.Since(0, 0)
	if len(first.Entries) != 1 || first.Entries[0].Output != "prompt: " {
		t.Fatalf("an unfinished line must be readable: %v", first.Entries)
	}
	b.Append("stdout", "yes\n")
	second := b.Since(first.NextSince, 0)
	if len(second.Entries) != 1 || second.Entries[0].Output != "yes\n" {
		t.Errorf("text after a read goes into a new entry, never into one already read: %v", second.Entries)
	}
}

// debugpy may deliver another stream's line between the pieces of one.
func TestOutputInterleavedStreamsKeepLinesWhole(t *testing.T) {
	b := NewOutputBuffer()
	b.Append("stdout", "weighing")
	b.Append("stderr", "stderr 0\n")
	b.Append("stdout", " 0\n")
	if got := strings.Join(texts(b.Since(0, 0).Entries), "|"); got != "stderr:stderr 0\n|stdout:weighing 0\n" {
		t.Errorf("entries = %q", got)
	}
}

func TestOutputCursorsLimitAndEviction(t *testing.T) {
	b := NewOutputBuffer()
	for range outputMaxEntries + 10 {
		b.Append("stdout", "x\n")
	}
	page := b.Since(0, 5)
	if page.Dropped != 10 || len(page.Entries) != 5 || !page.HasMore || page.Entries[0].Seq != 11 || page.NextSince != 15 {
		t.Fatalf("page after eviction: dropped=%d n=%d hasMore=%v first=%d next=%d", page.Dropped, len(page.Entries), page.HasMore, page.Entries[0].Seq, page.NextSince)
	}
	rest := b.Since(page.NextSince, 0)
	if rest.Dropped != 0 || rest.HasMore || len(rest.Entries) != outputMaxEntries-5 {
		t.Errorf("rest: dropped=%d n=%d hasMore=%v", rest.Dropped, len(rest.Entries), rest.HasMore)
	}
	if end := b.Since(rest.NextSince, 0); len(end.Entries) != 0 || end.NextSince != rest.NextSince {
		t.Errorf("read at the end: %+v", end)
	}
}

func TestOutputLongUnfinishedLineIsStored(t *testing.T) {
	b := NewOutputBuffer()
	for range maxPendingLine/1024 + 1 {
		b.Append("stdout", strings.Repeat(".", 1024))
	}
	if n := len(b.entries); n != 1 {
		t.Errorf("a line over %d bytes should be stored without waiting for its end; entries=%d", maxPendingLine, n)
	}
}

func TestSnapshotReadLeavesFreshUnfinishedLine(t *testing.T) {
	b := NewOutputBuffer()
	b.Append("stdout", "done\n")
	b.Append("stdout", "weighing")
	page := b.FinishedSince(0, 0)
	if got := strings.Join(texts(page.Entries), "|"); got != "stdout:done\n" {
		t.Fatalf("a fresh unfinished line should wait: %q", got)
	}
	b.Append("stdout", " 0\n")
	if got := strings.Join(texts(b.FinishedSince(page.NextSince, 0).Entries), "|"); got != "stdout:weighing 0\n" {
		t.Errorf("the line should come whole: %q", got)
	}
	b.Append("stdout", "prompt: ")
	b.pending[0].Timestamp = b.pending[0].Timestamp.Add(-2 * settleTime)
	if got := b.FinishedSince(0, 0).Entries; got[len(got)-1].Output != "prompt: " {
		t.Errorf("an old unfinished line (a prompt) should be shown: %v", got)
	}
}

func TestOutputLinesMarkOtherStreams(t *testing.T) {
	entries := []OutputEntry{
		{Category: "stdout", Output: "one\ntwo\n"},
		{Category: "stderr", Output: "oops " + strings.Repeat("x", 20) + "\n"},
		{Category: "console", Output: "logpoint\n"},
		{Category: "stdout", Output: "prompt> "},
	}
	got := strings.Join(OutputLines(entries, 10), "")
	want := "one\ntwo\n[stderr] oops xxxxx…\n[console] logpoint\nprompt> "
	if got != want {
		t.Errorf("OutputLines = %q, want %q", got, want)
	}
}

func TestJoinRunsKeepsTheCursor(t *testing.T) {
	b := NewOutputBuffer()
	for _, e := range []OutputEntry{{Category: "stdout", Output: "a\n"}, {Category: "stdout", Output: "b\n"}, {Category: "stderr", Output: "c\n"}, {Category: "stdout", Output: "d\n"}} {
		b.Append(e.Category, e.Output)
	}
	runs := JoinRuns(b.Since(0, 0).Entries)
	if len(runs) != 3 || runs[0].Output != "a\nb\n" || runs[0].Seq != 2 || runs[1].Category != "stderr" || runs[2].Seq != 4 {
		t.Fatalf("runs: %+v", runs)
	}
	if rest := b.Since(runs[0].Seq, 0).Entries; len(rest) != 2 || rest[0].Output != "c\n" {
		t.Errorf("reading on after a run's seq: %+v", rest)
	}
}

// A program's control bytes never reach an answer as they are: escape
// sequences are dropped, other controls written visibly, even when the
// program wrote a sequence in two pieces.
func TestOutputMakesControlBytesVisible(t *testing.T) {
	b := NewOutputBuffer()
	b.Append("stdout", "\x1b]0;pwn")
	b.Append("stdout", "ed\x07\x1b[2Jcolour \x1b[31")
	b.Append("stdout", "mred\x1b[0m bell\x07\n")
	page := b.Since(0, 0)
	if len(page.Entries) != 1 || page.Entries[0].Output != `colour red bell\x07`+"\n" {
		t.Fatalf("entries %+v", page.Entries)
	}
}
