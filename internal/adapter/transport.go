package adapter

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/exec"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// stdioTransport is a DAP transport over a child's stdin and stdout.
type stdioTransport struct {
	io.Reader
	stdout io.Closer
	stdin  io.WriteCloser
}

func (t stdioTransport) Write(p []byte) (int, error) { return t.stdin.Write(p) }

// Close closes both pipes; closing stdout also ends a read in progress,
// even while a process that inherited the adapter's stdout lives on.
func (t stdioTransport) Close() error {
	err := t.stdin.Close()
	t.stdout.Close()
	return err
}

// StartStdio starts an adapter that speaks DAP on its stdin and stdout, in
// its own process group. Each line it writes to stderr is logged. The caller
// kills the process in the Connection's Cleanup.
func StartStdio(cmd *exec.Cmd, log *slog.Logger) (io.ReadWriteCloser, *proc.Process, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("adapter stdin: %w", err)
	}
	// Not StdoutPipe: its read end closes when the adapter exits, and the
	// adapter's last messages (terminated) must still be read.
	stdout, stderr, err := proc.OutputPipes(cmd)
	if err != nil {
		stdin.Close()
		return nil, nil, fmt.Errorf("adapter output: %w", err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		stdin.Close()
		stdout.Close()
		stderr.Close()
		return nil, nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	go func() {
		LogLines(stderr, log, cmd.Path)
		stderr.Close()
	}()
	return stdioTransport{Reader: stdout, stdout: stdout, stdin: stdin}, p, nil
}

// LogLines logs each line read from r until it ends; it is meant to run on
// its own goroutine, which ends with r (the child's exit closes it).
func LogLines(r io.Reader, log *slog.Logger, source string) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		log.Debug("adapter stderr", "source", source, "line", sc.Text())
	}
}

// DialTCP connects to a DAP server, retrying while it refuses (it may still
// be starting) until ctx ends.
func DialTCP(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return conn, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connect to debug adapter at %s: %w", addr, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
