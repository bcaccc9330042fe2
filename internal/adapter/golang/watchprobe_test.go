package golang

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// TestWatchpointProbeAgreesWithDelve runs the real probe and checks its
// answer, whichever it is on this host, against Delve's own command line
// watching the same program.
func TestWatchpointProbeAgreesWithDelve(t *testing.T) {
	testenv.RequireAdapter(t, languageID)
	goCmd := testenv.RequireTool(t, "https://go.dev/doc/install", "go")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	a := New()
	found, err := a.finder.find(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ran, fired, detail := a.probeWatchpoints(ctx)
	t.Logf("probe (%s): ran=%v fired=%v: %s", time.Since(start).Round(time.Millisecond), ran, fired, detail)
	if !ran && strings.Contains(detail, "offers no data breakpoints") {
		// Delve before 1.26 (1.25.2 measured) has no DAP data breakpoints:
		// nothing to compare with, and the prober made way for another.
		t.Skipf("this dlv cannot probe: %s", detail)
	}
	if !ran {
		t.Fatalf("the probe could not decide: %s", detail)
	}
	if !strings.Contains(detail, "dlv "+found.version) {
		t.Errorf("the detail names the debugger: %q", detail)
	}

	bin, err := probeBinary(ctx, goCmd, found.version)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "watch.dlv")
	commands := "break " + probeFunction + "\ncontinue\nwatch -w " + probeVariable + "\ncontinue\nexit\n"
	if err := os.WriteFile(script, []byte(commands), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(found.path, "exec", bin, "--init", script, "--allow-non-terminal-interactive=true")
	cmd.Dir = filepath.Dir(bin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := runBounded(ctx, cmd, 30*time.Second); err != nil {
		t.Fatalf("dlv: %v\n%s", err, out.String())
	}
	set := strings.Contains(out.String(), "Watchpoint "+probeVariable+" set") || strings.Contains(out.String(), "Watchpoint main."+probeVariable+" set")
	if !set {
		t.Fatalf("dlv did not set the watchpoint:\n%s", out.String())
	}
	cliFired := !strings.Contains(out.String(), "has exited with status")
	if cliFired != fired {
		t.Errorf("the probe says fired=%v, dlv's command line says %v:\n%s", fired, cliFired, out.String())
	}
}
