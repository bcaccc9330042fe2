package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
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

// decodedRecording is a recording with its calls by id.
type decodedRecording struct {
	events []recordEvent
	calls  map[int]recordEvent
}

// recordRun records program through a session of language and returns
// the recording, the result and the program's output.
func recordRun(t *testing.T, language string, cfg adapter.RecordConfig) (*decodedRecording, *adapter.RecordResult, string) {
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

func readRecording(t *testing.T, path string) *decodedRecording {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec := &decodedRecording{calls: map[int]recordEvent{}}
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
func (r *decodedRecording) String() string {
	var b strings.Builder
	for _, e := range r.events {
		line, _ := json.Marshal(e)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func (r *decodedRecording) kind(k string) []recordEvent {
	var out []recordEvent
	for _, e := range r.events {
		if e.str("k") == k {
			out = append(out, e)
		}
	}
	return out
}

// ret is the ret event of call id, nil if none.
func (r *decodedRecording) ret(id int) recordEvent {
	for _, e := range r.kind("ret") {
		if e.num("id") == id {
			return e
		}
	}
	return nil
}

// callLine is a call as the tests compare it: function, parent's
// function, arguments and the return value with its line.
func (r *decodedRecording) callLine(c recordEvent) string {
	parent := "-"
	if p, ok := r.calls[c.num("p")]; ok {
		parent = p.str("fn")
	}
	ret := r.ret(c.num("id"))
	v, _ := ret["v"].(string)
	return fmt.Sprintf("%s<-%s(%s)=%s@%d", c.str("fn"), parent, strings.Join(c.args(), ","), v, ret.num("line"))
}

func goCartDir(t *testing.T) string {
	return filepath.Join(repoRoot(t), "testdata", "record", "go", "cart")
}

// A wrong total: the recording shows each call with its arguments and
// parent, and the return values with the return statement's line, down
// to discount's 11 returned from line 25.
func TestRecordByBreakpointsGoCallsArgsAndReturns(t *testing.T) {
	dir := goCartDir(t)
	rec, res, out := recordRun(t, "go", adapter.RecordConfig{Program: dir, Cwd: dir})
	if out != "total 99\n" || res.ExitCode != 0 {
		t.Errorf("the program's output and exit should be unchanged: %q, %d", out, res.ExitCode)
	}
	var got []string
	for _, c := range rec.kind("call") {
		got = append(got, rec.callLine(c))
	}
	want := []string{
		"main.main<--()=@54",
		`main.(*Cart).Total<-main.main(c=Cart#1{Items=[…+2]})=99@45`,
		`main.price<-main.(*Cart).Total(it=Item#2{Name="pen", Price=3, Qty=10})=30@34`,
		`main.price<-main.(*Cart).Total(it=Item#3{Name="book", Price=40, Qty=2})=80@34`,
		"main.discount<-main.(*Cart).Total(total=110)=11@25",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("calls:\n%s\nwant:\n%s\nrecording:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), rec)
	}
	if end := rec.kind("end"); len(end) != 1 || end[0].num("exit") != 0 {
		t.Errorf("end: %v", end)
	}
}

// A panic: the exc event is raised in price at the panic's line, goes
// through Total and main, and the end names it.
func TestRecordByBreakpointsGoPanic(t *testing.T) {
	dir := goCartDir(t)
	rec, res, _ := recordRun(t, "go", adapter.RecordConfig{Program: dir, Cwd: dir, Args: []string{"panic"}})
	excs := rec.kind("exc")
	if len(excs) != 3 || !excs[0]["raised"].(bool) || rec.calls[excs[0].num("id")].str("fn") != "main.price" || excs[0].num("line") != 32 ||
		!strings.Contains(excs[0].str("msg"), "bad quantity -1 for ink") || excs[1].num("line") != 41 || excs[2].num("line") != 53 {
		t.Fatalf("exc events: %v\nrecording:\n%s", excs, rec)
	}
	if len(rec.kind("unwind")) != 3 || res.ExitCode != 2 {
		t.Errorf("unwinds %v, exit %d", rec.kind("unwind"), res.ExitCode)
	}
	if end := rec.kind("end"); len(end) != 1 || !strings.Contains(end[0].str("msg"), "bad quantity") {
		t.Errorf("end: %v", end)
	}
}
