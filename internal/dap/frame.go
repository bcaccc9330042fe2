// Package dap is a Debug Adapter Protocol client: Content-Length framing,
// request/response matching by request_seq, event fan-out and reverse
// requests. It knows nothing about any language or adapter.
package dap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxMessageSize bounds one message body. Adapters send variables and
// source text inline; 64 MiB is far above anything seen in practice and
// keeps a corrupt header from allocating the machine away.
const MaxMessageSize = 64 << 20

// maxHeaderLine bounds one header line so that garbage without a line break
// cannot grow the reader's buffer without end.
const maxHeaderLine = 1024

// ErrFraming reports a byte stream that does not follow DAP's base protocol.
// The connection cannot be resynchronised after it.
var ErrFraming = errors.New("dap: malformed message framing")

// ReadFrame reads one base-protocol message (headers, blank line, body) and
// returns its body. Headers other than Content-Length are ignored, as the
// specification allows.
func ReadFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for lines := 0; ; lines++ {
		if lines > 32 {
			return nil, fmt.Errorf("%w: too many header lines", ErrFraming)
		}
		line, err := readHeaderLine(r)
		if err != nil {
			if err == io.EOF && lines > 0 {
				// The stream ended inside a message's headers.
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if line == "" {
			if length < 0 {
				if lines == 0 {
					// Tolerate stray blank lines between messages.
					lines--
					continue
				}
				return nil, fmt.Errorf("%w: no Content-Length header", ErrFraming)
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%w: header %q", ErrFraming, truncate(line, 64))
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%w: bad Content-Length %q", ErrFraming, truncate(value, 64))
			}
			if n > MaxMessageSize {
				return nil, fmt.Errorf("%w: Content-Length %d over the %d byte limit", ErrFraming, n, MaxMessageSize)
			}
			length = n
		}
	}
	return readBody(r, length)
}

// bodyChunk is the most readBody allocates ahead of the bytes it has read.
const bodyChunk = 1 << 20

// readBody reads an n byte body. It does not take n on trust: beyond
// bodyChunk, memory grows (by doubling) only as bytes actually arrive, so a
// header that claims a huge body on a stream that then ends costs little.
func readBody(r io.Reader, n int) ([]byte, error) {
	body := make([]byte, 0, min(n, bodyChunk))
	for len(body) < n {
		if len(body) == cap(body) {
			body = slices.Grow(body, min(n-len(body), len(body)))
		}
		m, err := io.ReadFull(r, body[len(body):min(cap(body), n)])
		body = body[:len(body)+m]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	return body, nil
}

// readHeaderLine returns one header line without its line break, refusing
// lines longer than maxHeaderLine.
func readHeaderLine(r *bufio.Reader) (string, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if err == nil && line == nil && len(chunk) <= maxHeaderLine {
			// The common case: the whole line was in the buffer.
			return string(bytes.TrimRight(chunk, "\r\n")), nil
		}
		line = append(line, chunk...)
		if len(line) > maxHeaderLine {
			return "", fmt.Errorf("%w: header line over %d bytes", ErrFraming, maxHeaderLine)
		}
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) && len(line) > 0 {
			return "", io.ErrUnexpectedEOF
		}
		return "", err
	}
	return strings.TrimRight(string(line), "\r\n"), nil
}

// AppendFrame appends body with its Content-Length header to dst, so that a
// message can be written with a single Write.
func AppendFrame(dst, body []byte) []byte {
	dst = append(dst, "Content-Length: "...)
	dst = strconv.AppendInt(dst, int64(len(body)), 10)
	dst = append(dst, "\r\n\r\n"...)
	return append(dst, body...)
}

// WriteFrame writes body as one base-protocol message.
func WriteFrame(w io.Writer, body []byte) error {
	_, err := w.Write(AppendFrame(make([]byte, 0, len(body)+32), body))
	return err
}

// truncate cuts s to at most n bytes (plus an ellipsis) for a log or an
// error message, without splitting a character, and makes it valid UTF-8.
func truncate(s string, n int) string {
	if len(s) <= n {
		return strings.ToValidUTF8(s, "?")
	}
	for i := 0; i < utf8.UTFMax-1 && n > 0 && !utf8.RuneStart(s[n]); i++ {
		n--
	}
	return strings.ToValidUTF8(s[:n], "?") + "…"
}

// truncateBytes is truncate for a byte slice, copying only what is kept.
func truncateBytes(b []byte, n int) string {
	return truncate(string(b[:min(len(b), n+utf8.UTFMax)]), n)
}
