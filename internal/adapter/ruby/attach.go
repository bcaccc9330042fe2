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
// port. rdbg pauses it on attach. Its output stays where it was started.
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
	conn, err := adapter.DialTCP(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("%w (is rdbg --open listening there? %s)", err, openHint)
	}
	args := map[string]any{"type": "rdbg", "request": "attach"}
	maps.Copy(args, cfg.Extra)
	return &adapter.Connection{
		Transport: newTransport(conn, cfg.Logger),
		Request:   "attach",
		Arguments: args,
		AdapterID: adapterID,
		Quirks:    quirks(),
		Cleanup:   func() { conn.Close() },
	}, nil
}
