package server

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Profile names the set of tools a server offers. Every client loads the
// whole tool list into the agent's context before the first call, and some
// (Cursor) take at most 40 tools from all servers together, so the list is
// chosen, not everything the server can do.
type Profile string

// The profiles, from fewest tools to all of them.
const (
	// ProfileCore is the dozen or so tools most bugs need: start or record
	// a run, break, move, look, close.
	ProfileCore Profile = "core"
	// ProfileDefault is every tool but the rarely used ones (allOnlyTools).
	ProfileDefault Profile = "default"
	// ProfileAll is every tool.
	ProfileAll Profile = "all"
)

// Profiles lists the profiles' names, for a command's usage.
var Profiles = []Profile{ProfileCore, ProfileDefault, ProfileAll}

// ParseProfile reads a profile's name; "" is the default profile.
func ParseProfile(name string) (Profile, error) {
	p := Profile(strings.ToLower(strings.TrimSpace(name)))
	if p == "" {
		return ProfileDefault, nil
	}
	if !slices.Contains(Profiles, p) {
		return "", fmt.Errorf("unknown tool profile %q: want core, default or all", name)
	}
	return p, nil
}

// coreTools are what agents used in trials for most bugs, in the order of a
// session: start, break, move, look, close; and break_on_change, which
// answers "which line changed X" in one call (the find-what-changes prompt
// is built on it).
var coreTools = []string{
	"list_supported_languages", "create_debug_session", "start_debugging", "debug_test",
	"record", "query_recording", "set_breakpoint", "continue_execution",
	"step_over", "step_into", "step_out", "break_on_change", "get_stack_trace", "get_variables",
	"get_local_variables", "evaluate_expression", "get_trace", "close_debug_session",
}

// allOnlyTools leave the default list: watches (every snapshot already shows
// the locals, and break_on_change answers "which line changed X"), memory
// and machine code, Java hot swap, what another tool already does
// (get_scopes: get_local_variables and get_variables; get_source_context:
// every stop's context, and the agent reads files itself;
// detach_from_process: close_debug_session leaves an attached program
// running; clear_breakpoints: remove_breakpoint; list_threads:
// get_stack_trace {allThreads}, and threadId defaults to the thread that
// stopped), changing the program's values (set_variable: an experiment,
// not a finding; evaluate_expression can assign where the language lets
// it), and what serves a person
// rather than the agent (showing a session in a browser or IDE, sharing it
// with another client over HTTP).
var allOnlyTools = []string{
	"add_watch", "remove_watch", "list_watches", "get_scopes", "get_source_context",
	"set_data_breakpoint", "read_memory", "disassemble", "redefine_classes",
	"detach_from_process", "clear_breakpoints", "list_threads", "set_variable",
	"expose_session", "unexpose_session", "share_debug_session",
}

// offers reports whether the profile has the tool.
func (p Profile) offers(tool string) bool {
	switch p {
	case ProfileCore:
		return slices.Contains(coreTools, tool)
	case ProfileAll:
		return true
	}
	return !slices.Contains(allOnlyTools, tool)
}

// toolName finds, in the instructions, the names of tools in backquotes
// (`set_breakpoint`, `start_debugging {…}`).
var toolName = regexp.MustCompile("`([a-z]+(?:_[a-z]+)+)")

// instructionsFor is the instructions without the items (a list item or
// paragraph with its continuation lines) that name a tool the profile does
// not offer: an agent told of a tool it cannot call tries it anyway.
func instructionsFor(p Profile) string {
	var out []string
	var item []string
	flush := func() {
		text := strings.Join(item, "\n")
		keep := true
		for _, m := range toolName.FindAllStringSubmatch(text, -1) {
			if _, isTool := traits[m[1]]; isTool && !p.offers(m[1]) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, item...)
		}
		item = nil
	}
	for line := range strings.SplitSeq(instructions, "\n") {
		// An item ends where a line starts something new: a blank line, a
		// heading, a list item, a numbered step.
		continues := strings.HasPrefix(line, " ") && strings.TrimSpace(line) != ""
		if !continues {
			flush()
		}
		item = append(item, line)
	}
	flush()
	return strings.Join(out, "\n")
}
