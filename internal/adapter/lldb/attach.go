package lldb

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// attachTimeout bounds the attach handshake: LLDB stops the process and
// reads its symbols.
const attachTimeout = time.Minute

// ptraceScope is the Yama setting that decides who may attach.
const ptraceScope = "/proc/sys/kernel/yama/ptrace_scope"

// Attach attaches a new lldb-dap to a local process by id, or to a
// program served by a gdb-remote stub (`lldb-server gdbserver HOST:PORT --
// prog`, gdbserver) by host and port.
func (a *Adapter) Attach(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	if cfg.ProcessID == 0 {
		if cfg.Port == 0 {
			return nil, errors.New("lldb-dap attaches to a local process by processId, or by host and port to a program served by `lldb-server gdbserver HOST:PORT -- prog`")
		}
		return a.attachRemote(ctx, cfg)
	}
	if !proc.Alive(cfg.ProcessID) {
		return nil, fmt.Errorf("no process %d on this machine", cfg.ProcessID)
	}
	if err := ptraceAllowed(cfg.ProcessID); err != nil {
		return nil, err
	}
	if tracer := tracerOf(cfg.ProcessID); tracer != 0 {
		return nil, fmt.Errorf("cannot attach to process %d: ptrace permission: it is already traced by process %d (another debugger?); a process has one tracer at a time, so detach that one first", cfg.ProcessID, tracer)
	}
	args := map[string]any{
		"type":        "lldb-dap",
		"request":     "attach",
		"name":        fmt.Sprintf("pid %d", cfg.ProcessID),
		"pid":         cfg.ProcessID,
		"stopOnEntry": cfg.StopOnEntry,
	}
	exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", cfg.ProcessID))
	return a.startAttach(ctx, cfg, args, exe)
}

// attachRemote attaches to the program a gdb-remote stub serves at
// cfg.Host:cfg.Port. The address goes in a `gdb-remote` attach command, not
// in lldb-dap's "gdb-remote-hostname"/"gdb-remote-port" arguments: with
// those, lldb-dap 22.1.8 reports the stop the stub holds the program in
// (a freshly launched one is stopped at its first instruction) as a
// stopped event before configurationDone, then resumes it, and that stale
// stop reads as the first stop of the session. The command's way reports
// nothing and behaves like an attach by pid. The executable, for its
// symbols, is the attach's "program" when the agent passes one in
// adapterConfig; without it LLDB reads the file the stub names, from the
// stub when this machine has no file at that path.
// docs/adapter-quirks.md: lldb-23, lldb-24.
func (a *Adapter) attachRemote(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	host := cfg.Host
	if host == "" {
		host = "127.0.0.1"
	}
	addr := net.JoinHostPort(host, strconv.Itoa(cfg.Port))
	program, _ := cfg.Extra["program"].(string)
	if program != "" {
		// Checked before connecting: the stub serves one connection.
		if _, err := os.Stat(program); err != nil {
			return nil, fmt.Errorf("adapterConfig.program %s: %w: it must be this machine's copy of the binary the stub at %s runs, for LLDB to read its symbols", program, err, addr)
		}
	}
	args := map[string]any{
		"type":           "lldb-dap",
		"request":        "attach",
		"name":           addr,
		"attachCommands": []string{remoteCommand + addr, executableCheck},
		"stopOnEntry":    cfg.StopOnEntry,
		// A failed connection does not fail the attach: lldb-dap goes on
		// waiting for a stop that cannot come, for "timeout" seconds (30
		// by default). A stub holds its program stopped already, so its
		// stop comes at once.
		"timeout": remoteStopTimeout,
	}
	conn, err := a.startAttach(ctx, cfg, args, program)
	if err != nil {
		return nil, err
	}
	conn.Quirks.IsNoise = withoutConnectReport(conn.Quirks.IsNoise)
	conn.ExplainFailure = func(text string) (string, string, bool) { return explainNoExecutable(text, addr) }
	return conn, nil
}

// executableCheck fails the attach (lldb-dap's "!" prefix; "?" keeps its
// output quiet when it succeeds) when LLDB found no executable for the
// stub's process: a gdb-remote stub sends none, and LLDB reads it only
// from this machine, at the path the stub names or adapterConfig.program.
// Without it no breakpoint binds and no frame has a line, and the program
// would run unobserved. docs/adapter-quirks.md: lldb-25.
const executableCheck = "?!image list"

// noExecutable is what LLDB says to executableCheck without an executable.
const noExecutable = "no associated executable images"

