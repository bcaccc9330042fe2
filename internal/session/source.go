package session

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/userfile"
)

// SourceLine is one numbered line of a source file.
type SourceLine struct {
	Line    int    `json:"line"`
	Content string `json:"content"`
	// Current marks the line the window is around, for the server's own
	// use: answers say it once already (lineContent and the location's
	// line), as the reference's do.
	Current bool `json:"-"`
}

// SourceContext is a window of lines around one line.
type SourceContext struct {
	LineContent string       `json:"lineContent"`
	Surrounding []SourceLine `json:"surrounding"`
}

type cachedSource struct {
	mtime time.Time
	size  int64
	lines []string
}

// sourceCache keeps file contents keyed by path and invalidated by mtime and
// size, so stops in the same file do not re-read it each time. It holds at
// most sourceCacheFiles files and sourceCacheBytes bytes of them: each file
// is up to userfile.MaxSize.
var sourceCache = struct {
	sync.Mutex
	files map[string]cachedSource
	bytes int64
}{files: map[string]cachedSource{}}

const (
	sourceCacheFiles = 256
	sourceCacheBytes = 64 << 20
)

// readLines returns the lines of a file (without line breaks): a regular
// file of at most userfile.MaxSize bytes, else an *Error saying what to do.
func readLines(path string) ([]string, error) {
	f, st, err := userfile.Open(path)
	if err != nil {
		var refused *userfile.Error
		if errors.As(err, &refused) {
			return nil, &Error{Msg: refused.Error(), Hint: refused.Hint, Err: err}
		}
		return nil, err
	}
	defer f.Close()
	sourceCache.Lock()
	c, ok := sourceCache.files[path]
	sourceCache.Unlock()
	if ok && c.mtime.Equal(st.ModTime()) && c.size == st.Size() {
		return c.lines, nil
	}
	b, err := userfile.ReadOpened(f)
	if err != nil {
		return nil, err
	}
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	sourceCache.Lock()
	if len(sourceCache.files) >= sourceCacheFiles || sourceCache.bytes+st.Size() > sourceCacheBytes {
		clear(sourceCache.files)
		sourceCache.bytes = 0
	}
	if old, ok := sourceCache.files[path]; ok {
		sourceCache.bytes -= old.size
	}
	sourceCache.files[path] = cachedSource{mtime: st.ModTime(), size: st.Size(), lines: lines}
	sourceCache.bytes += st.Size()
	sourceCache.Unlock()
	return lines, nil
}

// ReadContext returns the line and radius lines either side of it, the line
// itself marked current.
func ReadContext(path string, line, radius int) (SourceContext, error) {
	lines, err := readLines(path)
	if err != nil {
		return SourceContext{}, err
	}
	if line < 1 || line > len(lines) {
		return SourceContext{}, fmt.Errorf("line %d is outside %s (%d lines)", line, path, len(lines))
	}
	return contextOf(lines, line, radius), nil
}

// MaxSourceLineLen bounds each source line an answer shows: a minified
// script is one line of megabytes.
const MaxSourceLineLen = 2000

// contextOf is the window of radius lines either side of line, each line
// cut to MaxSourceLineLen.
func contextOf(lines []string, line, radius int) SourceContext {
	ctx := SourceContext{LineContent: cutLine(lines[line-1])}
	for n := max(1, line-radius); n <= min(len(lines), line+radius); n++ {
		ctx.Surrounding = append(ctx.Surrounding, SourceLine{Line: n, Content: cutLine(lines[n-1]), Current: n == line})
	}
	return ctx
}

func cutLine(s string) string {
	short, _ := Cut(s, MaxSourceLineLen)
	return short
}

// AnchorError says that a content anchor did not match; it carries the
// lines the agent should look at.
type AnchorError struct {
	Msg     string
	Context *SourceContext
}

func (e *AnchorError) Error() string { return e.Msg }

// resolveLine turns a breakpoint request into a line: by statement text
// (nearest to nearLine), or by line number checked against expectedContent
// and the file's length.
func resolveLine(path string, line int, statement string, nearLine int, expected string) (int, error) {
	lines, err := readLines(path)
	if err != nil {
		return 0, err
	}
	if statement != "" {
		best := 0
		for i, l := range lines {
			if !strings.Contains(l, statement) {
				continue
			}
			n := i + 1
			if best == 0 || (nearLine > 0 && abs(n-nearLine) < abs(best-nearLine)) {
				best = n
			}
		}
		if best == 0 {
			return 0, &AnchorError{Msg: fmt.Sprintf("no line of %s contains %q", path, statement)}
		}
		line = best
	}
	if line < 1 {
		return 0, fmt.Errorf("line must be 1 or more (got %d)", line)
	}
	if line > len(lines) {
		return 0, fmt.Errorf("line %d is past the end of %s, which has %d lines", line, path, len(lines))
	}
	if expected != "" && !strings.Contains(lines[line-1], expected) {
		c := contextOf(lines, line, 3)
		return 0, &AnchorError{
			Msg:     fmt.Sprintf("line %d of %s does not contain %q (it reads %q); the file may have changed", line, path, expected, strings.TrimSpace(lines[line-1])),
			Context: &c,
		}
	}
	return line, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// shownSource is the source an agent has recently read in this session's
// answers (set_breakpoint's window, the last stops'), by file, line number
// and text, with the stop count when it was shown. A stop's answer leaves
// those lines out of its window, as it leaves out output already shown: a
// step to the next line repeats four of five lines otherwise, and a loop
// between two places repeats both windows. A line whose text changed (the
// file was edited) is shown again; lineContent always says the current
// line.
type shownSource map[string]map[int]shownLine

type shownLine struct {
	text string
	stop int
}

// sourceMemory is how many stops a shown line counts as read for.
const sourceMemory = 8

func (s shownSource) add(file string, lines []SourceLine, stop int) {
	byLine := s[file]
	if byLine == nil {
		byLine = map[int]shownLine{}
		s[file] = byLine
	}
	for _, l := range lines {
		byLine[l.Line] = shownLine{text: l.Content, stop: stop}
	}
}

// unseen is lines without the ones shown recently with the same text.
func (s shownSource) unseen(file string, lines []SourceLine, stop int) []SourceLine {
	byLine := s[file]
	out := make([]SourceLine, 0, len(lines))
	for _, l := range lines {
		if was, ok := byLine[l.Line]; !ok || was.text != l.Content || stop-was.stop > sourceMemory {
			out = append(out, l)
		}
	}
	return out
}

// forget drops the lines shown longer ago than sourceMemory stops.
func (s shownSource) forget(stop int) {
	for file, byLine := range s {
		for n, was := range byLine {
			if stop-was.stop > sourceMemory {
				delete(byLine, n)
			}
		}
		if len(byLine) == 0 {
			delete(s, file)
		}
	}
}
