package dap

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReadFrame feeds arbitrary bytes to ReadFrame until it fails. It must
// not panic, must return on every call (the input is finite), must never
// return more than MaxMessageSize bytes, and must fail only with io.EOF (at
// a message boundary), io.ErrUnexpectedEOF (inside a message) or
// ErrFraming. The input framed by AppendFrame must read back unchanged.
func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{
		"",
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 2\r\n\r\n{}Content-Length: 7\r\n\r\n{\"a\":1}",
		"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 1\r\n\r\nx",
		"\r\n\r\nContent-Length: 0\r\n\r\n\n",
		"content-length:3\n\nabc",
		"Content-Length: -1\r\n\r\n",
		"Content-Length: 67108865\r\n\r\n",
		"Content-Length: 67108864\r\n\r\n{}",
		"Content-Length: 99999999999999999999\r\n\r\n",
		"Content-Length: 10\r\n\r\nabc",
		"Content-Length: 2\r\n",
		"Content-Len",
		"garbage without any structure",
		"\x00\xff\r\r\r\n:\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := bytes.NewReader(data)
		r := bufio.NewReaderSize(src, 16) // small, so that refills happen everywhere
		for {
			start := len(data) - src.Len() - r.Buffered()
			body, err := ReadFrame(r)
			if len(body) > MaxMessageSize {
				t.Fatalf("body of %d bytes", len(body))
			}
			if err == nil {
				if end := len(data) - src.Len() - r.Buffered(); end <= start {
					t.Fatalf("a frame consumed no input at offset %d", start)
				}
				continue
			}
			if body != nil {
				t.Fatalf("body %q returned with error %v", body, err)
			}
			switch {
			case err == io.EOF:
				// Only blank lines may be left at a clean end.
				if rest := bytes.Trim(data[start:], "\r\n"); len(rest) > 0 {
					t.Fatalf("io.EOF with %q unread", data[start:])
				}
			case err == io.ErrUnexpectedEOF, errors.Is(err, ErrFraming):
			default:
				t.Fatalf("unexpected error %v", err)
			}
			break
		}

		framed := AppendFrame([]byte("\r\n"), data)
		r = bufio.NewReaderSize(bytes.NewReader(framed), 16)
		got, err := ReadFrame(r)
		if err != nil {
			t.Fatalf("reading back a frame of %d bytes: %v", len(data), err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("read back %q, wrote %q", got, data)
		}
		if _, err := ReadFrame(r); err != io.EOF {
			t.Fatalf("after the only frame: %v, want io.EOF", err)
		}
	})
}