// explainNoExecutable explains executableCheck's failure (lldb-dap answers
// "Failed to run attach commands", LLDB's reason is in its output, both
// in text): what is missing, and the attach that works. A failed
// connection fails the check too: LLDB's first error is then the reason.
func explainNoExecutable(text, addr string) (msg, hint string, ok bool) {
	_, firstError, _ := strings.Cut(text, "error:")
	firstError, _, _ = strings.Cut(firstError, "\n")
	if !strings.Contains(firstError, noExecutable) {
		return "", "", false
	}
	msg = fmt.Sprintf("LLDB has no executable for the program the stub at %s runs: its binary is not on this machine at the path the stub names, so no breakpoint could bind and no frame would show source", addr)
	hint = `attach again with adapterConfig: {"program": "<this machine's copy of that binary, e.g. ./build/prog>"} (the same build, with its debug information; pathMappings maps its source paths); lldb-server gdbserver serves one connection: if it has ended, start the program under it again first`
	return msg, hint, true
}

// remoteStopTimeout is how many seconds lldb-dap waits for the program's
// stop once connected to its stub.
const remoteStopTimeout = 10

// remoteCommand connects LLDB to a gdb-remote stub at the address that follows.
const remoteCommand = "gdb-remote "

// withoutConnectReport extends isNoise to what LLDB prints while it runs
// remoteCommand: the command's echo, then the stop it finds the program in
// ("Process N stopped", a thread line, a "frame #0" line), which is no stop
// of the agent's. An error ends the report and stays: it is the reason a
// failed attach gives. docs/adapter-quirks.md: lldb-5, lldb-23, lldb-24.
func withoutConnectReport(isNoise func(category, text string) bool) func(category, text string) bool {
	var inReport atomic.Bool
	return func(category, text string) bool {
		if category != "console" {
			return false
		}
		t := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(t, "(lldb) "+remoteCommand):
			inReport.Store(true)
			return true
		case inReport.Load() && strings.HasPrefix(t, "error:"):
			inReport.Store(false)
			return false
		case inReport.Load():
			if strings.HasPrefix(t, "frame #") {
				inReport.Store(false)
			}
			return true
		}
		return isNoise(category, text)
	}
}

// startAttach starts lldb-dap with the attach arguments args, completed by
// the agent's adapterConfig; exe, when known, is the program's executable,
// whose directory decides the Rust toolchain (rust-toolchain.toml).
func (a *Adapter) startAttach(ctx context.Context, cfg adapter.AttachConfig, args map[string]any, exe string) (*adapter.Connection, error) {
	found, err := a.finder.find(ctx, cfg.ExecutablePath)
	if err != nil {
		return nil, a.unavailable(err)
	}
	panics := a.lang.ID == langRust && cfg.BreakOnExceptions != "none"
	if a.lang.ID == langRust {
		// A program behind a stub has no local directory to pick its
		// toolchain by: the server's own directory, the agent's workspace,
		// is the next best guess.
		dir := "."
		if exe != "" {
			dir = filepath.Dir(exe)
		}
		if cmds := rustFormatters(ctx, dir, target{kind: kindBinary, path: exe}); len(cmds) > 0 {
			args["initCommands"] = cmds
		}
	}
	maps.Copy(args, cfg.Extra)
	if panics {
		withPanicBreakpoint(args)
	}
	return start([]string{found.path}, "attach", args, cfg.Logger, attachTimeout, panics)
}

// ptraceAllowed explains, before LLDB fails with a bare "Operation not
// permitted", when the kernel's ptrace policy forbids attaching to pid.
func ptraceAllowed(pid int) error {
	b, err := os.ReadFile(ptraceScope)
	if err != nil {
		return nil // no Yama: ordinary permission rules, LLDB says the rest
	}
	scope := strings.TrimSpace(string(b))
	root := os.Geteuid() == 0
	switch {
	case scope == "3":
		return fmt.Errorf("cannot attach to process %d: ptrace is disabled on this machine (%s = 3; only a reboot re-enables it)", pid, ptraceScope)
	case scope == "2" && !root:
		return fmt.Errorf("cannot attach to process %d: ptrace permission: %s = 2 allows only root (CAP_SYS_PTRACE) to attach; run the server as root or set it to 0 or 1", pid, ptraceScope)
	case scope == "1" && !root && !isDescendant(pid):
		return fmt.Errorf("cannot attach to process %d: ptrace permission: %s = 1 allows attaching only to this server's own descendants; run `sudo sysctl kernel.yama.ptrace_scope=0`, or start the program with start_debugging instead", pid, ptraceScope)
	}
	return nil
}

// isDescendant reports whether pid descends from this process.
func isDescendant(pid int) bool {
	self := os.Getpid()
	for p, hops := pid, 0; p > 1 && hops < 64; hops++ {
		if p == self {
			return true
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			return false
		}
		// Fields after the parenthesised command: state, ppid, …
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		var state byte
		var ppid int
		if i < 0 {
			return false
		}
		if _, err := fmt.Sscanf(s[i+1:], " %c %d", &state, &ppid); err != nil {
			return false
		}
		p = ppid
	}
	return false
}

// tracerOf is the pid of the process ptrace-attached to pid, 0 when none:
// a second attach fails with a bare "Operation not permitted".
func tracerOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "TracerPid:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}
