package ruby

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// minitestHelper is loaded into a debug_test run (ruby -r). Minitest
// rescues a failed assertion, and rdbg (1.4.0 and 1.6.3 alike) catches
// exceptions only by the classes of its two filters (Exception,
// RuntimeError), when raised; nor does a debugger call stop inside a
// TracePoint. So the helper wraps minitest's assert, through which every
// assertion goes: on failure it prints the message on one line, for the
// failure's summary, and stops in the debugger before the runner sees the
// failure.
const minitestHelper = `# Loaded by mcp-debugger's debug_test (ruby -r): a failed minitest
# assertion stops in the debugger, inside the assertion.
require "minitest"

module McpDebuggerStopOnFailure
  def assert(test, msg = nil)
    super
  rescue Minitest::Assertion => e
    $stderr.puts "mcp-debugger: test failed: #{e.message.gsub(/\s*\n\s*/, " ")}"
    debugger
    raise
  end
end
Minitest::Assertions.prepend(McpDebuggerStopOnFailure)
`

// minitestFailure is the helper's line; its group is the message.
var minitestFailure = regexp.MustCompile(`(?m)^mcp-debugger: test failed: (.*)$`)

// TestPlan runs a minitest file under rdbg, stopping at the first failed
// assertion in the test method's frame.
func (a *Adapter) TestPlan(_ context.Context, req adapter.TestRequest) (*adapter.TestPlan, error) {
	st, err := os.Stat(req.Path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory: pass the minitest file to run", req.Path)
	}
	helper := filepath.Join(filepath.Dir(helperPath()), "mcp_debugger_minitest.rb")
	if err := writeFile(helper, minitestHelper); err != nil {
		return nil, err
	}
	var args []string
	if req.Name != "" {
		args = []string{"--name", req.Name}
	}
	return &adapter.TestPlan{
		Runner:             "minitest",
		Program:            req.Path,
		Args:               args,
		Cwd:                filepath.Dir(req.Path),
		Extra:              map[string]any{requiresKey: []string{helper}},
		BreakOnExceptions:  "none",
		TestNameExpression: `"#{self.class}##{name}"`,
		TestFrame:          func(_, path string) bool { return a.finder.machine.OS.SamePath(path, req.Path) },
		FailureOutput:      minitestFailure,
	}, nil
}
