package ruby

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

const (
	// addressTimeout bounds the wait for rdbg's address line, printed
	// ~250 ms after the start (ruby plus the gem); more means it is stuck.
	addressTimeout = 20 * time.Second
	// exitWait bounds how long the exit code is waited for once the socket
	// has closed: the process is exiting by then.
	exitWait = 2 * time.Second
	// debuggerPrefix starts every line rdbg writes on the program's stderr.
	debuggerPrefix = "DEBUGGER:"
	// listeningMarker precedes the address in rdbg's
	// "DEBUGGER: Debugger can attach via TCP/IP (127.0.0.1:PORT)" (1.4.0
	// and 1.6.3 alike).
	listeningMarker = "Debugger can attach via TCP/IP ("
	// waitingMarker is in the line rdbg prints once the program sits at
	// its first line waiting for a client ("DEBUGGER: wait for debugger
	// connection...", 1.4.0 and 1.6.3 alike). Connecting earlier races
	// rdbg 1.4: the first stop's source listing can then be written to the
	// socket in its console protocol before our initialize is read, which
	// breaks the DAP stream.
	waitingMarker = "wait for debugger connection"
	// syncHelper makes the program's output unbuffered: its stdout is our
	// pipe, which Ruby would otherwise flush only at 8 KiB or at exit.
	// It also says which ruby really runs the program, on a line of
	// rdbg's kind (kept from the program's output): rdbg may be a wrapper
	// that runs it in a chroot or container, where "ruby" is another
	// interpreter than the one found here. Loaded by -r, it runs before
	// rdbg's own RUBYOPT -r, so the line comes before the address.
	syncHelper = "# Loaded by mcp-debugger (ruby -r): program output unbuffered.\n$stdout.sync = true\n$stderr.sync = true\n" +
		"require \"rbconfig\"\n$stderr.print \"" + debuggerPrefix + " " + runtimeMarker + "#{RUBY_VERSION} #{RbConfig.ruby}\\n\"\n"
	// runtimeMarker starts the sync helper's report of the ruby that runs
	// the program: "DEBUGGER: mcp-debugger runs ruby 3.3.8 /usr/bin/ruby".
	runtimeMarker = "mcp-debugger runs ruby "
)

// Launch spawns rdbg with the program, reads the port it listens on and
// connects.
func (a *Adapter) Launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	found, err := a.finder.find(ctx, cfg.ExecutablePath)
	if err != nil {
		return nil, a.unavailable(err)
	}
	ruby, why, err := programRuby(a.finder.machine, found)
	if err != nil {
		return nil, a.unavailable(err)
	}
	helper := helperPath()
	requires, err := requiresOf(cfg.Extra)
	if err != nil {
		return nil, err
	}
	preload := append([]string{helper}, requires...)
	env, unset, err := spawnEnv(cfg)
	if err != nil {
		return nil, err
	}
	gemfile := gemfileFor(cfg.Program, env)
	if gemfile != "" {
		preload = append([]string{bundlerHelperPath()}, preload...)
		env = withGemfile(env, gemfile)
	}
	command := launchCommand(found, ruby, preload, cfg.Program, cfg.Args)
	cwd, err := spawnCwd(cfg)
	if err != nil {
		return nil, err
	}
	args := map[string]any{"type": "rdbg", "request": "launch", "program": cfg.Program}
	for k, v := range cfg.Extra {
		if k != requiresKey {
			args[k] = v
		}
	}
	args["cwd"] = cwd
	mapPaths(args)
	d := dialectOf(found.version)
	if cfg.DryRun {
		runtime := runtimeLine(ruby, why, rubyVersion(ctx, ruby), gemfile)
		return &adapter.Connection{Request: "launch", Arguments: args, AdapterID: adapterID, Command: command, Runtime: runtime}, nil
	}
	if err := writeFile(helper, syncHelper); err != nil {
		return nil, err
	}
	if gemfile != "" {
		if err := writeFile(bundlerHelperPath(), bundlerHelper); err != nil {
			return nil, err
		}
	}
	srv, err := spawn(ctx, command, cwd, environ(env, unset), cfg.StdinFile, log)
	if err != nil {
		return nil, err
	}
	log.Debug("rdbg dialect", "version", found.version, "replacesBreakpoints", d.replacesBreakpoints)
	// What the program's own ruby said it is; what was found here only
	// when it said nothing.
	ranPath, version := srv.ran.path, srv.ran.version
	if version == "" {
		ranPath, version = ruby, rubyVersion(ctx, ruby)
	}
	runtime := runtimeLine(ranPath, why, version, gemfile)
	return &adapter.Connection{
		Transport: newTransport(srv.conn, log, transportOptions{dialect: d, exitCode: srv.exitCode}),
		Request:   "launch",
		Arguments: args,
		AdapterID: adapterID,
		Quirks:    quirks(d),
		Output: []adapter.OutputStream{
			{Category: "stdout", Reader: srv.stdout},
			{Category: "stderr", Reader: srv.stderr},
		},
		ExitCode: srv.exitCode,
		// rdbg runs the program in its own process and sends no process
		// event.
		DebuggeePid: srv.p.Pid,
		Command:     command,
		Runtime:     runtime,
		Cleanup:     srv.close,
	}, nil
}

