package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/recording"
)

// Recorded is a recorded run the session keeps until it closes.
type Recorded struct {
	ID     string
	Result adapter.RecordResult
	// Config is how the run was made: stopAt runs the same program again.
	Config adapter.RecordConfig
	// Elapsed is how long the recorded run took, start to end.
	Elapsed time.Duration
	*recording.Recording
}

// recordings are a session's recorded runs: their files live in a
// temporary directory of the session's, removed when it closes.
type recordings struct {
	mu   sync.Mutex
	dir  string
	byID map[string]*Recorded
	n    int
}

// Record runs cfg's program under the language's recorder and opens the
// recording. The program's output goes to the session's output buffer.
func (s *Session) Record(ctx context.Context, cfg adapter.RecordConfig) (*Recorded, error) {
	run, err := s.recorderFor()
	if err != nil {
		return nil, err
	}
	id, file, err := s.recs.newFile()
	if err != nil {
		return nil, err
	}
	cfg.EventsFile = file
	if !run.inSession {
		cfg.Output = outputWriter{s.out}
	}
	cfg.Logger = s.log
	began := time.Now()
	res, err := run.record(ctx, cfg)
	if err != nil {
		return nil, err
	}
	r, err := recording.Open(file)
	if err != nil {
		return nil, err
	}
	if !r.Ended {
		r.Unwritable = diskFullNote(filepath.Dir(file))
	}
	done := &Recorded{ID: id, Result: *res, Config: cfg, Elapsed: time.Since(began), Recording: r}
	s.recs.mu.Lock()
	s.recs.byID[id] = done
	s.recs.mu.Unlock()
	return done, nil
}

// Recorded finds one of the session's recordings.
func (s *Session) Recorded(id string) (*Recorded, bool) {
	s.recs.mu.Lock()
	defer s.recs.mu.Unlock()
	r, ok := s.recs.byID[id]
	return r, ok
}

// newFile names the next recording (a random id, unique across sessions)
// and its file, making the directory on first use.
func (rs *recordings) newFile() (id, file string, err error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.dir == "" {
		if rs.dir, err = proc.MkdirTemp("record"); err != nil {
			return "", "", fmt.Errorf("recording: %w", err)
		}
		rs.byID = map[string]*Recorded{}
	}
	rs.n++
	// The id is the recording's only name, and over HTTP other clients
	// list the sessions: nothing in it derives from the session's id.
	var random [16]byte
	if _, err := rand.Read(random[:]); err != nil {
		return "", "", fmt.Errorf("recording: naming it: %w", err)
	}
	id = "rec-" + hex.EncodeToString(random[:])
	return id, filepath.Join(rs.dir, fmt.Sprintf("%d.jsonl", rs.n)), nil
}

// remove deletes the recordings' files.
func (rs *recordings) remove() {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.dir != "" {
		os.RemoveAll(rs.dir)
		rs.dir, rs.byID = "", nil
	}
}

// outputWriter appends a recorded program's output to the session's.
type outputWriter struct{ b *OutputBuffer }

func (w outputWriter) Write(p []byte) (int, error) {
	w.b.Append("stdout", string(p))
	return len(p), nil
}

// recorder is how a session's language records a run.
type recorder struct {
	record func(context.Context, adapter.RecordConfig) (*adapter.RecordResult, error)
	// inSession is a recording made by this session's own debugger: the
	// program's output reaches the session's output already, and routing
	// it there again would copy each copy anew, without end.
	inSession bool
}

// recorderFor picks how this session's language records: in the
// program's own process where its adapter has a recorder (Python,
// JavaScript, the JVM), through breakpoints for Go, C, C++ and Rust.
func (s *Session) recorderFor() (recorder, error) {
	if rec, ok := s.adapter.(adapter.Recorder); ok {
		return recorder{record: rec.Record}, nil
	}
	if recordsByBreakpoints(s.Language.ID) {
		return recorder{record: s.RecordByBreakpoints, inSession: true}, nil
	}
	return recorder{}, errorf("record works for Python, JavaScript, Java, Go, C, C++ and Rust; here use trace_function (calls with arguments and returns) or tracepoints",
		"%s has no recorder", s.Language.ID)
}

// recordsByBreakpoints reports the languages RecordByBreakpoints records.
func recordsByBreakpoints(language string) bool {
	switch language {
	case "go", "c", "cpp", "rust":
		return true
	}
	return false
}
