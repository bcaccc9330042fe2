package java

import (
	"encoding/json"
	"fmt"

	recordfile "github.com/mcp-debugger/mcp-debugger/internal/recording"
)

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
	Exit    *int       `json:"exit,omitempty"`
	Name    string     `json:"name,omitempty"`
	Outcome string     `json:"outcome,omitempty"`
}

// eventLog encodes a recording's events for the shared writer, which
// keeps them within docs/recording-format.md's bounds.
type eventLog struct {
	w   *recordfile.Writer
	err error
}

// newEventLog creates the recording file.
func newEventLog(path string, maxEvents int) (*eventLog, error) {
	w, err := recordfile.Create(path, maxEvents)
	if err != nil {
		return nil, err
	}
	return &eventLog{w: w}, nil
}

// add records an event, stamping its time.
func (l *eventLog) add(e recEvent) {
	e.T = l.w.Now()
	if b, ok := l.encode(e); ok {
		l.w.Add(e.ID, b)
	}
}

// always writes an event that the bound never holds back (test, end).
func (l *eventLog) always(e recEvent) {
	e.T = l.w.Now()
	if b, ok := l.encode(e); ok {
		l.w.Always(b)
	}
}

func (l *eventLog) encode(e recEvent) ([]byte, bool) {
	b, err := json.Marshal(e)
	if err != nil && l.err == nil {
		l.err = fmt.Errorf("encoding a %s event: %w", e.K, err)
	}
	return b, err == nil
}

// close writes what is buffered and closes the file.
func (l *eventLog) close() error {
	if err := l.w.Close(); err != nil {
		return err
	}
	return l.err
}
