package dap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// TestHandlePanicFailsOnlyThatRequest serves two requests the way the
// built-in adapters do; the first handler panics. The panic must become a
// failed response with the stack logged, and the next request be served.
func TestHandlePanicFailsOnlyThatRequest(t *testing.T) {
	var in bytes.Buffer
	for i, cmd := range []string{"boom", "threads"} {
		body, _ := json.Marshal(map[string]any{"seq": i + 1, "type": "request", "command": cmd})
		if err := WriteFrame(&in, body); err != nil {
			t.Fatal(err)
		}
	}
	var out, logs bytes.Buffer
	c := NewServerConn(&out, "test adapter", slog.New(slog.NewTextHandler(&logs, nil)))
	r := bufio.NewReader(&in)
	for {
		req, err := c.ReadRequest(r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := c.Handle(req, func() (any, error) {
			if req.Command == "boom" {
				panic("handler bug")
			}
			return map[string]any{"threads": []any{}}, nil
		})
		if err != nil {
			c.Fail(req, err.Error())
			continue
		}
		c.Reply(req, body)
	}

	outR := bufio.NewReader(&out)
	var got []response
	for {
		body, err := ReadFrame(outR)
		if err != nil {
			break
		}
		var resp response
		if err := json.Unmarshal(body, &resp); err != nil {
			t.Fatal(err)
		}
		got = append(got, resp)
	}
	if len(got) != 2 {
		t.Fatalf("got %d responses, want 2: %+v", len(got), got)
	}
	if got[0].Success || !strings.Contains(got[0].Message, "internal error in the test adapter while handling boom: handler bug") {
		t.Errorf("the panicking request: %+v", got[0])
	}
	if !got[1].Success || got[1].Command != "threads" {
		t.Errorf("the next request: %+v", got[1])
	}
	if l := logs.String(); !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "server_test.go") {
		t.Errorf("the panic's stack is not in the error log:\n%s", l)
	}
}
