package server

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/session"
)

// A probe is a breakpoint or a tracepoint given inline to start_debugging,
// written as an agent writes a print: "FILE:LINE" stops there,
// "FILE:LINE print a, b.c" records a and b.c at each hit without stopping,
// and either takes "if COND" after the location.
type probe struct {
	File      string
	Line      int
	Condition string
	// Print holds the expressions a tracepoint records; none for a
	// breakpoint.
	Print []string
}

// maxProbes bounds how many probes one call may set.
const maxProbes = 50

// probeLocation is FILE:LINE at the start of a probe; the file may hold
// colons itself (C:\src\a.py), the line is the first ":DIGITS" followed by
// a space or the end.
var probeLocation = regexp.MustCompile(`^(.+?):(\d+)(?:\s+|$)`)

// parseProbes reads the probes of one call.
func parseProbes(texts []string) ([]probe, error) {
	if len(texts) > maxProbes {
		return nil, userError(fmt.Sprintf("give at most %d probes in one call", maxProbes), "%d probes", len(texts))
	}
	out := make([]probe, 0, len(texts))
	for _, text := range texts {
		p, err := parseProbe(text)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// probeHint is what a malformed probe's error tells the agent.
const probeHint = `write a probe as "FILE:LINE" (stop there), "FILE:LINE print EXPR, EXPR" (record values at each hit, no stop), with "if COND" after the line for either`

func parseProbe(text string) (probe, error) {
	text = strings.TrimSpace(text)
	m := probeLocation.FindStringSubmatch(text)
	if m == nil {
		return probe{}, userError(probeHint, "probe %s names no FILE:LINE", quoted(text))
	}
	line, err := strconv.Atoi(m[2])
	if err != nil || line < 1 {
		return probe{}, userError(probeHint, "probe %s: line %s is not a line number", quoted(text), m[2])
	}
	p := probe{File: m[1], Line: line}
	rest := text[len(m[0]):]
	if cond, ok := strings.CutPrefix(rest, "if "); ok {
		cond, prints, _ := strings.Cut(cond, " print ")
		p.Condition = strings.TrimSpace(cond)
		rest = ""
		if prints != "" {
			rest = "print " + prints
		}
		if p.Condition == "" {
			return probe{}, userError(probeHint, "probe %s: an empty condition", quoted(text))
		}
	}
	if prints, ok := strings.CutPrefix(rest, "print "); ok {
		p.Print = splitExpressions(prints)
		if len(p.Print) == 0 {
			return probe{}, userError(probeHint, "probe %s: nothing to print", quoted(text))
		}
		rest = ""
	}
	if strings.TrimSpace(rest) != "" {
		return probe{}, userError(probeHint, "probe %s: %s after the line is neither \"if COND\" nor \"print EXPR, …\"", quoted(text), quoted(rest))
	}
	return p, nil
}

// splitExpressions splits a list of expressions at the commas outside
// brackets and quotes: "a, f(b, c), s[1]" is three.
func splitExpressions(list string) []string {
	var out []string
	depth, start := 0, 0
	var quote rune
	escaped := false
	add := func(end int) {
		if e := strings.TrimSpace(list[start:end]); e != "" {
			out = append(out, e)
		}
	}
	for i, r := range list {
		switch {
		case escaped:
			escaped = false
		case quote != 0:
			switch r {
			case '\\':
				escaped = true
			case quote:
				quote = 0
			}
		case r == '"' || r == '\'' || r == '`':
			quote = r
		case r == '(' || r == '[' || r == '{':
			depth++
		case r == ')' || r == ']' || r == '}':
			depth = max(depth-1, 0)
		case r == ',' && depth == 0:
			add(i)
			start = i + 1
		}
	}
	add(len(list))
	return out
}

// quoted is a probe's text for an error message, cut short.
func quoted(text string) string {
	short, _ := session.Cut(text, 200)
	return strconv.Quote(short)
}
