package lldb

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// attachTimeout bounds the attach handshake: LLDB stops the process and
// reads its symbols.
const attachTimeout = time.Minute

// ptraceScope is the Yama setting that decides who may attach.
const ptraceScope = "/proc/sys/kernel/yama/ptrace_scope"

// Attach attaches a new lldb-dap to a local process by id.
func (a *Adapter) Attach(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	if cfg.ProcessID == 0 {
		return nil, errors.New("lldb-dap attaches to a local process: pass its processId (host and port are for other adapters' debug servers)")
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
	found, err := a.finder.find(ctx, cfg.ExecutablePath)
	if err != nil {
		return nil, a.unavailable(err)
	}
	args := map[string]any{
		"type":        "lldb-dap",
		"request":     "attach",
		"name":        fmt.Sprintf("pid %d", cfg.ProcessID),
		"pid":         cfg.ProcessID,
		"stopOnEntry": cfg.StopOnEntry,
	}
	panics := a.lang.ID == langRust && cfg.BreakOnExceptions != "none"
	if a.lang.ID == langRust {
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", cfg.ProcessID)); err == nil {
			if cmds := rustFormatters(ctx, filepath.Dir(exe), target{kind: kindBinary, path: exe}); len(cmds) > 0 {
				args["initCommands"] = cmds
			}
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
