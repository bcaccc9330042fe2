package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// update rewrites the golden answers instead of comparing with them:
// go test ./internal/server -run Golden -update
var update = flag.Bool("update", false, "rewrite testdata/golden/*.json from the answers the Golden tests get")

// answer calls a tool and returns its text as the agent reads it, in the
// server's own field order, and whether it was an error.
func (h *harness) answer(tool string, args map[string]any) ([]byte, bool) {
	h.t.Helper()
	res, err := h.cs.CallTool(h.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		h.t.Fatalf("%s: %v", tool, err)
	}
	return []byte(res.Content[0].(*mcp.TextContent).Text), res.IsError
}

// golden calls a tool that must succeed and compares its scrubbed answer
// with testdata/golden/name.json. It returns the decoded answer for the
// test's own checks.
func (h *harness) golden(name, tool string, args map[string]any, s scrubber) result {
	h.t.Helper()
	return h.goldenAnswer(name, tool, args, s, false)
}

// goldenFailure is golden for a call that must fail.
func (h *harness) goldenFailure(name, tool string, args map[string]any, s scrubber) result {
	h.t.Helper()
	return h.goldenAnswer(name, tool, args, s, true)
}

func (h *harness) goldenAnswer(name, tool string, args map[string]any, s scrubber, wantError bool) result {
	h.t.Helper()
	text, isErr := h.answer(tool, args)
	if isErr != wantError {
		h.t.Fatalf("%s(%v): isError=%v, want %v: %s", tool, args, isErr, wantError, text)
	}
	var out result
	if err := json.Unmarshal(text, &out); err != nil {
		h.t.Fatalf("%s: the answer is not JSON: %v\n%s", tool, err, text)
	}
	wantGolden(h.t, name, s.scrub(h.t, text))
	return out
}

// wantGolden compares got with the golden file name.json, or rewrites the
// file under -update.
func wantGolden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join(repoRoot(t), "testdata", "golden", name+".json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the answer differs from %s (if the change is meant, rewrite it with -update):\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lineDiff lists the lines of want and got that differ, position by
// position, which is enough to point a reviewer at a changed field.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n- %s\n+ %s\n", i+1, wl, gl)
		}
	}
	return b.String()
}

// scrubber replaces what varies from run to run or machine to machine in an
// answer with placeholders, so that a golden file holds only what the code
// decides.
type scrubber struct {
	// literals maps texts (a session id, the repository's path) to their
	// placeholders, wherever they appear in a string.
	literals map[string]string
	// keys are the fields whose values vary (the runtime found on this
	// machine, pids, ports, an adapter's variable references): each value
	// becomes "<key>".
	keys []string
	// only, when set, keeps the elements of the answer's list field
	// only.field whose "id" is only.id (one language of several).
	only *struct{ field, id string }
}

// newScrubber scrubs the repository's path, the given session ids and the
// fields that vary on every adapter.
func newScrubber(t testing.TB, sessionIDs ...string) scrubber {
	root := filepath.Clean(repoRoot(t))
	s := scrubber{literals: map[string]string{root: "<repo>"}, keys: []string{"runtime", "pid", "port"}}
	for i, id := range sessionIDs {
		s.literals[id] = fmt.Sprintf("<session%d>", i+1)
	}
	return s
}

// scrub decodes text keeping its field order, replaces what varies and
// pretty-prints it.
func (s scrubber) scrub(t testing.TB, text []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		t.Fatalf("decode %s: %v", text, err)
	}
	v = s.walk(v, "")
	if s.only != nil {
		v = s.keepOnly(v)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", "  ")
	// As the server writes answers: "<module>" stays readable.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func (s scrubber) walk(v any, key string) any {
	for _, k := range s.keys {
		if k == key {
			return "<" + key + ">"
		}
	}
	switch v := v.(type) {
	case orderedObject:
		for i := range v {
			v[i].Value = s.walk(v[i].Value, v[i].Key)
		}
		return v
	case []any:
		for i := range v {
			v[i] = s.walk(v[i], "")
		}
		return v
	case string:
		for lit, placeholder := range s.literals {
			v = strings.ReplaceAll(v, lit, placeholder)
		}
		return v
	}
	return v
}

func (s scrubber) keepOnly(v any) any {
	obj, ok := v.(orderedObject)
	if !ok {
		return v
	}
	for i, m := range obj {
		list, ok := m.Value.([]any)
		if m.Key != s.only.field || !ok {
			continue
		}
		var kept []any
		for _, item := range list {
			if o, ok := item.(orderedObject); ok && o.get("id") == s.only.id {
				kept = append(kept, item)
			}
		}
		obj[i].Value = kept
	}
	return obj
}

// orderedObject is a JSON object that keeps its fields' order, as the
// server wrote them.
type orderedObject []member

type member struct {
	Key   string
	Value any
}

func (o orderedObject) get(key string) any {
	for _, m := range o {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// MarshalJSON writes the fields in their order.
func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.Key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Encode(m.Value); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// decodeOrdered reads one JSON value: objects as orderedObject, numbers as
// json.Number (written back as they came).
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var obj orderedObject
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{Key: key.(string), Value: v})
		}
		_, err := dec.Token()
		return obj, err
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	case json.Delim('}'), json.Delim(']'):
		return nil, errors.New("unexpected end of a JSON value")
	}
	return tok, nil
}

