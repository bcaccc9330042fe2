package golang

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// The watchpoint probe (see adapter.Watchpoints), for hosts with Delve but
// no lldb-dap or C compiler: Delve watches a global of a tiny Go program
// that main writes five times. It is registered as a fallback: a Go build
// costs more than a C one (0.3 s on a warm build cache, 7 s on a cold one,
// here), and the binary is kept in the user's cache directory.
const (
	probeSource = `// mcp-debugger's hardware watchpoint probe: a debugger that watches
// total must stop on the first write in main.
package main

var total int

func main() {
	for i := 0; i < 5; i++ {
		total += 3
	}
}
`
	// probeGoMod is old enough for any toolchain that Delve supports.
	probeGoMod      = "module probe\n\ngo 1.18\n"
	probeFunction   = "main.main"
	probeVariable   = "total"
	probeBuildLimit = time.Minute
	// probeRunTimeout bounds the DAP run, dlv's start included.
	probeRunTimeout = 10 * time.Second
)

// probeWatchpoints is Delve's adapter.WatchpointProber: it runs when the
// finder finds dlv and the go command is on PATH.
// docs/adapter-quirks.md: delve-13.
func (a *Adapter) probeWatchpoints(ctx context.Context) (ran, fired bool, detail string) {
	found, err := a.finder.find(ctx, "")
	if err != nil {
		return false, false, err.Error()
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return false, false, "no go command on PATH to build the probe program"
	}
	start := time.Now()
	bin, err := probeBinary(ctx, goCmd, found.version)
	if err != nil {
		return false, false, err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, probeRunTimeout)
	defer cancel()
	srv, err := startDAPServer(ctx, dapCommand(found.path), filepath.Dir(bin), slog.New(slog.DiscardHandler))
	if err != nil {
		return false, false, fmt.Sprintf("dlv %s could not decide: %v", found.version, err)
	}
	defer srv.close()
	fired, what, err := adapter.RunWatchProbe(ctx, adapter.WatchProbe{
		Transport: srv.conn,
		AdapterID: adapterID,
		Launch:    launchArguments(adapter.LaunchConfig{}, modeExec, bin, ""),
		Function:  probeFunction,
		Variable:  probeVariable,
	})
	if errors.Is(err, adapter.ErrNoDataBreakpoints) {
		return false, false, fmt.Sprintf("dlv %s offers no data breakpoints", found.version)
	}
	if err != nil {
		return false, false, fmt.Sprintf("dlv %s could not decide: %v", found.version, err)
	}
	return true, fired, fmt.Sprintf("dlv %s watched a global of a Go program: %s (%s)", found.version, what, time.Since(start).Round(time.Millisecond))
}

// probeBinary returns the built probe program from the user's cache,
// building it when it is not there yet. The key holds Delve's version: a
// Delve upgrade may drop the Go release that built the old one.
func probeBinary(ctx context.Context, goCmd, dlvVersion string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the watchpoint probe: %w", err)
	}
	sum := sha256.Sum256([]byte(probeSource + "\x00" + dlvVersion))
	bin := filepath.Join(cache, "mcp-debugger", "go-watchpoint-probe", hex.EncodeToString(sum[:12]), "probe")
	return adapter.CachedProbeProgram(bin, func(dir string) (string, error) {
		for name, text := range map[string]string{"main.go": probeSource, "go.mod": probeGoMod} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				return "", err
			}
		}
		out := filepath.Join(dir, "probe")
		// -N -l for the main package only: the standard library stays as
		// the build cache has it.
		cmd := exec.Command(goCmd, "build", "-gcflags=-N -l", "-o", out, ".")
		cmd.Dir = dir
		// The user's GOFLAGS (-mod=vendor), go.work, cross-compilation
		// settings or toolchain switching must not reach this build, nor
		// need cgo a C compiler.
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOOS=", "GOARCH=", "GO111MODULE=on")
		var msg bytes.Buffer
		cmd.Stdout, cmd.Stderr = &msg, &msg
		if err := runBounded(ctx, cmd, probeBuildLimit); err != nil {
			return "", fmt.Errorf("%w: %s", err, strings.TrimSpace(msg.String()))
		}
		return out, nil
	})
}

// runBounded runs cmd in its own process group, killed with everything it
// started when ctx ends or limit passes.
func runBounded(ctx context.Context, cmd *exec.Cmd, limit time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	p, err := proc.Start(cmd)
	if err != nil {
		return fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	select {
	case <-p.Done():
	case <-ctx.Done():
		p.Kill()
		return fmt.Errorf("%s: %w", filepath.Base(cmd.Path), ctx.Err())
	}
	if code := p.ExitCode(); code != 0 {
		return fmt.Errorf("%s exited with %d", filepath.Base(cmd.Path), code)
	}
	return nil
}
