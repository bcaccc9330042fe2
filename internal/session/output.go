package session

import (
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
type OutputBuffer struct {
	mu      sync.Mutex
	entries []OutputEntry // oldest first
	bytes   int
	next    uint64 // seq of the next entry; seqs start at 1
	notify  chan struct{}
}

// NewOutputBuffer returns an empty buffer.
func NewOutputBuffer() *OutputBuffer {
	return &OutputBuffer{next: 1, notify: make(chan struct{})}
}

// Append records one chunk.
func (b *OutputBuffer) Append(category, text string) {
	if text == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entries = append(b.entries, OutputEntry{Seq: b.next, Category: category, Output: text, Timestamp: time.Now()})
	b.next++
	b.bytes += len(text)
	for len(b.entries) > 1 && (len(b.entries) > outputMaxEntries || b.bytes > outputMaxBytes) {
		b.bytes -= len(b.entries[0].Output)
		b.entries[0] = OutputEntry{}
		b.entries = b.entries[1:]
	}
	close(b.notify)
	b.notify = make(chan struct{})
}

// Changed returns a channel closed at the next Append.
func (b *OutputBuffer) Changed() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.notify
}

// Cursor is the seq of the newest entry (0 when none yet).
func (b *OutputBuffer) Cursor() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
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
