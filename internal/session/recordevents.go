package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"
)

// defaultRecordMaxEvents is docs/recording-format.md's default bound.
const defaultRecordMaxEvents = 200_000

// field is one field of a recording event, kept in the order written.
type field struct {
	key   string
	value any
}

// recordEvent is one line of a recording: its kind and fields (t is
// added when written).
type recordEvent struct {
	kind   string
	fields []field
	// call is the call id the event belongs to, 0 for none; gap events
	// name the first and last call ids left out.
	call int
}

// eventWriter writes a recording's JSON Lines file within
// docs/recording-format.md's bounds: after max events only a ring of the
// last max/10 is kept, written at the end after a gap event.
type eventWriter struct {
	f     *os.File
	w     *bufio.Writer
	began time.Time
	max   int

	written int
	ring    []string // lines past max, oldest first once full
	ringAt  int      // next slot to overwrite when the ring is full
	ringIDs []int    // the call id of each ring slot
	dropped int
	first   int // call ids of the events left out
	last    int
	err     error
}

func newEventWriter(path string, maxEvents int) (*eventWriter, error) {
	if maxEvents <= 0 {
		maxEvents = defaultRecordMaxEvents
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("creating the recording: %w", err)
	}
	return &eventWriter{f: f, w: bufio.NewWriterSize(f, 64<<10), began: time.Now(), max: maxEvents}, nil
}

// encode renders an event as one JSON line.
func (ew *eventWriter) encode(e recordEvent) string {
	b := []byte(`{"k":`)
	b = strconv.AppendQuote(b, e.kind)
	b = append(b, `,"t":`...)
	b = strconv.AppendInt(b, time.Since(ew.began).Nanoseconds(), 10)
	for _, f := range e.fields {
		b = append(b, ',')
		b = strconv.AppendQuote(b, f.key)
		b = append(b, ':')
		v, err := json.Marshal(f.value)
		if err != nil {
			v = []byte(`null`)
		}
		b = append(b, v...)
	}
	return string(append(b, '}', '\n'))
}

// add writes an event, or keeps it in the ring once max were written.
func (ew *eventWriter) add(e recordEvent) {
	line := ew.encode(e)
	if ew.written < ew.max {
		ew.written++
		ew.write(line)
		return
	}
	size := max(ew.max/10, 1)
	if len(ew.ring) < size {
		ew.ring = append(ew.ring, line)
		ew.ringIDs = append(ew.ringIDs, e.call)
		return
	}
	ew.leaveOut(ew.ringIDs[ew.ringAt])
	ew.ring[ew.ringAt], ew.ringIDs[ew.ringAt] = line, e.call
	ew.ringAt = (ew.ringAt + 1) % size
}

func (ew *eventWriter) leaveOut(call int) {
	ew.dropped++
	if call != 0 && (ew.first == 0 || call < ew.first) {
		ew.first = call
	}
	ew.last = max(ew.last, call)
}

// always writes an event that the bounds never drop (end, test).
func (ew *eventWriter) always(e recordEvent) {
	ew.flushRing()
	ew.write(ew.encode(e))
}

// flushRing writes the gap and the ring, oldest first.
func (ew *eventWriter) flushRing() {
	if ew.dropped > 0 {
		ew.write(ew.encode(recordEvent{kind: "gap", fields: []field{{"n", ew.dropped}, {"first", ew.first}, {"last", ew.last}}}))
		ew.dropped = 0
	}
	for i := range ew.ring {
		ew.write(ew.ring[(ew.ringAt+i)%len(ew.ring)])
	}
	ew.ring, ew.ringIDs, ew.ringAt = nil, nil, 0
}

func (ew *eventWriter) write(line string) {
	if ew.err == nil {
		_, ew.err = ew.w.WriteString(line)
	}
}

// close flushes and closes the file.
func (ew *eventWriter) close() error {
	ew.flushRing()
	if err := ew.w.Flush(); err != nil && ew.err == nil {
		ew.err = err
	}
	if err := ew.f.Close(); err != nil && ew.err == nil {
		ew.err = err
	}
	if ew.err != nil {
		return fmt.Errorf("writing the recording: %w", ew.err)
	}
	return nil
}
