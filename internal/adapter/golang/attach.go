package golang

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
)

// attachDialTimeout bounds the connection to a headless dlv when the
// caller's context sets no deadline.
const attachDialTimeout = 10 * time.Second

// headlessHint is how to start a program that can be attached to by port.
const headlessHint = "start it with `dlv exec --headless --accept-multiclient --listen 127.0.0.1:2345 ./prog` " +
	"(or `dlv debug --headless …` in its package) and attach by host and port, or attach by processId"

// Attach attaches to a running program: by processId through a dlv of
// ours (mode local), or by host and port to a headless dlv that already
// holds the program (mode remote).
func (a *Adapter) Attach(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	if cfg.Port != 0 {
		return attachRemote(ctx, cfg)
	}
	if cfg.ProcessID == 0 {
		return nil, errors.New("attach needs a processId or the host and port of a headless dlv: " + headlessHint)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	found, err := a.finder.find(ctx, cfg.ExecutablePath)
	if err != nil {
		return nil, unavailable(err)
	}
	args := map[string]any{
		"type":        "go",
		"request":     "attach",
		"mode":        "local",
		"processId":   cfg.ProcessID,
		"stopOnEntry": cfg.StopOnEntry,
	}
	maps.Copy(args, cfg.Extra)
	command := dapCommand(found.path)
	dir, _ := os.Getwd()
	srv, err := startDAPServer(ctx, command, dir, log)
	if err != nil {
		return nil, err
	}
	return &adapter.Connection{
		Transport: srv.transport(found.version),
		Request:   "attach",
		Arguments: args,
		AdapterID: adapterID,
		// Attaching reads the binary's debug information: seconds for a
		// big one.
		LaunchTimeout: time.Minute,
		Quirks:        quirks(nil),
		Command:       command,
		Output:        srv.output(),
		// Delve sends no process event; the program is the one attached to.
		DebuggeePid: func() int { return cfg.ProcessID },
		Cleanup:     srv.close,
	}, nil
}

// attachRemote connects to a headless, multi-client dlv.
func attachRemote(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
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
		return nil, fmt.Errorf("%w (is a headless dlv listening there? %s)", err, headlessHint)
	}
	args := map[string]any{
		"type":        "go",
		"request":     "attach",
		"mode":        "remote",
		"stopOnEntry": cfg.StopOnEntry,
	}
	maps.Copy(args, cfg.Extra)
	return &adapter.Connection{
		Transport: conn,
		Request:   "attach",
		Arguments: args,
		AdapterID: adapterID,
		Quirks:    quirks(nil),
		Cleanup:   func() { conn.Close() },
	}, nil
}
