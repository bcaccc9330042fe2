package java

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// defaultMaxEvents is the bound of docs/recording-format.md when the
// record tool names none.
const defaultMaxEvents = 200_000

// recEvent is one line of a recording. Fields are written only when set,
// except v, which a ret or set always has.
type recEvent struct {
	K       string     `json:"k"`
	T       int64      `json:"t"`
	Lang    string     `json:"lang,omitempty"`
	Pid     int        `json:"pid,omitempty"`
	Version int        `json:"version,omitempty"`
	Cwd     string     `json:"cwd,omitempty"`
	Argv    []string   `json:"argv,omitempty"`
	Runtime string     `json:"runtime,omitempty"`
	ID      int        `json:"id,omitempty"`
	P       *int       `json:"p,omitempty"`
	Th      string     `json:"th,omitempty"`
	Fn      string     `json:"fn,omitempty"`
	File    string     `json:"file,omitempty"`
	Line    int        `json:"line,omitempty"`
	Args    [][]string `json:"args,omitempty"`
	V       *string    `json:"v,omitempty"`
	Type    string     `json:"type,omitempty"`
	Msg     *string    `json:"msg,omitempty"`
	Raised  *bool      `json:"raised,omitempty"`
	N       any        `json:"n,omitempty"`
	First   int        `json:"first,omitempty"`
	Last    int        `json:"last,omitempty"`
	Exit    *int       `json:"exit,omitempty"`
	Name    string     `json:"name,omitempty"`
	Outcome string     `json:"outcome,omitempty"`
}

// eventLog writes a recording's events as JSON Lines within its bound:
// the first maxEvents events go to the file as they happen, the last
// maxEvents/10 after them are kept in a ring and written at the end behind
// a gap event that counts what fell out between.
type eventLog struct {
	f     *os.File
	w     *bufio.Writer
	begin time.Time
	max   int

	written int
	ring    []recEvent
	ringAt  int
	// dropped counts events that fell out of the ring; firstDropped and
	// lastDropped are the call ids they span.
	dropped      int
	firstDropped int
	lastDropped  int
	err          error
}

// newEventLog creates the recording file.
func newEventLog(path string, maxEvents int) (*eventLog, error) {
	if maxEvents <= 0 {
		maxEvents = defaultMaxEvents
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create the recording file: %w", err)
	}
	return &eventLog{f: f, w: bufio.NewWriterSize(f, 64<<10), begin: time.Now(), max: maxEvents}, nil
}

// add records an event, stamping its time.
func (l *eventLog) add(e recEvent) {
	e.T = time.Since(l.begin).Nanoseconds()
	if l.written < l.max {
		l.write(e)
		return
	}
	size := max(l.max/10, 1)
	if len(l.ring) < size {
		l.ring = append(l.ring, e)
		return
	}
	old := l.ring[l.ringAt]
	l.ring[l.ringAt] = e
	l.ringAt = (l.ringAt + 1) % size
	l.dropped++
	if old.ID != 0 {
		if l.firstDropped == 0 {
			l.firstDropped = old.ID
		}
		l.lastDropped = old.ID
	}
}

// always writes an event that the bound never holds back (test, end):
// what the ring kept goes first, so that the file stays in order.
func (l *eventLog) always(e recEvent) {
	l.flushRing()
	e.T = time.Since(l.begin).Nanoseconds()
	l.write(e)
}

// flushRing writes the gap and the ring, oldest first.
func (l *eventLog) flushRing() {
	if len(l.ring) == 0 {
		return
	}
	if l.dropped > 0 {
		l.write(recEvent{K: "gap", T: time.Since(l.begin).Nanoseconds(), N: l.dropped, First: l.firstDropped, Last: l.lastDropped})
	}
	for i := range l.ring {
		l.write(l.ring[(l.ringAt+i)%len(l.ring)])
	}
	l.ring, l.ringAt, l.dropped, l.firstDropped, l.lastDropped = nil, 0, 0, 0, 0
}

func (l *eventLog) write(e recEvent) {
	l.written++
	if l.err != nil {
		return
	}
	b, err := json.Marshal(e)
	if err != nil {
		l.err = err
		return
	}
	b = append(b, '\n')
	if _, err := l.w.Write(b); err != nil {
		l.err = err
	}
}

// close writes what is buffered and closes the file.
func (l *eventLog) close() error {
	l.flushRing()
	err := l.w.Flush()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if l.err != nil {
		err = l.err
	}
	if err != nil {
		return fmt.Errorf("write the recording: %w", err)
	}
	return nil
}
