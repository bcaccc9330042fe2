package dap

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func reader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

// readAll reads frames until an error and returns the bodies and that error.
func readAll(r *bufio.Reader) ([]string, error) {
	var bodies []string
	for {
		body, err := ReadFrame(r)
		if err != nil {
			return bodies, err
		}
		bodies = append(bodies, string(body))
	}
}

func TestFrameRoundTrip(t *testing.T) {
	big := bytes.Repeat([]byte(`{"x":"0123456789abcdef"}`), 10000) // larger than any bufio buffer
	bodies := [][]byte{
		{},
		[]byte(`{}`),
		[]byte(`{"seq":1,"type":"request","command":"initialize"}`),
		[]byte("line\r\nbreaks\n\r\n\r\ninside"),
		[]byte("Content-Length: 3\r\n\r\nabc"), // a frame inside a body is just bytes
		{0, 0xff, 0xfe, '\n'},
		big,
	}
	var buf bytes.Buffer
	for _, b := range bodies {
		if err := WriteFrame(&buf, b); err != nil {
			t.Fatal(err)
		}
	}
	r := bufio.NewReaderSize(&buf, 16) // smallest buffer: every path that refills is exercised
	for i, want := range bodies {
		got, err := ReadFrame(r)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("frame %d: got %d bytes %.40q, want %d bytes %.40q", i, len(got), got, len(want), want)
		}
	}
	if _, err := ReadFrame(r); err != io.EOF {
		t.Fatalf("after the last frame: got %v, want io.EOF", err)
	}
}

func TestAppendFrame(t *testing.T) {
	got := AppendFrame([]byte("prefix|"), []byte(`{"a":1}`))
	want := "prefix|Content-Length: 7\r\n\r\n{\"a\":1}"
	if string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

type countingWriter struct {
	writes int
	buf    bytes.Buffer
	err    error
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.err != nil {
		return 0, w.err
	}
	return w.buf.Write(p)
}

func TestWriteFrameSingleWrite(t *testing.T) {
	w := &countingWriter{}
	if err := WriteFrame(w, []byte(`{"seq":1}`)); err != nil {
		t.Fatal(err)
	}
	if w.writes != 1 {
		t.Fatalf("WriteFrame used %d writes, want 1", w.writes)
	}
	if got, want := w.buf.String(), "Content-Length: 9\r\n\r\n{\"seq\":1}"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	boom := errors.New("boom")
	if err := WriteFrame(&countingWriter{err: boom}, []byte("x")); !errors.Is(err, boom) {
		t.Fatalf("write error: got %v, want %v", err, boom)
	}
}

func TestReadFrameHeaders(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"content type first", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}", "{}"},
		{"content type last", "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}", "{}"},
		{"unknown headers", "X-A: 1\r\nContent-Length: 2\r\nX-B: :::\r\n\r\n{}", "{}"},
		{"case insensitive", "content-length: 2\r\n\r\n{}", "{}"},
		{"no space", "Content-Length:2\r\n\r\n{}", "{}"},
		{"padded", "  Content-Length  :   2  \r\n\r\n{}", "{}"},
		{"bare newlines", "Content-Length: 2\n\n{}", "{}"},
		{"zero length", "Content-Length: 0\r\n\r\n", ""},
		{"empty header value", "X-Empty:\r\nContent-Length: 1\r\n\r\nx", "x"},
		{"long header under the limit", "X-Long: " + strings.Repeat("v", maxHeaderLine-20) + "\r\nContent-Length: 1\r\n\r\nx", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, size := range []int{16, 4096} {
				r := bufio.NewReaderSize(strings.NewReader(tt.in), size)
				body, err := ReadFrame(r)
				if err != nil {
					t.Fatalf("buffer %d: %v", size, err)
				}
				if string(body) != tt.want {
					t.Fatalf("buffer %d: got %q, want %q", size, body, tt.want)
				}
				if _, err := ReadFrame(r); err != io.EOF {
					t.Fatalf("buffer %d: after the frame: got %v, want io.EOF", size, err)
				}
			}
		})
	}
}

func TestReadFrameStrayBlankLines(t *testing.T) {
	in := "\r\n\n\r\nContent-Length: 2\r\n\r\n{}\r\n\r\nContent-Length: 2\r\n\r\n[]\n\r\n"
	bodies, err := readAll(reader(in))
	if err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
	if len(bodies) != 2 || bodies[0] != "{}" || bodies[1] != "[]" {
		t.Fatalf("got %q, want [{} []]", bodies)
	}
}

