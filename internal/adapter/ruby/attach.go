package ruby

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"strconv"
	"strings"
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
	mapRemoteRoots(args, cfg.PathMappings)
	mapPaths(args)
	opts := transportOptions{dialect: d, attach: true, pauseAfterConfiguration: cfg.StopOnEntry && !d.pausesOnAttach, resumeAttachStop: !cfg.StopOnEntry}
	return &adapter.Connection{
		Transport: newTransport(conn, cfg.Logger, opts),
		Request:   "attach",
		Arguments: args,
		AdapterID: adapterID,
		Quirks:    quirks(d),
		Cleanup:   func() { conn.Close() },
	}, nil
}

// mapRemoteRoots tells rdbg, for a program attached to with path mappings
// and no mapping arguments of the agent's own, that only the mapped remote
// roots are shared, each mapped to itself: the session translates them to
// the agent's roots. rdbg gives a sourceReference, and serves the text, only
// for a file outside every root it is told of (a gem installed in a
// container); with localfs it gives none for any file. A root rdbg's
// "remote:local,…" list cannot hold (one with a colon: C:\app) leaves
// localfs. docs/adapter-quirks.md: rdbg-9, rdbg-15.
func mapRemoteRoots(args map[string]any, mappings []adapter.PathMapping) {
	_, fs := args[localFSKey]
	_, fsMap := args[localFSMapKey]
	if fs || fsMap || len(mappings) == 0 {
		return
	}
	var pairs []string
	for _, m := range mappings {
		if strings.ContainsAny(m.RemoteRoot, ":,") {
			return
		}
		pairs = append(pairs, m.RemoteRoot+":"+m.RemoteRoot)
	}
	args[localFSMapKey] = strings.Join(pairs, ",")
}
