package session

import (
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// An exception's stack trace, as the adapter formats it, is the costliest
// part of an exception stop's answer (debugpy's carried 40% of a failing
// pytest's debug_test answer): the runtime's own frames, caret lines under
// each source line (Python 3.11+), and every file's full path. compactTrace
// keeps what an agent reads in it: the call path through the program's code,
// with each frame's source line.

// traceCarets is a line of Python 3.11's position markers ("~~~^^^~~").
var traceCarets = regexp.MustCompile(`^\s*[~^]+\s*$`)

// runtimeFrame matches a JavaScript stack line in Node's internals or in a
// dependency, which no one debugging the program reads.
var runtimeFrame = regexp.MustCompile(`^\s*at .*(\(node:|\bnode:internal|\(<anonymous>\)|/node_modules/)`)

// pythonFrame is a Python traceback's frame line: File "path", line N, in f.
var pythonFrame = regexp.MustCompile(`^\s*File "(.+)", line (\d+), in (.+)$`)

// compactPythonFrames writes each Python frame as one line, "path:N in f:
// source"; a frame at the place of the one before it (a generator
// expression and its function) joins that line: "path:N in g, f: source".
func compactPythonFrames(lines []string) []string {
	out := lines[:0]
	prevPlace, prevFuncs, prevSource := "", "", ""
	for i := 0; i < len(lines); i++ {
		m := pythonFrame.FindStringSubmatch(lines[i])
		if m == nil {
			out = append(out, lines[i])
			prevPlace = ""
			continue
		}
		place := m[1] + ":" + m[2]
		// pydevd marks the frame it takes as current; nothing an agent uses.
		function := strings.TrimSuffix(m[3], " (Current frame)")
		source := ""
		if i+1 < len(lines) && !pythonFrame.MatchString(lines[i+1]) && strings.HasPrefix(lines[i+1], "    ") {
			source = strings.TrimSpace(lines[i+1])
			i++
		}
		if place == prevPlace {
			prevFuncs += ", " + function
			out[len(out)-1] = frameLine(place, prevFuncs, prevSource)
			continue
		}
		prevPlace, prevFuncs, prevSource = place, function, source
		out = append(out, frameLine(place, function, source))
	}
	return out
}

func frameLine(place, functions, source string) string {
	line := place + " in " + functions
	if source != "" {
		line += ": " + source
	}
	return line
}

// compactTrace drops caret lines and the runtime's frames from trace, and
// writes paths under base relative to it (base is the server's working
// directory, which relative paths in calls resolve against; "" keeps
// paths whole). A first line that states the exception ("Type: message",
// one of headlines), as JavaScript's traces start, is dropped: the answer
// says it already.
func compactTrace(trace, base string, headlines ...string) string {
	lines := strings.Split(trace, "\n")
	kept := lines[:0]
	for i, line := range lines {
		if i == 0 && line != "" && slices.Contains(headlines, strings.TrimSpace(line)) {
			continue
		}
		if traceCarets.MatchString(line) || runtimeFrame.MatchString(line) {
			continue
		}
		kept = append(kept, line)
	}
	compact := compactPythonFrames(kept)
	for i, line := range compact {
		// Indentation only set a frame's source line under it in
		// Python's traces (now one line) and frames under the headline.
		compact[i] = strings.TrimLeft(line, " \t")
	}
	out := strings.Join(compact, "\n")
	if base != "" {
		out = strings.ReplaceAll(out, filepath.Clean(base)+string(filepath.Separator), "")
	}
	return sayDirOnce(out)
}

// framePaths find a frame line's file: a compact Python frame ("path:N in
// f"), a JavaScript one ("at f (path:N:C)" or "at path:N:C").
var framePaths = []*regexp.Regexp{
	regexp.MustCompile(`^(\S+):\d+ in `),
	regexp.MustCompile(`^at (?:.* \()?(\S+?):\d+:\d+\)?$`),
}

func framePathOf(line string) (string, bool) {
	for _, re := range framePaths {
		if m := re.FindStringSubmatch(line); m != nil {
			return m[1], true
		}
	}
	return "", false
}

// sayDirOnce writes the directory that every frame's file is in once, on
// the line before the first frame, and the files by their names: a test's frames are usually
// all in one package directory. Other lines (the exception's closing
// message) stay as they are.
func sayDirOnce(trace string) string {
	lines := strings.Split(trace, "\n")
	dir, frames := "", 0
	for _, line := range lines {
		path, ok := framePathOf(line)
		if !ok {
			continue
		}
		d := filepath.Dir(path)
		if d == "." || dir != "" && d != dir {
			return trace
		}
		dir = d
		frames++
	}
	if frames < 2 {
		return trace
	}
	out := make([]string, 0, len(lines)+1)
	said := false
	for _, line := range lines {
		if path, ok := framePathOf(line); ok {
			if !said {
				// Before the first frame: a headline above it stays first.
				out, said = append(out, "(in "+dir+")"), true
			}
			line = strings.Replace(line, path, strings.TrimPrefix(path, dir+string(filepath.Separator)), 1)
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// exceptionHeadlines are the ways a stack trace's first line may state
// the exception e: "Type: message", or the adapter's description of it.
func exceptionHeadlines(e *ExceptionInfo) []string {
	name := cmp.Or(e.TypeName, e.ExceptionID)
	return []string{name + ": " + e.Message, name, e.Description}
}
