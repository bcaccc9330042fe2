package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// lines reads every line of in with the given limit; a line over it shows
// as "<too long>".
func lines(t testing.TB, in []byte, limit int) []string {
	t.Helper()
	lr := NewLineReader(bytes.NewReader(in), limit)
	var out []string
	for {
		l, err := lr.Next()
		var tooLong *LineTooLongError
		switch {
		case errors.As(err, &tooLong):
			out = append(out, "<too long>")
		case errors.Is(err, io.EOF):
			return out
		case err != nil:
			t.Fatalf("Next: %v", err)
		default:
			if len(l) > limit || bytes.ContainsRune(l, '\n') {
				t.Fatalf("line %q breaks the limit %d or holds a newline", l, limit)
			}
			out = append(out, string(l))
		}
	}
}

func TestLineReaderBoundsAndResumes(t *testing.T) {
	in := "short\r\n" + strings.Repeat("x", 100) + "\nafter\n\nlast"
	got := strings.Join(lines(t, []byte(in), 10), "|")
	if want := "short|<too long>|after||last"; got != want {
		t.Errorf("lines = %q, want %q", got, want)
	}
}

func TestDecodeRejections(t *testing.T) {
	for _, tc := range []struct {
		line string
		code int64
		id   string
	}{
		{`{bad json`, jsonrpc.CodeParseError, "null"},
		{"\xff\xfe\x00", jsonrpc.CodeParseError, "null"},
		{`null`, jsonrpc.CodeInvalidRequest, "null"},
		{`[]`, jsonrpc.CodeInvalidRequest, "null"},
		{`42`, jsonrpc.CodeInvalidRequest, "null"},
		{`{"id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":5}`, jsonrpc.CodeInvalidRequest, "null"},
	} {
		msg, rej := Decode([]byte(tc.line))
		if rej == nil {
			t.Errorf("%q: accepted as %T", tc.line, msg)
			continue
		}
		if rej.Code != tc.code || string(rej.ID) != tc.id {
			t.Errorf("%q: code %d id %s, want %d %s", tc.line, rej.Code, rej.ID, tc.code, tc.id)
		}
	}
	if msg, rej := Decode([]byte(` {"jsonrpc":"2.0","id":1,"method":"ping"} `)); rej != nil || msg == nil {
		t.Errorf("a valid request: %v, %v", msg, rej)
	}
	if msg, rej := Decode([]byte("  ")); rej != nil || msg != nil {
		t.Errorf("a blank line: %v, %v", msg, rej)
	}
}

// FuzzLineFraming checks that no input makes the line reader exceed its
// bound or the validator panic, and that every rejection is a well-formed
// JSON-RPC error response.
func FuzzLineFraming(f *testing.F) {
	for _, s := range []string{
		"{bad json\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", "null\n[]\n42\n",
		"\xff\xfe\x00\n", `{"id":7}` + "\r\n", strings.Repeat("y", 300) + "\nok\n", "",
	} {
		f.Add([]byte(s), uint8(64))
	}
	f.Fuzz(func(t *testing.T, in []byte, limit uint8) {
		for _, l := range lines(t, in, int(limit)+1) {
			msg, rej := Decode([]byte(l))
			if rej == nil {
				continue
			}
			if msg != nil {
				t.Fatalf("%q: both a message and a rejection", l)
			}
			if rej.Code != jsonrpc.CodeParseError && rej.Code != jsonrpc.CodeInvalidRequest {
				t.Fatalf("%q: code %d", l, rej.Code)
			}
			body, err := json.Marshal(rej.response())
			if err != nil || !json.Valid(body) {
				t.Fatalf("%q: response %s: %v", l, body, err)
			}
		}
	})
}

func TestCancelledRequestIsNotAnswered(t *testing.T) {
	inR, inW := io.Pipe()
	var out bytes.Buffer
	conn, err := (&Transport{In: inR, Out: &out}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	go func() {
		// Calls before initialize are refused by the transport itself.
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`)
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`)
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{}}`)
		fmt.Fprintln(inW, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	}()
	for range 4 {
		if _, err := conn.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []any{float64(1), "1"} {
		rid, _ := jsonrpc.MakeID(id)
		if err := conn.Write(ctx, &jsonrpc.Response{ID: rid, Result: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.TrimSpace(out.String()); got != `{"jsonrpc":"2.0","id":"1","result":{}}` {
		t.Errorf("only the answer to the request \"1\" (not cancelled) should be written, got %q", got)
	}
}
