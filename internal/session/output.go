package session

import (
	"context"
	"github.com/mcp-debugger/mcp-debugger/internal/textsafe"
	"slices"
	"strings"
	"sync"
	"time"
)

// OutputEntry is one chunk of debuggee (or adapter console) output.
type OutputEntry struct {
	Seq       uint64    `json:"seq"`
	Category  string    `json:"category"`
	Output    string    `json:"output"`
	Timestamp time.Time `json:"timestamp"`
}

// Output limits: whichever is reached first evicts the oldest entries.
const (
	outputMaxEntries = 5000
	outputMaxBytes   = 4 << 20
)

// OutputBuffer is a bounded ring of output entries with increasing sequence
// numbers, read with cursors: a reader passes the last seq it saw and gets
// what came after, plus how many entries it missed to eviction.
//
// Adapters send output in whatever pieces the program wrote (debugpy sends
// print("a", 1) as "a", " ", "1", "\n", and may interleave another stream's
// pieces between them; docs/adapter-quirks.md, debugpy-12). Pieces of one
// category are joined until a line ends, or until someone reads, so entries
// are whole lines whenever the program has finished them, and a read never
// misses a byte.
type OutputBuffer struct {
	mu      sync.Mutex
	entries []OutputEntry // oldest first
	bytes   int
	next    uint64 // seq of the next entry; seqs start at 1
	// pending holds each category's unfinished line, not yet numbered, in
	// the order the lines began.
	pending []OutputEntry
	// arrived is closed and replaced whenever output arrives.
	arrived chan struct{}
	// runStart is the last seq of earlier runs (Reset): a read from before
	// it starts at the current run, and does not count the earlier runs'
	// entries as dropped.
	runStart uint64
}

// Reset starts the output of a new run of the program (a restart): what
// earlier runs printed is gone, and seqs go on increasing, so that a cursor
// an agent holds reads the new run from its start.
func (b *OutputBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.entries)
	b.entries, b.pending, b.bytes = b.entries[:0], b.pending[:0], 0
	b.runStart = b.next - 1
}

// NewOutputBuffer returns an empty buffer.
func NewOutputBuffer() *OutputBuffer {
	return &OutputBuffer{next: 1, arrived: make(chan struct{})}
}

// Append records one chunk.
func (b *OutputBuffer) Append(category, text string) {
	if text == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	i := slices.IndexFunc(b.pending, func(e OutputEntry) bool { return e.Category == category })
	if i < 0 {
		b.pending = append(b.pending, OutputEntry{Category: category, Timestamp: time.Now()})
		i = len(b.pending) - 1
	}
	b.pending[i].Output += text
	close(b.arrived)
	b.arrived = make(chan struct{})
	if strings.HasSuffix(text, "\n") || len(b.pending[i].Output) >= maxPendingLine {
		b.store(b.pending[i])
		b.pending = slices.Delete(b.pending, i, i+1)
	}
}

// maxPendingLine bounds an unfinished line (a progress bar that never
// ends its line, say) before it is stored anyway.
const maxPendingLine = 64 << 10

// flushLocked stores every unfinished line. b.mu is held.
func (b *OutputBuffer) flushLocked() {
	for _, e := range b.pending {
		b.store(e)
	}
	b.pending = b.pending[:0]
}

// store numbers an entry, its control bytes made visible (a program's
// escape sequences must not act on the agent's terminal), and adds it,
// evicting the oldest beyond the limits. b.mu is held.
func (b *OutputBuffer) store(e OutputEntry) {
	// Whole lines, so that an escape sequence split between the pieces
	// the program wrote is seen whole.
	e.Output = textsafe.Visible(e.Output)
	e.Seq = b.next
	b.entries = append(b.entries, e)
	b.next++
	b.bytes += len(e.Output)
	for len(b.entries) > 1 && (len(b.entries) > outputMaxEntries || b.bytes > outputMaxBytes) {
		b.bytes -= len(b.entries[0].Output)
		b.entries[0] = OutputEntry{}
		b.entries = b.entries[1:]
	}
}

// Cursor is the seq of the newest entry (0 when none yet).
func (b *OutputBuffer) Cursor() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	return b.next - 1
}

// OutputPage is the answer to a cursor read.
type OutputPage struct {
	Entries []OutputEntry
	// NextSince is the cursor to pass next time.
	NextSince uint64
	// HasMore says that limit cut the page short.
	HasMore bool
	// Dropped counts entries after since that were evicted before this read.
	Dropped uint64
}

