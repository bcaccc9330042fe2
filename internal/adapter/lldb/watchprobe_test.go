package lldb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// TestWatchpointProbeAgreesWithLLDB runs the real probe and checks its
// answer, whichever it is on this host, against plain lldb watching the
// same program from the command line.
func TestWatchpointProbeAgreesWithLLDB(t *testing.T) {
	testenv.RequireAdapter(t, langC)
	testenv.RequireTool(t, "apt-get install -y gcc", "cc")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f := newFinder()
	found, err := f.find(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ran, fired, detail := probeWatchpoints(ctx, f)
	t.Logf("probe (%s): ran=%v fired=%v: %s", time.Since(start).Round(time.Millisecond), ran, fired, detail)
	if !ran {
		t.Fatalf("the probe could not decide: %s", detail)
	}
	if !strings.Contains(detail, "lldb-dap "+found.version) {
		t.Errorf("the detail names the debugger: %q", detail)
	}

	cli := lldbBeside(found.path)
	if cli == "" {
		t.Skipf("no lldb command line beside %s to check the answer against", found.path)
	}
	bin, err := probeBinary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runTool(ctx, filepath.Dir(bin), cli, "--batch", "--no-lldbinit",
		"-o", "breakpoint set --name "+probeFunction, "-o", "run",
		"-o", "watchpoint set variable "+probeVariable, "-o", "continue", bin)
	if err != nil {
		t.Fatalf("%s: %v\n%s", cli, err, out)
	}
	cliFired := strings.Contains(out, "stop reason = watchpoint")
	if !cliFired && !strings.Contains(out, "exited with status") {
		t.Fatalf("lldb neither stopped on the watchpoint nor ran to the end:\n%s", out)
	}
	if cliFired != fired {
		t.Errorf("the probe says fired=%v, lldb's command line says %v:\n%s", fired, cliFired, out)
	}
}

// lldbBeside is the lldb command line installed with the lldb-dap at
// path (lldb-dap-22 → lldb-22), "" when there is none.
func lldbBeside(path string) string {
	name := strings.Replace(filepath.Base(path), "lldb-dap", "lldb", 1)
	if p := filepath.Join(filepath.Dir(path), name); adapter.IsExecutable(p) {
		return p
	}
	return ""
}
