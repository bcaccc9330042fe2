package recording

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"time"
)

// DefaultMaxEvents is docs/recording-format.md's bound when the record
// tool names none.
const DefaultMaxEvents = 200_000

// Writer writes a recording's file within docs/recording-format.md's
// Bounds: the first maxEvents events go to the file as they come; past
// them a ring keeps the last maxEvents/10, written at the end (or before
// an event that is always written) after a gap event counting those that
// fell out. Recorders encode their events; the Writer only bounds them.
type Writer struct {
	f     *os.File
	w     *bufio.Writer
	began time.Time
	max   int

	written   int
	ring      [][]byte // lines past max, oldest first once full
	ringCalls []int    // the call id of each ring slot
	ringAt    int      // next slot to overwrite when the ring is full
	dropped   int
	first     int // the call ids of the events that fell out
	last      int
	err       error
}

// Create creates the recording file at path; maxEvents <= 0 means
// DefaultMaxEvents.
func Create(path string, maxEvents int) (*Writer, error) {
	if maxEvents <= 0 {
		maxEvents = DefaultMaxEvents
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("creating the recording: %w", err)
	}
	return &Writer{f: f, w: bufio.NewWriterSize(f, 64<<10), began: time.Now(), max: maxEvents}, nil
}

// Now is an event's t: nanoseconds since the recording began.
func (w *Writer) Now() int64 { return time.Since(w.began).Nanoseconds() }

// Add writes an event's JSON line (without its newline), or keeps it in
// the ring once maxEvents were written; call is the call id the event
// belongs to (0 for none), which a gap event names.
func (w *Writer) Add(call int, line []byte) {
	if w.written < w.max {
		w.written++
		w.write(line)
		return
	}
	size := max(w.max/10, 1)
	if len(w.ring) < size {
		w.ring = append(w.ring, line)
		w.ringCalls = append(w.ringCalls, call)
		return
	}
	w.fallOut(w.ringCalls[w.ringAt])
	w.ring[w.ringAt], w.ringCalls[w.ringAt] = line, call
	w.ringAt = (w.ringAt + 1) % size
}

func (w *Writer) fallOut(call int) {
	w.dropped++
	if call != 0 && (w.first == 0 || call < w.first) {
		w.first = call
	}
	w.last = max(w.last, call)
}

// Always writes an event the bounds never hold back (test, end), after
// what the ring kept, so that the file stays in order.
func (w *Writer) Always(line []byte) {
	w.flushRing()
	w.write(line)
}

// flushRing writes the gap and the ring, oldest first.
func (w *Writer) flushRing() {
	if w.dropped > 0 {
		gap := []byte(`{"k":"gap","t":`)
		gap = strconv.AppendInt(gap, w.Now(), 10)
		gap = append(gap, `,"n":`...)
		gap = strconv.AppendInt(gap, int64(w.dropped), 10)
		gap = append(gap, `,"first":`...)
		gap = strconv.AppendInt(gap, int64(w.first), 10)
		gap = append(gap, `,"last":`...)
		gap = strconv.AppendInt(gap, int64(w.last), 10)
		w.write(append(gap, '}'))
		w.dropped, w.first, w.last = 0, 0, 0
	}
	for i := range w.ring {
		w.write(w.ring[(w.ringAt+i)%len(w.ring)])
	}
	w.ring, w.ringCalls, w.ringAt = nil, nil, 0
}

func (w *Writer) write(line []byte) {
	if w.err != nil {
		return
	}
	if _, w.err = w.w.Write(line); w.err == nil {
		w.err = w.w.WriteByte('\n')
	}
}

// Close writes what the ring holds and closes the file.
func (w *Writer) Close() error {
	w.flushRing()
	if err := w.w.Flush(); err != nil && w.err == nil {
		w.err = err
	}
	if err := w.f.Close(); err != nil && w.err == nil {
		w.err = err
	}
	if w.err != nil {
		return fmt.Errorf("writing the recording: %w", w.err)
	}
	return nil
}