// Path mapping arguments of launch and attach: rdbg 1.6 resolves the
// paths of setBreakpoints and of stack frames through them. Without
// either, over TCP, every setBreakpoints fails ("<path> is not available")
// and frames come with a sourceReference (measured on 1.6.3). rdbg 1.4
// ignores launch and attach arguments (its source, v1.4.0), so they are
// sent whatever the version.
const (
	// localFSKey (true) says rdbg and we share the filesystem.
	localFSKey = "localfs"
	// localFSMapKey ("remote:local,…") maps the paths of a program on
	// another filesystem; rdbg reads it only when localfs is not set.
	localFSMapKey = "localfsMap"
)

// mapPaths says the filesystem is shared unless the agent's own arguments
// map paths. rdbg keeps the first mapping a process is given for its
// whole life: a later client's is ignored.
// docs/adapter-quirks.md: rdbg-9.
func mapPaths(args map[string]any) {
	_, fs := args[localFSKey]
	_, fsMap := args[localFSMapKey]
	if !fs && !fsMap {
		args[localFSKey] = true
	}
}

// programRuby is the ruby that runs the program: the one that runs rdbg,
// else the one installed with it, else ruby on PATH.
func programRuby(m platform.Machine, found *rdbg) (ruby, why string, err error) {
	if found.ruby != "" {
		return found.ruby, "runs rdbg", nil
	}
	if found.ownRuby != "" && m.IsExecutable(found.ownRuby) {
		return found.ownRuby, "installed with " + found.path, nil
	}
	p, err := m.LookPath("ruby")
	if err != nil {
		return "", "", fmt.Errorf("no ruby on PATH to run the program with (rdbg is %s)", found.path)
	}
	return p, "PATH", nil
}

// launchCommand is rdbg on a port the kernel picks (printed on stderr),
// in command mode so that the exact ruby runs the program, with the sync
// helper loaded first. rdbg execs that command: its process is the
// program's.
func launchCommand(found *rdbg, ruby string, requires []string, program string, args []string) []string {
	cmd := found.command("--open", "--host", "127.0.0.1", "--port", "0", "-c", "--", ruby)
	for _, r := range requires {
		cmd = append(cmd, "-r", r)
	}
	cmd = append(cmd, program)
	return append(cmd, args...)
}

// requiresKey is the launch argument ("requires": files) that loads Ruby
// files before the program, as ruby -r does. rdbg 1.4 replaces RUBYOPT
// (1.6 appends to it), so this is the way to preload code that works on
// both (debug_test's minitest helper uses it).
const requiresKey = "requires"

func requiresOf(extra map[string]any) ([]string, error) {
	v, ok := extra[requiresKey]
	if !ok {
		return nil, nil
	}
	switch l := v.(type) {
	case []string:
		return l, nil
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%s must be a list of file paths, not %v", requiresKey, v)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s must be a list of file paths, not %v", requiresKey, v)
}

// helperPath is where the sync helper lives: the user's cache directory,
// else the temporary one.
func helperPath() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "mcp-debugger", "ruby", "mcp_debugger_sync.rb")
}

// bundlerHelperPath is where bundlerHelper lives, beside the sync helper.
func bundlerHelperPath() string {
	return filepath.Join(filepath.Dir(helperPath()), "mcp_debugger_bundler.rb")
}

// writeFile writes one of our Ruby helpers unless it is already there as
// it is; written aside then renamed, so that a concurrent launch never
// loads half a file.
func writeFile(p, content string) error {
	if b, err := os.ReadFile(p); err == nil && string(b) == content {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("ruby helper %s: %w", filepath.Base(p), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".helper-*.rb")
	if err != nil {
		return fmt.Errorf("ruby helper %s: %w", filepath.Base(p), err)
	}
	_, werr := tmp.WriteString(content)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("ruby helper %s: %v %v", filepath.Base(p), werr, cerr)
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("ruby helper %s: %w", filepath.Base(p), err)
	}
	return nil
}

// server is a running rdbg (the program itself) and our connection to it.
type server struct {
	p      *proc.Process
	conn   net.Conn
	stdout io.ReadCloser
	stderr *io.PipeReader
	ran    ranRuby
}

// ranRuby is the ruby that runs the program, as it reported itself
// (syncHelper); empty when it did not.
type ranRuby struct {
	version, path string
}

// parseRanRuby reads the sync helper's "DEBUGGER: mcp-debugger runs ruby
// 3.3.8 /usr/bin/ruby".
func parseRanRuby(line string) (ranRuby, bool) {
	_, rest, ok := strings.Cut(line, runtimeMarker)
	if !ok {
		return ranRuby{}, false
	}
	version, path, ok := strings.Cut(strings.TrimSpace(rest), " ")
	if !ok || version == "" || path == "" {
		return ranRuby{}, false
	}
	return ranRuby{version: version, path: path}, true
}

