package python

// TCP_NODELAY on debugpy's own sockets.
//
// A launched debugpy session is three processes: the adapter (which speaks
// DAP to us over stdio), the launcher, and the debuggee, where pydevd runs
// inside the user's program. The adapter and pydevd talk over a local TCP
// connection with Nagle's algorithm on at both ends. Each side writes
// messages back to back (a response, then a "stopped" event; a request,
// then the next one the adapter derives from ours), so the second send
// waits for the peer's ACK, which Linux delays by up to 40 ms: every step,
// continue, evaluate and stack request stalls ~40 ms. Medians measured with this package's
// BenchmarkDebugpyNoDelay (debugpy 1.6.3, Python 3.11): step 44 → 21 ms,
// continue 52 → 10.6 ms, evaluate 52 → 10.5 ms; first stop ~585 → ~390 ms.
// What remains is pydevd's own: a suspended thread polls for commands
// every 10 ms (time.sleep(0.01) in PyDB._do_wait_suspend), and requests
// sent back to back fall in step with that poll.
//
// The fix is TCP_NODELAY on debugpy's sockets, and only on them:
//
//   - The adapter process runs nothing but debugpy's adapter, so it is
//     started through scripts/adapter.py (passed with -c), which makes
//     every socket it accepts or connects TCP_NODELAY, then runs
//     debugpy.adapter as __main__, as `-m debugpy.adapter` would.
//   - The debuggee is the user's program: a process-wide patch would
//     change the program's own sockets, and a sitecustomize.py on
//     PYTHONPATH would shadow the user's own sitecustomize. Instead the
//     launch request's "python" (the command debugpy's launcher runs the
//     debuggee with) is [python, -X frozen_modules=off,
//     scripts/mcp_debugger_debugpy_launcher.py]. That script sees the
//     launcher's arguments (<debugpy dir> --connect HOST:PORT … program),
//     hooks socket.socket.connect for exactly one connection, to HOST:PORT,
//     sets TCP_NODELAY on it and removes the hook, then runs the debugpy
//     directory as __main__ with sys.argv and sys.path as a plain launch
//     leaves them. By the time the program's first line runs, socket.socket
//     is untouched. The script is written once to the user's cache
//     directory; its name ends in "debugpy_launcher.py", which debugpy
//     hides from stack traces and never traces, so the program's stack
//     looks as it does without it.
//   - The launcher's own connection (output events) was measured without
//     a stall and is left alone.
//
// MCP_DEBUGGER_DEBUGPY_NODELAY=0 turns all of this off, for measuring and
// as a way out should a debugpy release change its command lines.

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// stdinEnv names, in the debuggee's environment, the file the shim makes
// the program's standard input before it runs (debugpy's launcher gives
// the debuggee the adapter's stdin, which is not the program's to read).
// The shim removes it from the environment: the program never sees it.
// docs/adapter-quirks.md: debugpy-17.
const stdinEnv = "MCP_DEBUGGER_STDIN"

// noDelayEnv, set to "0", disables the TCP_NODELAY bootstraps.
const noDelayEnv = "MCP_DEBUGGER_DEBUGPY_NODELAY"

// debuggeeShimName must end in "debugpy_launcher.py" (see above).
const debuggeeShimName = "mcp_debugger_debugpy_launcher.py"

//go:embed scripts/adapter.py
var adapterBootstrap string

//go:embed scripts/mcp_debugger_debugpy_launcher.py
var debuggeeShim string

// noDelayEnabled reports whether debugpy's sockets get TCP_NODELAY.
func noDelayEnabled() bool { return os.Getenv(noDelayEnv) != "0" }

// adapterArgs are the arguments that run debugpy's adapter under python.
// docs/adapter-quirks.md: debugpy-1.
func adapterArgs(nodelay bool) []string {
	mode := "plain"
	if nodelay {
		mode = "nodelay"
	}
	return []string{"-c", adapterBootstrap, mode}
}

// debuggeePython is the launch request's "python": the program's
// interpreter, with the shim when there is one. Interpreter options go
// before the script, where the interpreter sees them; pythonArgs would
// land after it.
func debuggeePython(prog *interpreter, shim string, pythonArgs []string) []string {
	py := append([]string{prog.Path}, pythonArgs...)
	if shim == "" {
		return py
	}
	if prog.atLeast(3, 11) {
		// What debugpy's launcher adds for 3.11+, where it would now fall
		// after the script (debugpy issue 861: frozen stdlib modules make
		// breakpoints in them unreliable).
		py = append(py, "-X", "frozen_modules=off")
	}
	return append(py, shim)
}

var (
	scriptsMu   sync.Mutex
	scriptsDirs = map[string]string{}
)

// scriptFiles are the scripts that run as files rather than with -c: the
// debuggee shim, whose file name matters, deps.py, which re-executes
// itself, the pytest plugin, which pytest imports, and the recorder, whose
// directory tells its frames from the user's.
func scriptFiles() map[string]string {
	return map[string]string{debuggeeShimName: debuggeeShim, depsScriptName: depsScript, pytestPluginFile: pytestPlugin, recorderFile: recorderScript}
}

// installScripts writes the script files under root, once per content: the
// directory is named by their hash, so that servers of other versions never
// rewrite a file in use. It returns that directory.
func installScripts(root string) (string, error) {
	scriptsMu.Lock()
	defer scriptsMu.Unlock()
	files := scriptFiles()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		fmt.Fprintf(h, "%s\x00%d\x00%s", name, len(files[name]), files[name])
	}
	dir := filepath.Join(root, hex.EncodeToString(h.Sum(nil)[:6]))
	if d, ok := scriptsDirs[root]; ok && d == dir && scriptsPresent(dir, files) {
		return dir, nil
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", fmt.Errorf("debugpy scripts: %w", err)
		}
		if b, err := os.ReadFile(path); err == nil && string(b) == files[name] {
			continue
		}
		if err := writeAtomic(path, files[name]); err != nil {
			return "", fmt.Errorf("debugpy scripts: %w", err)
		}
	}
	scriptsDirs[root] = dir
	return dir, nil
}

func scriptsPresent(dir string, files map[string]string) bool {
	for name := range files {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return false
		}
	}
	return true
}

// writeAtomic writes aside and renames, so that a concurrent server never
// runs half a file.
func writeAtomic(path, content string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".script-*")
	if err != nil {
		return err
	}
	_, werr := tmp.WriteString(content)
	cerr := tmp.Close()
	if err := firstErr(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// scriptsRoot is where the script files live: the user's cache directory.
func scriptsRoot() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "mcp-debugger", "debugpy"), nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
