// Package textsafe makes text from a debugged program safe to show: what a
// program prints reaches an agent's answers and, through `mcp-debugger
// call`, a terminal, where control bytes act (ESC]0;…BEL retitles the
// window, ESC[2J clears the screen) instead of being read.
package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible is s with its terminal escape sequences (CSI such as colours,
// OSC such as window titles, two-byte ESC sequences) removed and every
// other control character but newline, tab and carriage return written as
// a visible escape: \x07 for BEL, \u009b for a C1 control. Text without
// control characters is returned as it is, without copying.
func Visible(s string) string {
	if !hasControl(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i += escapeLength(s[i:])
			continue
		case c == '\n' || c == '\t' || c == '\r':
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r >= 0x80 && r <= 0x9f {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		default:
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}

// hasControl says whether s holds anything Visible changes.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f {
			return true
		}
		// C1 controls are U+0080..U+009F: 0xC2 0x80..0x9F in UTF-8.
		if c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
			return true
		}
	}
	return false
}

// maxEscape bounds how far an unterminated sequence reaches: beyond it the
// ESC alone is dropped and the rest shown.
const maxEscape = 256

// escapeLength is the length of the escape sequence s starts with (s[0]
// is ESC): CSI "ESC [ params final", OSC "ESC ] text (BEL | ESC \)", or
// ESC and one more byte. An unterminated CSI or OSC is the ESC alone.
func escapeLength(s string) int {
	if len(s) < 2 {
		return 1
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s) && i < maxEscape; i++ {
			if s[i] >= 0x40 && s[i] <= 0x7e {
				return i + 1
			}
			if s[i] < 0x20 || s[i] > 0x3f {
				break
			}
		}
		return 1
	case ']', 'P', '_', '^':
		for i := 2; i < len(s) && i < maxEscape; i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return 1
	default:
		if s[1] >= 0x20 && s[1] <= 0x7e {
			return 2
		}
		return 1
	}
}