// close kills the program and closes what reads it; the output copiers
// then end.
func (s *server) close() {
	s.conn.Close()
	s.p.Kill()
	s.stdout.Close()
	s.stderr.Close()
}

// exitCode waits briefly for the program to exit and returns its code; a
// program killed by a signal has none.
func (s *server) exitCode() (int, bool) {
	select {
	case <-s.p.Done():
	case <-time.After(exitWait):
		return 0, false
	}
	c := s.p.ExitCode()
	return c, c >= 0
}

// spawn starts rdbg in its own process group, with the program's cwd and
// environment, reads the address from its stderr and connects.
// docs/adapter-quirks.md: rdbg-7.
func spawn(ctx context.Context, command []string, cwd string, envList []string, stdinFile string, log *slog.Logger) (*server, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = cwd
	cmd.Env = envList
	// rdbg's process is the program's: its standard input is the program's.
	stdinDone, err := adapter.GiveStdin(cmd, stdinFile)
	if err != nil {
		return nil, err
	}
	defer stdinDone()
	outR, errR, err := proc.OutputPipes(cmd)
	if err != nil {
		return nil, fmt.Errorf("rdbg output: %w", err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s: %w", command[0], err)
	}
	programErr, pw := io.Pipe()
	addrc := make(chan string, 1)
	tail := &debuggerLines{}
	var ran ranRuby
	// Ends when the program's stderr closes (it exited or was killed).
	// It writes ran before it sends on addrc.
	go splitStderr(errR, pw, addrc, &ran, tail, log)

	fail := func(err error) (*server, error) {
		p.Kill()
		outR.Close()
		programErr.Close()
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, addressTimeout)
	defer cancel()
	var addr string
	select {
	case addr = <-addrc:
	case <-p.Done():
		return fail(fmt.Errorf("rdbg exited (code %d) before listening: %s", p.ExitCode(), tail.String()))
	case <-ctx.Done():
		return fail(fmt.Errorf("rdbg did not print its address (%q): %w; it said: %s", listeningMarker, ctx.Err(), tail.String()))
	}
	conn, err := adapter.DialTCP(ctx, addr)
	if err != nil {
		return fail(err)
	}
	log.Debug("rdbg started", "addr", addr, "pid", p.Pid(), "cwd", cwd)
	return &server{p: p, conn: conn, stdout: outR, stderr: programErr, ran: ran}, nil
}

// splitStderr separates rdbg's own lines ("DEBUGGER: …", logged; the
// address among them is sent on addrc once rdbg has also said it waits)
// from the program's stderr, which goes to w. The sync helper's report of
// the ruby that runs the program, among rdbg's lines and before the
// address, goes to ran. It ends when r does, and then closes w.
//
// The two lines come in either order: rdbg's reader thread prints the
// address once it listens while the program's thread prints that it
// waits, concurrently (measured on 1.6.3: the waiting line came first in
// 2 of 40 starts). Only with both seen is the program held and the port
// open.
// docs/adapter-quirks.md: rdbg-1.
func splitStderr(r io.ReadCloser, w *io.PipeWriter, addrc chan<- string, ran *ranRuby, tail *debuggerLines, log *slog.Logger) {
	defer r.Close()
	defer w.Close()
	br := bufio.NewReader(r)
	addr, waiting, sent := "", false, false
	for {
		line, err := br.ReadString('\n')
		if strings.HasPrefix(line, debuggerPrefix) {
			log.Debug("rdbg", "line", strings.TrimSpace(line))
			tail.add(line)
			if a, ok := parseAddress(line); ok {
				addr = a
			}
			if r, ok := parseRanRuby(line); ok && !sent {
				*ran = r
			}
			waiting = waiting || strings.Contains(line, waitingMarker)
			if addr != "" && waiting && !sent {
				addrc <- addr
				sent = true
			}
		} else if line != "" {
			tail.add(line)
			// A reader that went away (the session closed) must not stop
			// the draining, or the program would block on a full pipe.
			_, _ = w.Write([]byte(line))
		}
		if err != nil {
			return
		}
	}
}

// parseAddress reads host:port from rdbg's
// "DEBUGGER: Debugger can attach via TCP/IP (127.0.0.1:40203)".
func parseAddress(line string) (string, bool) {
	_, rest, ok := strings.Cut(line, listeningMarker)
	if !ok {
		return "", false
	}
	addr, _, ok := strings.Cut(rest, ")")
	if !ok {
		return "", false
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return "", false
	}
	return addr, true
}

// debuggerLines keeps the last lines of stderr (rdbg's and the
// program's) for error messages.
type debuggerLines struct {
	mu    sync.Mutex
	lines []string
}

func (t *debuggerLines) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, strings.TrimSpace(line))
	if len(t.lines) > 20 {
		t.lines = t.lines[1:]
	}
}

func (t *debuggerLines) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) == 0 {
		return "(nothing)"
	}
	return strings.Join(t.lines, "; ")
}
