// Package recording reads a recording (docs/recording-format.md) and
// answers questions about it: the report of how the run ended and the
// queries of query_recording. The events file is the store: opening a
// recording reads it once, keeping an index of the calls (where each one's
// events lie in the file) and what the report needs; values are read back
// from the file when a query asks for them.
package recording

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxEventLine bounds one event's line: values are cut by the recorder, so
// only a call with very many arguments comes near it.
const maxEventLine = 4 << 20

// event is one line of the file, with the fields of every kind.
type event struct {
	K       string          `json:"k"`
	T       int64           `json:"t"`
	ID      int             `json:"id"`
	P       int             `json:"p"`
	Th      json.RawMessage `json:"th"`
	Fn      string          `json:"fn"`
	File    string          `json:"file"`
	Line    int             `json:"line"`
	Args    [][]string      `json:"args"`
	V       *string         `json:"v"`
	Type    string          `json:"type"`
	Msg     string          `json:"msg"`
	Raised  bool            `json:"raised"`
	N       json.RawMessage `json:"n"`
	First   int             `json:"first"`
	Last    int             `json:"last"`
	Name    string          `json:"name"`
	Outcome string          `json:"outcome"`
	Exit    *int            `json:"exit"`
	Cwd     string          `json:"cwd"`
	Argv    []string        `json:"argv"`
	Runtime string          `json:"runtime"`
	Lang    string          `json:"lang"`
}

// span is where an event's line lies in the file.
type span struct {
	off int64
	n   int32
}

// Call is one recorded call of a user function, as the index keeps it.
type Call struct {
	ID, Parent int
	Fn         string
	File       string
	Line       int
	thread     string
	start, end span
	// Unwound: the call ended by an exception (ExcType), not a return.
	Unwound bool
	ExcType string
}

// Ended reports whether the recording holds the call's end.
func (c *Call) Ended() bool { return c.end.n > 0 }

// Test is a test that ended, from a test event.
type Test struct {
	Name    string `json:"name"`
	Outcome string `json:"outcome"`
	Msg     string `json:"msg,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
}

// Recording is an opened recording: its index, and the file it reads
// values from.
type Recording struct {
	path    string
	Lang    string
	Cwd     string
	Argv    []string
	Runtime string
	// Events counts the events in the file; Dropped those the recorder
	// left out at maxEvents (a gap event).
	Events, Dropped int
	calls           map[int]*Call
	ids             []int
	byFn            map[string][]int
	// hasLines: the functions whose lines were recorded.
	hasLines map[string]bool
	Tests    []Test
	// Ended says the recording has its end event: the program was not
	// killed past its recorder. Exit is the program's exit code, nil when
	// there is no end or a signal ended the program (no code then).
	Ended bool
	// Unwritable, when set, is why the recording could not be written
	// whole ("no space left on device in /tmp/…"): the outcome says it
	// rather than blaming the program.
	Unwritable    string
	Exit          *int
	EndType       string
	EndMsg        string
	failure       *exception
	catches       []caught
	catchCount    int
	lastEnded     []int
	durationNanos int64
	// gapFirst and gapLast are the lowest and highest call ids whose
	// events were dropped.
	gapFirst int
	gapLast  int
}

// Open reads the recording at path and indexes it.
func Open(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	r := &Recording{path: path, calls: map[int]*Call{}, byFn: map[string][]int{}, hasLines: map[string]bool{}}
	ix := newIndexer(r)
	err = scanEvents(f, func(e *event, at span) error {
		ix.add(e, at)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read recording %s: %w", filepath.Base(path), err)
	}
	ix.finish()
	return r, nil
}

// scanEvents decodes the file's events in order, with where each lies.
func scanEvents(rd io.Reader, each func(*event, span) error) error {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64<<10), maxEventLine)
	var off int64
	for sc.Scan() {
		line := sc.Bytes()
		at := span{off: off, n: int32(len(line))}
		off += int64(len(line)) + 1
		if len(line) == 0 {
			continue
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			// A recorder killed mid-write leaves half a line at the end.
			continue
		}
		if err := each(&e, at); err != nil {
			return err
		}
	}
	return sc.Err()
}

// readEvent reads back the event at a span.
func (r *Recording) readEvent(f *os.File, at span) (*event, error) {
	buf := make([]byte, at.n)
	if _, err := f.ReadAt(buf, at.off); err != nil {
		return nil, fmt.Errorf("read recording: %w", err)
	}
	var e event
	if err := json.Unmarshal(buf, &e); err != nil {
		return nil, fmt.Errorf("read recording: %w", err)
	}
	return &e, nil
}

// Call returns a call by id.
func (r *Recording) Call(id int) (*Call, bool) {
	c, ok := r.calls[id]
	return c, ok
}

// CallCount is how many calls the recording holds.
func (r *Recording) CallCount() int { return len(r.ids) }

// DurationMs is how long the recorded run took, by its events' times.
func (r *Recording) DurationMs() float64 { return float64(r.durationNanos) / 1e6 }

// functions returns the recorded function names that fn names: the
// qualified name itself, or one that ends in "."+fn or "::"+fn
// (discount_rate names pricing.discount_rate, Item.__init__ names
// pricing.Item.__init__, price names shop::price).
func (r *Recording) functions(fn string) []string {
	if _, ok := r.byFn[fn]; ok {
		return []string{fn}
	}
	var out []string
	for name := range r.byFn {
		if strings.HasSuffix(name, "."+fn) || strings.HasSuffix(name, "::"+fn) {
			out = append(out, name)
		}
	}
	return out
}

// shortPath shows a file relative to the run's directory when under it.
func (r *Recording) shortPath(file string) string {
	if r.Cwd == "" {
		return file
	}
	if rel, err := filepath.Rel(r.Cwd, file); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return file
}
