package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-dap"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// Logpoints on an adapter that does not announce supportsLogPoints (rdbg:
// 1.6.3 ignores logMessage and stops; docs/adapter-quirks.md, rdbg-11) are
// emulated: sent as plain breakpoints, and each stop at one is answered by the
// session, which evaluates the message's {expression} parts in the top frame,
// writes the line to the output (category console) and continues. The agent
// sees no stop.

// emulatesLogpoints reports whether this run's adapter leaves logpoints to
// the session.
func (r *connection) emulatesLogpoints() bool {
	return !r.caps.SupportsLogPoints
}

// isLogpoint reports whether bp prints a message rather than stopping.
func (bp *Breakpoint) isLogpoint() bool {
	return bp.LogMessage != "" && len(bp.Collect) == 0
}

// answeredBySession reports whether a stop at bp is the session's to
// answer: a tracepoint's, or an emulated logpoint's.
func (bp *Breakpoint) answeredBySession(emulatedLogpoints bool) bool {
	return len(bp.Collect) > 0 || emulatedLogpoints && bp.isLogpoint()
}

// writeLogpoint writes an emulated logpoint's line to the output, its
// expressions evaluated in frame; with no frame (frameErr), the message as
// it is, said to be uninterpolated.
func (s *Session) writeLogpoint(ctx context.Context, r *connection, frame *dap.StackFrame, message string, frameErr error) {
	line := message + " <not interpolated: no stack frame: " + fmt.Sprint(frameErr) + ">"
	if frame != nil {
		line = logLine(ctx, r, frame.Id, message)
	}
	s.out.Append("console", line+"\n")
}

// logLine is an emulated logpoint's message with each {expression}
// replaced by its value in frameID, or by <error: …> when it does not
// evaluate. Braces nest, so an expression may hold a block or a hash; an
// unclosed one is kept as text.
func logLine(ctx context.Context, r *connection, frameID int, message string) string {
	parts := splitInterpolation(message)
	var exprs []string
	for _, p := range parts {
		if p.expression {
			exprs = append(exprs, p.text)
		}
	}
	values := r.evaluateAll(ctx, frameID, exprs)
	var b strings.Builder
	for _, p := range parts {
		if !p.expression {
			b.WriteString(p.text)
			continue
		}
		v := values[0]
		values = values[1:]
		if v.err != nil {
			b.WriteString("<error: " + v.err.Error() + ">")
			continue
		}
		b.WriteString(v.body.Result)
	}
	return b.String()
}

// messagePart is literal text or an expression of a log message.
type messagePart struct {
	text       string
	expression bool
}

// splitInterpolation cuts a log message into text and {expression} parts.
func splitInterpolation(message string) []messagePart {
	var parts []messagePart
	text := 0
	for i := 0; i < len(message); i++ {
		if message[i] != '{' {
			continue
		}
		end := closingBrace(message, i)
		if end < 0 {
			break
		}
		if text < i {
			parts = append(parts, messagePart{text: message[text:i]})
		}
		parts = append(parts, messagePart{text: message[i+1 : end], expression: true})
		text, i = end+1, end
	}
	if text < len(message) {
		parts = append(parts, messagePart{text: message[text:]})
	}
	return parts
}

// closingBrace is the index of the brace that closes the one at open, or
// -1.
func closingBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// LogpointWarning says how a logpoint will behave when the session's
// adapter handles logpoints its own way (adapter.LogpointAdvisor), or when
// the running adapter does not announce them; "" otherwise.
func (s *Session) LogpointWarning() string {
	if a, ok := s.adapter.(adapter.LogpointAdvisor); ok {
		return a.LogpointWarning()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.liveRunLocked(); r != nil && r.emulatesLogpoints() {
		return emulatedLogpointWarning
	}
	return ""
}

// emulatedLogpointWarning is what LogpointWarning says of an adapter that
// does not announce logpoints.
const emulatedLogpointWarning = "this debug adapter does not announce logpoint support, so the server emulates the logpoint: at each hit it stops the program, evaluates the {expressions}, writes the message to the output and continues"
