package ruby

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"strconv"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// attachDialTimeout bounds the connection to a waiting rdbg when the
// caller's context sets no deadline.
const attachDialTimeout = 10 * time.Second

// openHint is how to start a program that can be attached to.
const openHint = "start it with `rdbg --open --host 127.0.0.1 --port 12345 -- prog.rb` (or `-c -- ruby prog.rb`) and attach by host and port"

// Attach connects to a program started under `rdbg --open` on a TCP
// port. With stopOnEntry the program is paused after attaching: rdbg
// pauses one held at its first line (rdbg --open without --nonstop), and
// before 1.6 a running one too; from 1.6 the transport pauses a running
// one. Without, the program runs: the transport continues past rdbg's
// pause. Its output stays where it was started.
//
// The program's rdbg cannot be asked its version over DAP, so the dialect
// is that of the rdbg found here (the usual case: the same machine and
// gem); with none, the paths that work on every release are taken.
func (a *Adapter) Attach(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	if cfg.Port == 0 {
		if cfg.ProcessID != 0 {
			return nil, errors.New("rdbg cannot attach by processId: " + openHint)
		}
		return nil, errors.New("attach needs the host and port of an rdbg --open: " + openHint)
	}
	host := cfg.Host
	if host == "" {
		host = "127.0.0.1"
	}
	addr := net.JoinHostPort(host, strconv.Itoa(cfg.Port))
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, attachDialTimeout)
		defer cancel()
	}
	d := unknownDialect
	if found, err := a.finder.find(ctx, cfg.ExecutablePath); err == nil {
		d = dialectOf(found.version)
	} else if cfg.Logger != nil {
		cfg.Logger.Debug("rdbg version unknown for attach", "err", err)
	}
	conn, err := adapter.DialTCP(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("%w (is rdbg --open listening there? %s)", err, openHint)
	}
	args := map[string]any{"type": "rdbg", "request": "attach"}
	maps.Copy(args, cfg.Extra)
	mapPaths(args)
	opts := transportOptions{dialect: d, pauseAfterConfiguration: cfg.StopOnEntry && !d.pausesOnAttach, resumeAttachStop: !cfg.StopOnEntry}
	return &adapter.Connection{
		Transport: newTransport(conn, cfg.Logger, opts),
		Request:   "attach",
		Arguments: args,
		AdapterID: adapterID,
		Quirks:    quirks(d),
		Cleanup:   func() { conn.Close() },
	}, nil
}
