package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mcp-debugger/mcp-debugger/internal/textsafe"
)

// The compact text a shell-only agent reads: a stop in a few lines (why,
// where, the source window, locals, changes, output), a failure as its
// error and hint, anything else as its message and fields, one a line.

// shortSessionID is the part of a session id an agent types: unique
// enough among the sessions one server holds.
func shortSessionID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// formatAnswer writes a tool's answer as compact text, for a terminal: any
// control byte in it (from the program's output, a variable's value) is
// made visible rather than sent to act there.
func formatAnswer(out io.Writer, a map[string]any) {
	w := visibleWriter{out}
	if errText, ok := a["error"].(string); ok {
		fmt.Fprintf(w, "error: %s\n", errText)
		if hint, ok := a["hint"].(string); ok {
			fmt.Fprintf(w, "hint: %s\n", hint)
		}
		return
	}
	done := map[string]bool{"success": true, "error": true, "hint": true, "reconnectKey": true, "threadId": true, "stopReason": true, "unchanged": true}
	writeTest(w, a, done)
	writeLine(w, a, done, "message", "%s")
	if id, ok := a["sessionId"].(string); ok {
		fmt.Fprintf(w, "session: %s\n", shortSessionID(id))
		done["sessionId"] = true
	}
	writeSessions(w, a, done)
	writeSource(w, a, done)
	writeLocals(w, a, done)
	writeChanges(w, a, done)
	writeLine(w, a, done, "output", "output:\n%s")
	writeRest(w, a, done)
}

func writeLine(w io.Writer, a map[string]any, done map[string]bool, key, format string) {
	if s, ok := a[key].(string); ok && s != "" {
		fmt.Fprintf(w, format+"\n", strings.TrimRight(s, "\n"))
	}
	done[key] = true
}

// writeTest writes debug_test's verdict; its message stands for the
// failure the rest of the answer then shows.
func writeTest(w io.Writer, a map[string]any, done map[string]bool) {
	t := asMap(a["test"])
	if t == nil {
		return
	}
	done["test"] = true
	verdict := "passed"
	if t["failed"] == true {
		verdict = "FAILED"
	}
	fmt.Fprintf(w, "test %s (%v): %v\n", verdict, t["runner"], t["name"])
	if m, ok := t["message"].(string); ok && m != "" {
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(m, "\n", "\n  "))
	}
}

// writeSessions writes list_debug_sessions' sessions one a line.
func writeSessions(w io.Writer, a map[string]any, done map[string]bool) {
	list, ok := a["sessions"].([]any)
	if !ok {
		return
	}
	done["sessions"], done["count"] = true, true
	if len(list) == 0 {
		fmt.Fprintln(w, "no debug sessions")
	}
	for _, s := range list {
		m := asMap(s)
		fmt.Fprintf(w, "%s  %v  %v", shortSessionID(fmt.Sprint(m["id"])), m["language"], m["state"])
		if stop := asMap(m["lastStop"]); stop != nil {
			fmt.Fprintf(w, " (%v)", stop["reason"])
		}
		fmt.Fprintln(w)
	}
}

// writeSource writes the source window around the stop, the current line
// marked.
func writeSource(w io.Writer, a map[string]any, done map[string]bool) {
	done["context"], done["location"] = true, true
	ctx, loc := asMap(a["context"]), asMap(a["location"])
	if ctx == nil || loc == nil {
		if loc != nil {
			fmt.Fprintf(w, "at %v:%v\n", loc["file"], loc["line"])
		}
		return
	}
	current, _ := loc["line"].(float64)
	rows := map[int]string{int(current): fmt.Sprint(ctx["lineContent"])}
	for _, r := range asList(ctx["surrounding"]) {
		m := asMap(r)
		if n, ok := m["line"].(float64); ok {
			rows[int(n)] = fmt.Sprint(m["content"])
		}
	}
	lines := make([]int, 0, len(rows))
	for n := range rows {
		lines = append(lines, n)
	}
	sort.Ints(lines)
	if fn, ok := loc["function"].(string); ok && fn != "" {
		fmt.Fprintf(w, "%v in %s:\n", loc["file"], fn)
	} else {
		fmt.Fprintf(w, "%v:\n", loc["file"])
	}
	for _, n := range lines {
		mark := " "
		if n == int(current) {
			mark = ">"
		}
		fmt.Fprintf(w, "%s%5d  %s\n", mark, n, rows[n])
	}
}

func writeLocals(w io.Writer, a map[string]any, done map[string]bool) {
	done["locals"] = true
	var parts []string
	for _, v := range asList(a["locals"]) {
		m := asMap(v)
		parts = append(parts, fmt.Sprintf("%v=%v", m["name"], m["value"]))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "locals: %s\n", strings.Join(parts, ", "))
	}
}

func writeChanges(w io.Writer, a map[string]any, done map[string]bool) {
	done["changed"] = true
	var parts []string
	for _, c := range asList(a["changed"]) {
		m := asMap(c)
		parts = append(parts, fmt.Sprintf("%v: %v -> %v", m["name"], m["from"], m["to"]))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "changed: %s\n", strings.Join(parts, ", "))
	}
}

// writeRest writes the fields not written yet, one a line, in name order.
func writeRest(w io.Writer, a map[string]any, done map[string]bool) {
	keys := make([]string, 0, len(a))
	for k, v := range a {
		// A reference of 0 says there is nothing to expand: no news.
		if !done[k] && !(k == "variablesReference" && v == float64(0)) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s, ok := a[k].(string); ok {
			fmt.Fprintf(w, "%s: %s\n", k, s)
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", k, compactJSON(a[k]))
	}
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// visibleWriter writes text with its control bytes made visible
// (textsafe.Visible); every write is a whole piece of the answer.
type visibleWriter struct{ w io.Writer }

func (v visibleWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(v.w, textsafe.Visible(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
