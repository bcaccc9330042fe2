package python

import (
	"regexp"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// debugpy shows no frame of C code, and Python's locks, sleeps and socket
// waits are C: a thread blocked in lock.acquire() shows only the
// program's frame at the line that called it ("with second:"). What the
// thread waits on is read from that line, so it is said as the line's
// ("a lock, by its line"): a thread paused while running the same line
// would read alike. A thread blocked in C is paused by debugpy only once
// another thread runs Python code; a program whose every thread blocks in
// C cannot be paused at all.
// docs/adapter-quirks.md: debugpy-18.

// pauseLimit is what debugpy cannot pause.
const pauseLimit = "debugpy pauses a thread only when it next runs Python code, so a program whose every thread is blocked in C (lock.acquire(), join(), a queue or socket wait) does not stop until one of them returns"

// lineWaits are the lines whose call waits, in the order tried, with what
// they wait on.
var lineWaits = []struct {
	line *regexp.Regexp
	wait adapter.Wait
}{
	{regexp.MustCompile(`\.acquire\(|^(async\s+)?with\s+[\w.]*(?i:lock|mutex|sem|cond)\w*\s*[:,]`), adapter.Wait{What: "a lock (by its line)", Blocking: true, Lock: true}},
	{regexp.MustCompile(`\.join\(\s*\)`), adapter.Wait{What: "a thread or process to end (by its line)", Blocking: true}},
	{regexp.MustCompile(`\.wait\(\s*\)`), adapter.Wait{What: "an event, condition or barrier (by its line)", Blocking: true}},
	{regexp.MustCompile(`\b(time\.)?sleep\(`), adapter.Wait{What: "sleep (by its line)"}},
	{regexp.MustCompile(`\.(recv\w*|accept|read\w*|select|poll)\(|\binput\(|\bselect\(`), adapter.Wait{What: "I/O (by its line)"}},
	{regexp.MustCompile(`\.get\(\s*\)`), adapter.Wait{What: "a queue, if this is one (by its line)"}},
}

// waitingOn reads what a paused thread waits on from the line of its
// innermost frame, the program's.
func waitingOn(t adapter.ThreadStack) (adapter.Wait, bool) {
	if len(t.Frames) == 0 || t.Frames[0].Internal || t.UserLine == "" {
		return adapter.Wait{}, false
	}
	for _, lw := range lineWaits {
		if lw.line.MatchString(t.UserLine) {
			return lw.wait, true
		}
	}
	return adapter.Wait{}, false
}
