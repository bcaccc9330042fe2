package golang

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// addressTimeout bounds the wait for dlv's first line, which comes within tens
// of milliseconds (docs/adapter-quirks.md, delve-1); more means dlv is stuck.
const addressTimeout = 20 * time.Second

// listeningPrefix starts the line `dlv dap` prints once it listens.
const listeningPrefix = "DAP server listening at:"

// dapCommand is the command line of a DAP server on a port the kernel
// picks; dlv prints which.
//
// --check-go-version=false: a Delve older than the Go toolchain refuses
// the program. Measured with Delve 1.25.2 (supports Go up to 1.25) and Go
// 1.26.8: every launch failed after the build with "Version of Delve is
// too old for Go version go1.26.8 (maximum supported version 1.25,
// suppress this error with --check-go-version=false)"; with the flag the
// same Delve breaks, steps, evaluates and lists goroutines as this
// project's Go tests expect (make test-matrix). VS Code's Go extension
// starts `dlv dap` with the same flag. Delve then writes "WARNING:
// undefined behavior - version of Delve is too old …" on its stderr,
// which startDAPServer passes on to the agent as console output.
// docs/adapter-quirks.md: delve-14.
func dapCommand(dlvPath string) []string {
	return []string{dlvPath, "dap", "--listen=127.0.0.1:0", "--check-go-version=false"}
}

// dapServer is a running `dlv dap` and our connection to it.
type dapServer struct {
	p    *proc.Process
	conn net.Conn
	// warnings carries Delve's own warnings (stderr lines starting with
	// "WARNING:") as console output; it ends when dlv's stderr does or
	// the server is closed.
	warnings *io.PipeReader
}

func (s *dapServer) close() {
	s.conn.Close()
	s.p.Kill()
	// Unblocks the stderr reader if nobody reads the warnings.
	s.warnings.Close()
}

// transport is the DAP connection to hand the session: Delve's own, with
// exited events added for a Delve that sends none (exitcode.go).
func (s *dapServer) transport(version string) io.ReadWriteCloser {
	if sendsExitedEvents(version) {
		return s.conn
	}
	return withExitedEvents(s.conn)
}

// output is the Connection.Output of a session on this server.
func (s *dapServer) output() []adapter.OutputStream {
	return []adapter.OutputStream{{Category: "console", Reader: s.warnings}}
}

// delveWarning prefixes the warnings Delve writes on stderr (its
// logflags.WriteError), such as the one --check-go-version=false turns an
// old Delve's refusal into.
const delveWarning = "WARNING:"

// upgradeNote follows a Delve warning in the agent's output.
const upgradeNote = " (mcp-debugger: debugging anyway; to upgrade Delve: " + installHint + ")"

// startDAPServer starts `dlv dap` in its own process group in dir, reads
// the address from its first stdout line and connects.
func startDAPServer(ctx context.Context, command []string, dir string, log *slog.Logger) (srv *dapServer, err error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	stdout, stderr, err := proc.OutputPipes(cmd)
	if err != nil {
		return nil, fmt.Errorf("dlv output: %w", err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		stdout.Close()
		stderr.Close()
		return nil, fmt.Errorf("start %s: %w", command[0], err)
	}
	tail := &lineTail{}
	warnr, warnw := io.Pipe()
	defer func() {
		if srv == nil {
			// Unblocks the stderr reader: no session will read.
			warnr.Close()
		}
	}()
	tail.onLine = func(line string) {
		if strings.HasPrefix(line, delveWarning) {
			// An error means the server was closed: nobody reads.
			_, _ = io.WriteString(warnw, "dlv: "+line+upgradeNote+"\n")
		}
	}
	// Both readers end when dlv (and whatever inherited its output) has
	// exited and the pipes are drained; they close their ends.
	go func() {
		tail.read(stderr, log, "dlv stderr")
		stderr.Close()
		warnw.Close()
	}()
	addrc := make(chan string, 1)
	go func() {
		readAddress(stdout, addrc, log)
		stdout.Close()
	}()

	ctx, cancel := context.WithTimeout(ctx, addressTimeout)
	defer cancel()
	var addr string
	select {
	case addr = <-addrc:
	case <-p.Done():
		return nil, fmt.Errorf("dlv exited (code %d) before listening: %s", p.ExitCode(), tail.String())
	case <-ctx.Done():
		p.Kill()
		return nil, fmt.Errorf("dlv did not print its address (%s…): %w; its stderr: %s", listeningPrefix, ctx.Err(), tail.String())
	}
	if addr == "" {
		p.Kill()
		return nil, fmt.Errorf("dlv printed no address (expected %q first); its stderr: %s", listeningPrefix, tail.String())
	}
	conn, err := adapter.DialTCP(ctx, addr)
	if err != nil {
		p.Kill()
		return nil, err
	}
	log.Debug("dlv dap started", "addr", addr, "pid", p.Pid(), "dir", dir)
	return &dapServer{p: p, conn: conn, warnings: warnr}, nil
}

// readAddress sends the address of dlv's listening line (or "" if its
// first line is something else, or stdout ends first), then logs the rest
// of stdout until it closes.
// docs/adapter-quirks.md: delve-1.
func readAddress(r io.Reader, addrc chan<- string, log *slog.Logger) {
	br := bufio.NewReader(r)
	line, err := br.ReadString('\n')
	addr, ok := parseListening(line, listeningPrefix)
	if !ok {
		log.Debug("dlv stdout", "line", strings.TrimSpace(line))
	}
	addrc <- addr
	if err != nil {
		return
	}
	adapter.LogLines(br, log, "dlv stdout")
}

// parseListening reads host:port after prefix, as Delve prints it:
// "DAP server listening at: 127.0.0.1:40203" (dap) or "API server
// listening at: 127.0.0.1:40203" (headless).
func parseListening(line, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), prefix)
	if !ok {
		return "", false
	}
	addr := strings.TrimSpace(rest)
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return "", false
	}
	return addr, true
}

// lineTail logs lines and keeps the last few for error messages.
type lineTail struct {
	mu    sync.Mutex
	lines []string
	// onLine, when set before read starts, sees every line.
	onLine func(string)
}

const tailLines = 20

func (t *lineTail) read(r io.Reader, log *slog.Logger, source string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		log.Debug(source, "line", sc.Text())
		if t.onLine != nil {
			t.onLine(sc.Text())
		}
		t.mu.Lock()
		t.lines = append(t.lines, sc.Text())
		if len(t.lines) > tailLines {
			t.lines = t.lines[1:]
		}
		t.mu.Unlock()
	}
}

func (t *lineTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) == 0 {
		return "(nothing)"
	}
	return strings.Join(t.lines, "\n")
}
