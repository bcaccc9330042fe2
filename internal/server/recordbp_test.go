package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// recordEvent is one line of a recording, decoded loosely.
type recordEvent map[string]any

func (e recordEvent) str(key string) string { s, _ := e[key].(string); return s }
func (e recordEvent) num(key string) int    { n, _ := e[key].(float64); return int(n) }

// args is a call event's arguments as name=value texts, in order.
func (e recordEvent) args() []string {
	raw, _ := e["args"].([]any)
	var out []string
	for _, a := range raw {
		pair, _ := a.([]any)
		if len(pair) == 2 {
			out = append(out, pair[0].(string)+"="+pair[1].(string))
		}
	}
	return out
}

// recording is a decoded recording with its calls by id.
type recording struct {
	events []recordEvent
	calls  map[int]recordEvent
}

// recordRun records program through a session of language and returns
// the recording, the result and the program's output.
func recordRun(t *testing.T, language string, cfg adapter.RecordConfig) (*recording, *adapter.RecordResult, string) {
	t.Helper()
	h := newHarness(t)
	id := h.sessionFor(language)
	sess, err := h.srv.sessions.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cfg.Output = &out
	cfg.EventsFile = filepath.Join(t.TempDir(), "events.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := sess.RecordByBreakpoints(ctx, cfg)
	if err != nil {
		t.Fatalf("RecordByBreakpoints: %v", err)
	}
	return readRecording(t, cfg.EventsFile), res, out.String()
}

func readRecording(t *testing.T, path string) *recording {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec := &recording{calls: map[int]recordEvent{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e recordEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		rec.events = append(rec.events, e)
		if e.str("k") == "call" {
			rec.calls[e.num("id")] = e
		}
	}
	return rec
}

// String is the recording as written, for failure messages.
func (r *recording) String() string {
	var b strings.Builder
	for _, e := range r.events {
		line, _ := json.Marshal(e)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func (r *recording) kind(k string) []recordEvent {
	var out []recordEvent
	for _, e := range r.events {
		if e.str("k") == k {
			out = append(out, e)
		}
	}
	return out
}

// ret is the ret event of call id, nil if none.
func (r *recording) ret(id int) recordEvent {
	for _, e := range r.kind("ret") {
		if e.num("id") == id {
			return e
		}
	}
	return nil
}

var _ = session.StateStopped

func TestRecordByBreakpointsGoCallsArgsAndReturns(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "record", "go", "cart")
	rec, res, out := recordRun(t, "go", adapter.RecordConfig{Program: dir, Cwd: dir})
	t.Logf("result %+v output %q\n%s", res, out, rec)
}
