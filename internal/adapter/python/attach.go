package python

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

// attachDialTimeout bounds the wait for a program's debugpy to accept when
// the caller's context sets no deadline (adapter.DialTCP retries while the
// port refuses, as it does while the program is starting).
const attachDialTimeout = 10 * time.Second

// listenHint is how to start a program that can be attached to.
const listenHint = "start the program with `python -m debugpy --listen 127.0.0.1:5678 prog.py` " +
	"(add --wait-for-client to hold it before its first line) and attach by host and port"

// sourceReferenceMappings switch on debugpy's source references: it gives
// a frame a sourceReference (and serves its text with the source request)
// only when pathMappings are in use and none applies to the frame's file.
// The session translates paths itself (session/pathmap.go), so debugpy is
// given a root no file is under: every frame keeps the program's path and
// gets a reference, and a file the agent has no copy of can still be
// shown. docs/adapter-quirks.md: debugpy-14.
var sourceReferenceMappings = []map[string]string{{"localRoot": "/.mcp-debugger-no-such-root", "remoteRoot": "/.mcp-debugger-no-such-root"}}

// Attach connects to the debug adapter of a program started with
// `python -m debugpy --listen HOST:PORT`: that port is served by debugpy's
// own adapter, which already holds the program's pydevd connection, so no
// local debugpy is needed. Attaching by process id is refused: debugpy
// injects itself with gdb and ptrace, which most machines (and containers)
// do not allow.
func (a *Adapter) Attach(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	if cfg.Port == 0 {
		if cfg.ProcessID != 0 {
			return nil, fmt.Errorf("attaching to a Python process by id (%d) is not supported: %s", cfg.ProcessID, listenHint)
		}
		return nil, errors.New("attach needs the port the program's debugpy listens on: " + listenHint)
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
		return nil, fmt.Errorf("%w (is the program running under debugpy? %s)", err, listenHint)
	}
	args := map[string]any{
		"type":            "python",
		"request":         "attach",
		"justMyCode":      true,
		"showReturnValue": true,
	}
	if len(cfg.PathMappings) > 0 {
		args["pathMappings"] = sourceReferenceMappings
	}
	maps.Copy(args, cfg.Extra)
	return &adapter.Connection{
		Transport: conn,
		Request:   "attach",
		Arguments: args,
		AdapterID: adapterID,
		Quirks:    attachQuirks(),
		AfterRead: adapter.QuickAck(conn),
		Cleanup:   func() { conn.Close() },
	}, nil
}
