package session

import (
	"encoding/json"
	"strconv"

	"github.com/mcp-debugger/mcp-debugger/internal/recording"
)

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
	// call is the call id the event belongs to, 0 for none.
	call int
}

// eventWriter encodes a breakpoint recording's events for the shared
// writer, which keeps them within docs/recording-format.md's bounds.
type eventWriter struct{ w *recording.Writer }

func newEventWriter(path string, maxEvents int) (*eventWriter, error) {
	w, err := recording.Create(path, maxEvents)
	if err != nil {
		return nil, err
	}
	return &eventWriter{w: w}, nil
}

// encode renders an event as one JSON line, its fields in order.
func (ew *eventWriter) encode(e recordEvent) []byte {
	b := []byte(`{"k":`)
	b = strconv.AppendQuote(b, e.kind)
	b = append(b, `,"t":`...)
	b = strconv.AppendInt(b, ew.w.Now(), 10)
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
	return append(b, '}')
}

// add writes an event within the bounds.
func (ew *eventWriter) add(e recordEvent) { ew.w.Add(e.call, ew.encode(e)) }

// always writes an event that the bounds never drop (end, test).
func (ew *eventWriter) always(e recordEvent) { ew.w.Always(ew.encode(e)) }

// close flushes and closes the file.
func (ew *eventWriter) close() error { return ew.w.Close() }