func TestReadFrameEOF(t *testing.T) {
	tests := []struct {
		name, in string
		want     error
	}{
		{"empty stream", "", io.EOF},
		{"only blank lines", "\r\n\r\n\n", io.EOF},
		{"truncated body", "Content-Length: 10\r\n\r\nabc", io.ErrUnexpectedEOF},
		{"no body", "Content-Length: 10\r\n\r\n", io.ErrUnexpectedEOF},
		{"truncated header line", "Content-Len", io.ErrUnexpectedEOF},
		{"header without terminator", "Content-Length: 2", io.ErrUnexpectedEOF},
		{"headers without blank line", "Content-Length: 2\r\n", io.ErrUnexpectedEOF},
		{"two headers without blank line", "Content-Type: x\r\nContent-Length: 2\r\n", io.ErrUnexpectedEOF},
		{"half a line break", "Content-Length: 2\r\n\r", io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadFrame(reader(tt.in))
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestReadFrameFramingErrors(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"missing content length", "Content-Type: application/json\r\n\r\n{}"},
		{"negative", "Content-Length: -1\r\n\r\n{}"},
		{"non numeric", "Content-Length: abc\r\n\r\n{}"},
		{"empty", "Content-Length: \r\n\r\n{}"},
		{"hex", "Content-Length: 0x10\r\n\r\n{}"},
		{"float", "Content-Length: 2.0\r\n\r\n{}"},
		{"exponent", "Content-Length: 1e3\r\n\r\n{}"},
		{"over the limit", "Content-Length: " + strconv.Itoa(MaxMessageSize+1) + "\r\n\r\n{}"},
		{"huge", "Content-Length: 9223372036854775807\r\n\r\n{}"},
		{"overflow", "Content-Length: 99999999999999999999999999\r\n\r\n{}"},
		{"no colon", "Content-Length 2\r\n\r\n{}"},
		{"json without headers", "{\"seq\":1}\r\n\r\n"},
		{"too many headers", strings.Repeat("X: y\r\n", 100) + "Content-Length: 2\r\n\r\n{}"},
		{"long line", "X-Long: " + strings.Repeat("v", maxHeaderLine) + "\r\nContent-Length: 1\r\n\r\nx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, size := range []int{16, 4096} {
				body, err := ReadFrame(bufio.NewReaderSize(strings.NewReader(tt.in), size))
				if !errors.Is(err, ErrFraming) {
					t.Fatalf("buffer %d: got body %q, err %v; want ErrFraming", size, body, err)
				}
			}
		})
	}
}

// endless is an infinite stream of one byte.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// A line break that never comes must not make ReadFrame read (or buffer)
// without end. (The stream is capped so that a missing limit fails the test
// instead of exhausting memory.)
func TestReadFrameEndlessHeaderLine(t *testing.T) {
	for _, size := range []int{16, 4096, 64 << 10} {
		_, err := ReadFrame(bufio.NewReaderSize(io.LimitReader(endless('a'), 64<<20), size))
		if !errors.Is(err, ErrFraming) {
			t.Fatalf("buffer %d: got %v, want ErrFraming", size, err)
		}
	}
	// Endless blank lines are a legitimate (if silly) stream: each one is
	// consumed, and the reader must still end at EOF.
	r := bufio.NewReader(io.LimitReader(endless('\n'), 1<<20))
	if _, err := ReadFrame(r); err != io.EOF {
		t.Fatalf("blank lines: got %v, want io.EOF", err)
	}
}

// allocatedBy reports the bytes allocated while f runs.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A length that is refused, or that the stream does not back with bytes,
// must not cost its size in memory.
func TestReadFrameDoesNotAllocateClaimedLength(t *testing.T) {
	const budget = 8 << 20
	tests := []struct {
		name, in string
		want     error
	}{
		{"over the limit", "Content-Length: " + strconv.Itoa(MaxMessageSize+1) + "\r\n\r\n{}", ErrFraming},
		{"huge", "Content-Length: 9223372036854775807\r\n\r\n{}", ErrFraming},
		{"at the limit, truncated", "Content-Length: " + strconv.Itoa(MaxMessageSize) + "\r\n\r\n{}", io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			n := allocatedBy(func() { _, err = ReadFrame(reader(tt.in)) })
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if n > budget {
				t.Fatalf("allocated %d bytes for a %d byte stream", n, len(tt.in))
			}
		})
	}
}

// A message at exactly MaxMessageSize is accepted.
func TestReadFrameAtLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 128 MiB")
	}
	body := bytes.Repeat([]byte{'x'}, MaxMessageSize)
	got, err := ReadFrame(bufio.NewReader(bytes.NewReader(AppendFrame(nil, body))))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, body) {
		t.Fatal("body differs")
	}
}

func TestTruncate(t *testing.T) {
	if got := truncate("short", 64); got != "short" {
		t.Fatalf("got %q", got)
	}
	if got := truncate(strings.Repeat("a", 100), 10); got != strings.Repeat("a", 10)+"…" {
		t.Fatalf("got %q", got)
	}
	// Cutting inside a multi-byte rune must still give valid UTF-8.
	got := truncate(strings.Repeat("é", 10), 5)
	if !isValidUTF8(got) {
		t.Fatalf("got invalid UTF-8 %q", got)
	}
	if got := truncate("a\xffb", 64); got != "a?b" {
		t.Fatalf("got %q", got)
	}
}

func isValidUTF8(s string) bool { return strings.ToValidUTF8(s, "\x00") == s }
