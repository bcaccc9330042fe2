package session

import (
	"context"
	"sync"
	"time"
)

// TraceValue is one collected expression's value.
type TraceValue struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
	Error string `json:"error,omitempty"`
}

// Trace entry kinds.
const (
	TraceHit    = "hit"    // a tracepoint was passed
	TraceCall   = "call"   // a traced function was entered
	TraceReturn = "return" // a traced function returned
	TraceNote   = "note"   // the trace itself changed (a tracepoint retired)
)

// TraceEntry is one record of the trace buffer: a tracepoint hit or a
// traced function's call or return, taken without the agent stepping.
type TraceEntry struct {
	Seq          uint64       `json:"seq"`
	Time         time.Time    `json:"time"`
	Kind         string       `json:"kind"`
	BreakpointID int          `json:"breakpointId,omitempty"`
	File         string       `json:"file,omitempty"`
	Line         int          `json:"line,omitempty"`
	Function     string       `json:"function,omitempty"`
	ThreadID     int          `json:"threadId,omitempty"`
	Values       []TraceValue `json:"values,omitempty"`
	Return       *TraceValue  `json:"return,omitempty"`
	// Call links a return to its call entry.
	Call uint64 `json:"call,omitempty"`
	// CostMs is how long the program was held for this entry when the
	// server had to stop it, evaluate and continue (0 for logpoints,
	// which do not stop it).
	CostMs float64 `json:"costMs,omitempty"`
	Note   string  `json:"note,omitempty"`
}

// traceMaxEntries bounds the trace buffer; the oldest entries go first.
const traceMaxEntries = 10000

// TraceBuffer is a bounded ring of trace entries read with cursors, like
// the output buffer.
type TraceBuffer struct {
	mu      sync.Mutex
	entries []TraceEntry
	next    uint64
	arrived chan struct{}
}

// NewTraceBuffer returns an empty buffer.
func NewTraceBuffer() *TraceBuffer {
	return &TraceBuffer{next: 1, arrived: make(chan struct{})}
}

// Add records an entry and returns its sequence number.
func (b *TraceBuffer) Add(e TraceEntry) uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	e.Seq = b.next
	b.next++
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	b.entries = append(b.entries, e)
	if len(b.entries) > traceMaxEntries {
		b.entries = append(b.entries[:0:0], b.entries[len(b.entries)-traceMaxEntries:]...)
	}
	close(b.arrived)
	b.arrived = make(chan struct{})
	return e.Seq
}

// TracePage is what a cursor read returns.
type TracePage struct {
	Entries   []TraceEntry
	NextSince uint64
	// Dropped counts entries after since that were evicted before the read.
	Dropped uint64
	// More: entries after these remain (limit was reached).
	More bool
}

// Since returns up to limit entries after seq since (all when limit <= 0).
func (b *TraceBuffer) Since(since uint64, limit int) TracePage {
	b.mu.Lock()
	defer b.mu.Unlock()
	page := TracePage{NextSince: since}
	if len(b.entries) > 0 && b.entries[0].Seq > since+1 {
		page.Dropped = b.entries[0].Seq - since - 1
	}
	for _, e := range b.entries {
		if e.Seq <= since {
			continue
		}
		if limit > 0 && len(page.Entries) == limit {
			page.More = true
			break
		}
		page.Entries = append(page.Entries, e)
		page.NextSince = e.Seq
	}
	return page
}

// Wait blocks until an entry after since exists, ctx ends or timeout passes.
func (b *TraceBuffer) Wait(ctx context.Context, since uint64, timeout time.Duration) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		b.mu.Lock()
		has := b.next-1 > since
		ch := b.arrived
		b.mu.Unlock()
		if has {
			return
		}
		select {
		case <-ch:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// Trace is the session's trace buffer.
func (s *Session) Trace() *TraceBuffer { return s.trace }
