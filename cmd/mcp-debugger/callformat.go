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
	// reconnectKey stays: the message that says to keep it needs it
	// shown.
	done := map[string]bool{"success": true, "error": true, "hint": true, "threadId": true, "stopReason": true, "unchanged": true}
	writeTest(w, a, done)
	writeLine(w, a, done, "message", "%s")
	if id, ok := a["sessionId"].(string); ok {
		fmt.Fprintf(w, "session: %s\n", shortSessionID(id))
		done["sessionId"] = true
	}
	writeSessions(w, a, done)
	writeSource(w, a, done)
	writeLocals(w, a, done)
	writeVariables(w, a, done)
	writeFrames(w, a, done)
	writeThreads(w, a, done)
	writeLanguages(w, a, done)
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

// writeVariables writes get_local_variables' and get_variables' answers,
// a variable a line, members indented under it; [ref N] is what
// get_variables takes as scope to expand it.
func writeVariables(w io.Writer, a map[string]any, done map[string]bool) {
	vars, ok := a["variables"].([]any)
	if !ok {
		return
	}
	done["variables"], done["count"], done["frame"], done["scopeName"] = true, true, true, true
	if frame := asMap(a["frame"]); frame != nil {
		fmt.Fprintf(w, "in %v:\n", frame["name"])
	}
	if len(vars) == 0 {
		fmt.Fprintln(w, "no variables")
	}
	writeVariableRows(w, vars, "  ")
}

func writeVariableRows(w io.Writer, vars []any, indent string) {
	for _, v := range vars {
		m := asMap(v)
		fmt.Fprintf(w, "%s%v = %v", indent, m["name"], m["value"])
		if t, ok := m["type"].(string); ok && t != "" {
			fmt.Fprintf(w, "  (%s)", t)
		}
		if ref, ok := m["variablesReference"].(float64); ok && ref > 0 {
			fmt.Fprintf(w, "  [ref %d]", int(ref))
		}
		fmt.Fprintln(w)
		writeVariableRows(w, asList(m["children"]), indent+"  ")
	}
}

// writeFrames writes a stack, a frame a line, innermost first: its
// number, id (what frameId takes), function and place.
func writeFrames(w io.Writer, a map[string]any, done map[string]bool) {
	frames, ok := a["stackFrames"].([]any)
	if !ok {
		return
	}
	done["stackFrames"], done["count"], done["startFrame"] = true, true, true
	start, _ := a["startFrame"].(float64)
	for i, f := range frames {
		writeFrame(w, int(start)+i, asMap(f), "")
	}
	if total, ok := a["totalFrames"].(float64); ok && int(total) > int(start)+len(frames) {
		fmt.Fprintf(w, "(%d frames in all)\n", int(total))
	}
	done["totalFrames"] = true
}

func writeFrame(w io.Writer, n int, f map[string]any, indent string) {
	fmt.Fprintf(w, "%s#%-2d %v", indent, n, f["name"])
	if file, ok := f["file"].(string); ok && file != "" {
		fmt.Fprintf(w, "  %s:%v", file, f["line"])
	}
	fmt.Fprintf(w, "  [frame %v]\n", f["id"])
}

// writeThreads writes get_stack_trace {allThreads}'s groups: the threads,
// what they wait on, and their frames.
func writeThreads(w io.Writer, a map[string]any, done map[string]bool) {
	groups, ok := a["threads"].([]any)
	if !ok {
		return
	}
	done["threads"] = true
	for _, g := range groups {
		m := asMap(g)
		var ids []string
		for _, id := range asList(m["threadIds"]) {
			ids = append(ids, fmt.Sprint(id))
		}
		fmt.Fprintf(w, "thread %s", strings.Join(ids, ", "))
		if name, ok := m["name"].(string); ok && name != "" {
			fmt.Fprintf(w, " (%s)", name)
		}
		if waiting, ok := m["waiting"].(string); ok && waiting != "" {
			fmt.Fprintf(w, ": waiting %s", waiting)
		}
		fmt.Fprintln(w)
		for i, f := range asList(m["frames"]) {
			writeFrame(w, i, asMap(f), "  ")
		}
		if more, ok := m["moreFrames"].(float64); ok && more > 0 {
			fmt.Fprintf(w, "  … %d more frames\n", int(more))
		}
	}
}

// writeLanguages writes list_supported_languages' answer, a language a
// line: installed with its adapter and test runner, or what is missing
// and the command that installs it.
func writeLanguages(w io.Writer, a map[string]any, done map[string]bool) {
	langs, ok := a["languages"].([]any)
	if !ok {
		return
	}
	done["languages"], done["count"] = true, true
	for _, l := range langs {
		m := asMap(l)
		fmt.Fprintf(w, "%-11v", m["id"])
		if m["installed"] == true {
			fmt.Fprintf(w, " installed  %v", m["adapter"])
			if v, ok := m["version"].(string); ok && v != "" {
				fmt.Fprintf(w, " %s", v)
			}
			if t, ok := m["debugTest"].(string); ok && t != "" {
				fmt.Fprintf(w, "; debug_test: %s", t)
			}
		} else {
			fmt.Fprintf(w, " missing    %v", m["reason"])
			if hint, ok := m["installHint"].(string); ok && hint != "" {
				fmt.Fprintf(w, "; install: %s", hint)
			}
		}
		unavailable := asMap(m["unavailable"])
		modes := make([]string, 0, len(unavailable))
		for mode := range unavailable {
			modes = append(modes, mode)
		}
		sort.Strings(modes)
		for _, mode := range modes {
			fmt.Fprintf(w, "; no %s: %v", mode, unavailable[mode])
		}
		if check := asMap(m["check"]); check != nil {
			fmt.Fprintf(w, "; check: %v", check["status"])
			if e, ok := check["error"].(string); ok && e != "" {
				fmt.Fprintf(w, " (%s)", e)
			}
		}
		fmt.Fprintln(w)
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