// TestGoldenMock keeps the answers an agent reads on the mock adapter: a
// breakpoint set, a stop, a step, a wrong call, an answer cut to
// maxBytes, a trace, the mock's language entry.
func TestGoldenMock(t *testing.T) {
	h := newHarness(t)
	prog := mockProgram(t, "basic.mock")

	langs := newScrubber(t)
	langs.only = &struct{ field, id string }{"languages", "mock"}
	h.golden("list_supported_languages.mock", "list_supported_languages", nil, langs)

	id := h.session()
	s := newScrubber(t, id)
	h.golden("set_breakpoint.mock", "set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 2}, s)
	wantStop(t, h.golden("start_debugging.mock", "start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}, s), "breakpoint", 2)
	wantStop(t, h.golden("step_over.mock", "step_over", map[string]any{"sessionId": id}, s), "step", 3)

	h.goldenFailure("failure.mock", "set_breakpoint", map[string]any{"sessionId": id, "file": prog}, s)
	h.ok("close_debug_session", map[string]any{"sessionId": id})

	flood := h.session()
	s = newScrubber(t, flood)
	cut := h.golden("budget_cut.mock", "start_debugging", map[string]any{"sessionId": flood, "scriptPath": mockProgram(t, "flood.mock"), "maxBytes": 1000}, s)
	if cut["budget"] == nil {
		t.Errorf("50 MB of output pass maxBytes 1000: the answer should say what it left out: %v", cut)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": flood})

	traced := h.session()
	s = newScrubber(t, traced)
	h.ok("set_breakpoint", map[string]any{"sessionId": traced, "file": prog, "line": 13, "collect": []string{"i", "w"}})
	h.ok("trace_function", map[string]any{"sessionId": traced, "function": "weigh"})
	if end := h.ok("start_debugging", map[string]any{"sessionId": traced, "scriptPath": prog}); end.str("state") != "stopped" {
		t.Fatalf("tracepoints never stop the program: %v", end)
	}
	h.golden("get_trace.mock", "get_trace", map[string]any{"sessionId": traced}, s)
}

// TestGoldenPython keeps the same answers on debugpy, whose answers about
// a small program are stable, and debug_test's on pytest.
func TestGoldenPython(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("python")
	prog := pythonProgram(t, "lines.py")
	s := debugpyScrubber(t, id)
	h.golden("set_breakpoint.python", "set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 8}, s)
	wantStop(t, h.golden("start_debugging.python", "start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}, s), "breakpoint", 8)
	h.ok("remove_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 8})
	wantStop(t, h.golden("step_over.python", "step_over", map[string]any{"sessionId": id}, s), "step", 7)
	h.goldenFailure("failure.python", "evaluate_expression", map[string]any{"sessionId": id, "expression": "nosuch + 1"}, s)
	h.ok("close_debug_session", map[string]any{"sessionId": id})

	wide := h.sessionFor("python")
	s = debugpyScrubber(t, wide)
	h.ok("set_breakpoint", map[string]any{"sessionId": wide, "file": pythonProgram(t, "wide.py"), "line": 10})
	wantStop(t, h.ok("start_debugging", map[string]any{"sessionId": wide, "scriptPath": pythonProgram(t, "wide.py")}), "breakpoint", 10)
	if cut := h.golden("budget_cut.python", "wait_for_stop", map[string]any{"sessionId": wide, "maxBytes": 1000}, s); cut["budget"] == nil {
		t.Errorf("five locals of 150 characters pass maxBytes 1000: the answer should say what it left out: %v", cut)
	}
	h.ok("close_debug_session", map[string]any{"sessionId": wide})

	traced := h.sessionFor("python")
	s = debugpyScrubber(t, traced)
	h.ok("set_breakpoint", map[string]any{"sessionId": traced, "file": prog, "line": 10, "collect": []string{"total"}})
	h.ok("trace_function", map[string]any{"sessionId": traced, "function": "scale"})
	if end := h.ok("start_debugging", map[string]any{"sessionId": traced, "scriptPath": prog}); end.str("state") != "stopped" {
		t.Fatalf("tracepoints never stop the program: %v", end)
	}
	h.golden("get_trace.python", "get_trace", map[string]any{"sessionId": traced}, s)
	h.ok("close_debug_session", map[string]any{"sessionId": traced})

	s = debugpyScrubber(t)
	// debug_test creates its session: the id is only known from its answer.
	s.keys = append(s.keys, "sessionId")
	res := h.golden("debug_test.python", "debug_test", map[string]any{"language": "python", "path": pythonProgram(t, filepath.Join("tests", "test_cart.py"))}, s)
	wantStop(t, res, "exception", 15)
}

// debugpyScrubber also scrubs variable references, which debugpy numbers
// as it pleases.
func debugpyScrubber(t testing.TB, sessionIDs ...string) scrubber {
	s := newScrubber(t, sessionIDs...)
	s.keys = append(s.keys, "variablesReference")
	return s
}
