package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// remoteOnlyRuby is a file only the program's copy has, under its root;
// it requires vendoredRuby, which the program finds outside that root (as
// a gem installed in a container).
const (
	remoteOnlyRuby = "require 'vendored'\ndef check(n)\n  limit = Vendored.limit(n)\n  raise ArgumentError, \"too many: #{n} > #{limit}\"\nend\n"
	vendoredRuby   = "module Vendored\n  def self.limit(n)\n    n - 1\n  end\nend\n"
)

// vendoredDir is where the program finds vendoredRuby: outside
// remoteRoot, on no path the agent has.
const vendoredDir = "/mnt/gems"

// A Ruby program on another root (a container's, here a mount
// namespace's /mnt/app) held at its first line by `rdbg --open`; the
// agent's copy is elsewhere and attaches with pathMappings.
func TestRubyAttachAcrossAMountBoundary(t *testing.T) {
	h := newHarness(t)
	ruby := testenv.RequireTool(t, "apt-get install -y ruby", "ruby")
	av := testenv.RequireAdapter(t, "ruby")
	rp := newRemoteProgram(t, rubyProgram(t, "remote"), map[string]string{"remote_only.rb": remoteOnlyRuby, "vendored.rb": vendoredRuby})
	vendor := "mkdir " + vendoredDir + " && mv vendored.rb " + vendoredDir + ` && exec env RUBYLIB=` + vendoredDir + ` "$@"`
	cmd := append([]string{"sh", "-c", vendor, "sh"}, rdbgCommand(t, ruby, av.Path)...)
	_, ready := rp.start(t, "TCP/IP (127.0.0.1:", append(cmd, "--open", "--host", "127.0.0.1", "--port", "0", "--", "app.rb")...)
	port := regexp.MustCompile(`TCP/IP \(127\.0\.0\.1:(\d+)\)`).FindStringSubmatch(ready)[1]
	id := h.sessionFor("ruby")
	app := rp.local("app.rb")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 8})

	hit := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port,
		"pathMappings": rp.mappings(), "breakOnExceptions": "all", "waitForStop": true, "timeout": 60000})
	wantStop(t, hit, "breakpoint", 8)
	if hit.stopFile(t) != app || !strings.Contains(hit.obj("context").str("lineContent"), "s += x") {
		t.Fatalf("the stop shows the agent's path and its line: location %v context %v", hit["location"], hit["context"])
	}
	if hit.obj("location")["remote"] != nil {
		t.Errorf("a file the agent has is not remote: %v", hit["location"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": app, "line": 14})
	wantStop(t, h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000}), "breakpoint", 14)
	// No step inside total's block: there ruby 3.1.7 under rdbg 1.6.3 can
	// crash (a segmentation fault at the block's end) when the program
	// goes on after the step.
	step := h.ok("step_over", map[string]any{"sessionId": id})
	wantStop(t, step, "step", 15)
	if step.stopFile(t) != app || !strings.Contains(step.obj("context").str("lineContent"), "check(t)") {
		t.Errorf("a step shows the agent's path and line: %v %v", step["location"], step["context"])
	}

	// rdbg serves no source for a file under a mapped root: it counts on
	// the agent's copy. docs/adapter-quirks.md: rdbg-15.
	into := h.ok("step_into", map[string]any{"sessionId": id})
	loc := into.obj("location")
	if loc.str("file") != remoteRoot+"/remote_only.rb" || loc.num("line") != 3 || loc["remote"] != true {
		t.Errorf("a stop in a file only the program has keeps its path and is marked remote: %v", loc)
	}
	if into["context"] != nil || !strings.Contains(loc.str("sourceNote"), "no copy here") {
		t.Errorf("rdbg serves no source under the mapped root: the answer says so and shows no lines: %v %v", loc, into["context"])
	}
	vendored := h.ok("step_into", map[string]any{"sessionId": id})
	loc = vendored.obj("location")
	if loc.str("file") != vendoredDir+"/vendored.rb" || loc.num("line") != 3 || loc["remote"] != true {
		t.Errorf("a stop in a file outside the mapped root keeps its path and is marked remote: %v", loc)
	}
	// Before 1.6 rdbg serves the text only of a file the program's side
	// does not have either (it checks File.exist? there, knowing nothing
	// of shared roots): the answer must then say so, not show lines.
	if r, ok := adapter.ParseRelease(av.Version); !ok || r.AtLeast(1, 6) {
		if vendored.obj("context").str("lineContent") != "    n - 1" {
			t.Errorf("rdbg %s: a file outside the mapped root is shown from the adapter: %v %v", av.Version, loc, vendored["context"])
		}
	} else if vendored["context"] != nil || !strings.Contains(loc.str("sourceNote"), "adapter serves none") {
		t.Errorf("rdbg %s serves no source for a file the program has: the answer says so and shows no lines: %v %v", av.Version, loc, vendored["context"])
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})

	raised := h.ok("continue_execution", map[string]any{"sessionId": id, "timeout": 60000})
	wantStop(t, raised, "exception", 4)
	if loc := raised.obj("location"); loc.str("file") != remoteRoot+"/remote_only.rb" || loc["remote"] != true {
		t.Errorf("the exception's stop in the file only the program has: %v", loc)
	}
	if msg := raised.obj("exception").str("message"); !strings.Contains(msg, "too many: 6 > 5") {
		t.Errorf("the exception's message: %v", raised["exception"])
	}
}
