package lldb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// The watchpoint probe (see adapter.Watchpoints): lldb-dap watches a
// global of a tiny C program that main writes five times.
const (
	// probeSource is the probe program. volatile keeps every write in
	// memory whatever the compiler's flags.
	probeSource = `/* mcp-debugger's hardware watchpoint probe: a debugger that
 * watches total must stop on the first write in main. */
volatile int total;

int main(void)
{
	for (int i = 0; i < 5; i++)
		total += 3;
	return total == 15 ? 0 : 1;
}
`
	probeFunction = "main"
	probeVariable = "total"
	// probeCompileTimeout bounds cc on the probe (~0.3 s here, once: the
	// binary is kept).
	probeCompileTimeout = 20 * time.Second
	// probeRunTimeout bounds the DAP run, lldb-dap's start included
	// (~0.5 s here, with two busy cores).
	probeRunTimeout = 10 * time.Second
)

// probeWatchpoints is lldb-dap's adapter.WatchpointProber: it runs when the
// finder finds an lldb-dap and cc is on PATH.
// docs/adapter-quirks.md: lldb-18.
func probeWatchpoints(ctx context.Context, f *finder) (ran, fired bool, detail string) {
	found, err := f.find(ctx, "")
	if err != nil {
		return false, false, err.Error()
	}
	if _, err := exec.LookPath("cc"); err != nil {
		return false, false, "no C compiler (cc) on PATH to build the probe program"
	}
	start := time.Now()
	bin, err := probeBinary(ctx)
	if err != nil {
		return false, false, err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, probeRunTimeout)
	defer cancel()
	cmd := exec.Command(found.path, "--no-lldbinit")
	transport, p, err := adapter.StartStdio(cmd, nil)
	if err != nil {
		return false, false, err.Error()
	}
	// Killing lldb-dap's group ends the probe program too (its child).
	defer p.Kill()
	fired, what, err := adapter.RunWatchProbe(ctx, adapter.WatchProbe{
		Transport: transport,
		AdapterID: adapterID,
		Launch:    launchArguments(adapter.LaunchConfig{}, bin, nil, false),
		Function:  probeFunction,
		Variable:  probeVariable,
	})
	if errors.Is(err, adapter.ErrNoDataBreakpoints) {
		return false, false, fmt.Sprintf("lldb-dap %s offers no data breakpoints", found.version)
	}
	if err != nil {
		return false, false, fmt.Sprintf("lldb-dap %s could not decide: %v", found.version, err)
	}
	return true, fired, fmt.Sprintf("lldb-dap %s watched a global of a C program: %s (%s)", found.version, what, time.Since(start).Round(time.Millisecond))
}

// probeFlags are tried in order: a static binary skips loading libc's
// symbols, which halves the probe (0.75 s against 1.6 s here, under
// load); not every toolchain has a static libc.
var probeFlags = [][]string{{"-g", "-O0", "-static"}, {"-g", "-O0"}}

// probeBinary returns the compiled probe program from the cache of
// compiled sources, building it when it is not there yet.
func probeBinary(ctx context.Context) (string, error) {
	root, err := cacheRoot()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(probeSource))
	bin := filepath.Join(root, "watchpoint-probe", hex.EncodeToString(sum[:12]), "probe")
	return adapter.CachedProbeProgram(bin, func(dir string) (string, error) {
		src := filepath.Join(dir, "probe.c")
		if err := os.WriteFile(src, []byte(probeSource), 0o644); err != nil {
			return "", err
		}
		ctx, cancel := context.WithTimeout(ctx, probeCompileTimeout)
		defer cancel()
		out := filepath.Join(dir, "probe")
		var errs []error
		for _, flags := range probeFlags {
			msg, err := runTool(ctx, dir, "cc", append(slices.Clone(flags), "-o", out, src)...)
			if err == nil {
				return out, nil
			}
			errs = append(errs, fmt.Errorf("cc %s: %w: %s", strings.Join(flags, " "), err, msg))
			if ctx.Err() != nil {
				break
			}
		}
		return "", errors.Join(errs...)
	})
}