// Since returns up to limit entries with seq > since (limit <= 0: all).
func (b *OutputBuffer) Since(since uint64, limit int) OutputPage {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	return b.sinceLocked(since, limit)
}

// Wait waits until there is output after since (finished or not), or ctx
// ends; it reports whether there is.
func (b *OutputBuffer) Wait(ctx context.Context, since uint64) bool {
	for {
		b.mu.Lock()
		ready := b.next-1 > since || len(b.pending) > 0
		arrived := b.arrived
		b.mu.Unlock()
		if ready {
			return true
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return false
		}
	}
}

// settleTime is how long an unfinished line may wait for its end before a
// snapshot shows it anyway (a prompt, say). Adapters often deliver output
// by another path than stops (debugpy: the launcher's pipes vs. pydevd), so
// a line's last pieces can arrive just after the stop it preceded.
const settleTime = 100 * time.Millisecond

// FinishedSince is Since for snapshots: unfinished lines younger than
// settleTime stay pending, to be shown whole later.
func (b *OutputBuffer) FinishedSince(since uint64, limit int) OutputPage {
	b.mu.Lock()
	defer b.mu.Unlock()
	cutoff := time.Now().Add(-settleTime)
	kept := b.pending[:0]
	for _, e := range b.pending {
		if e.Timestamp.Before(cutoff) {
			b.store(e)
		} else {
			kept = append(kept, e)
		}
	}
	b.pending = kept
	return b.sinceLocked(since, limit)
}

func (b *OutputBuffer) sinceLocked(since uint64, limit int) OutputPage {
	since = max(since, b.runStart)
	page := OutputPage{NextSince: since}
	if len(b.entries) == 0 {
		if b.next-1 > since {
			page.Dropped = b.next - 1 - since
			page.NextSince = b.next - 1
		}
		return page
	}
	oldest := b.entries[0].Seq
	start := 0
	if since+1 < oldest {
		page.Dropped = oldest - since - 1
	} else {
		start = int(since + 1 - oldest)
	}
	if start >= len(b.entries) {
		page.NextSince = max(since, b.next-1)
		return page
	}
	rest := b.entries[start:]
	if limit > 0 && len(rest) > limit {
		rest = rest[:limit]
		page.HasMore = true
	}
	page.Entries = append([]OutputEntry(nil), rest...)
	page.NextSince = rest[len(rest)-1].Seq
	return page
}

// OutputLines are output entries as an answer shows them, line by line in
// the order they came: the program's stdout as it is, and every line of
// another stream marked with that stream ("[stderr] …"), so that one
// string carries all streams. A line longer than lineLimit bytes is cut
// (lineLimit <= 0: no cut). Each line keeps its "\n"; an unfinished last
// line has none.
func OutputLines(entries []OutputEntry, lineLimit int) []string {
	var lines []string
	for _, e := range entries {
		for line := range strings.SplitAfterSeq(e.Output, "\n") {
			if line == "" {
				continue
			}
			text, end := strings.CutSuffix(line, "\n")
			if lineLimit > 0 {
				text, _ = Cut(text, lineLimit)
			}
			if e.Category != "stdout" {
				text = "[" + e.Category + "] " + text
			}
			if end {
				text += "\n"
			}
			lines = append(lines, text)
		}
	}
	return lines
}

// OutputRun is consecutive output entries of one category joined into one
// text: get_output's entry, in the reference's shape, without an object
// per line. Seq is the last joined entry's, so reading on with since=Seq
// starts after the run.
type OutputRun struct {
	Seq      uint64 `json:"seq"`
	Category string `json:"category"`
	Output   string `json:"output"`
	// Timestamp is when the run's first entry came, in milliseconds since
	// the Unix epoch.
	Timestamp int64 `json:"timestamp"`
}

// JoinRuns joins consecutive entries of one category.
func JoinRuns(entries []OutputEntry) []OutputRun {
	runs := []OutputRun{}
	for start := 0; start < len(entries); {
		end := start + 1
		for end < len(entries) && entries[end].Category == entries[start].Category {
			end++
		}
		var text strings.Builder
		for _, e := range entries[start:end] {
			text.WriteString(e.Output)
		}
		first := entries[start]
		runs = append(runs, OutputRun{Seq: entries[end-1].Seq, Category: first.Category, Output: text.String(), Timestamp: first.Timestamp.UnixMilli()})
		start = end
	}
	return runs
}
