// Package mock is an in-process, deterministic fake debug adapter, for fast
// unit tests of the session engine and the MCP tools. It runs programs
// written in a tiny line-oriented language (.mock files; see
// testdata/mock/README.md for the language and the sample programs) and
// speaks DAP over an in-memory pipe, with the handshake order of debugpy,
// lldb-dap or Delve as the launch arguments choose.
package mock

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"maps"
	"path/filepath"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
)

func init() { adapter.Register(New()) }

// Adapter is the mock language's adapter. Besides the usual launch
// arguments it reads three from dapLaunchArgs: "launchResponse": "immediate"
// answers launch at once (like lldb-dap 19) instead of after
// configurationDone (like debugpy); "initializedAfterLaunch": true sends the
// initialized event only once launch has arrived (like Delve);
// "refuseBreakpoints": "message" fails every setBreakpoints with that
// message (like rdbg 1.6 for a path it does not map).
type Adapter struct{}

// New returns the mock adapter.
func New() *Adapter { return &Adapter{} }

// Language describes the mock language.
func (*Adapter) Language() adapter.Language {
	return adapter.Language{
		ID:          "mock",
		DisplayName: "Mock",
		Description: "In-process fake adapter for tests (no real debugger)",
		TestOnly:    true,
		VSCodeType:  "mock",
	}
}

// Check always succeeds: the adapter is part of this binary.
func (*Adapter) Check(context.Context) adapter.Availability {
	ok := adapter.ModeStatus{Supported: true, Available: true}
	return adapter.Availability{Installed: true, Version: "1.0", Launch: ok, Attach: ok}
}

// Launch starts a fake adapter that will run cfg.Program, a .mock file,
// read when the launch request arrives.
func (*Adapter) Launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cwd := cfg.Cwd
	if cwd == "" {
		cwd = filepath.Dir(cfg.Program)
	}
	progArgs := cfg.Args
	if progArgs == nil {
		progArgs = []string{}
	}
	args := map[string]any{
		"program":     cfg.Program,
		"args":        progArgs,
		"cwd":         cwd,
		"stopOnEntry": cfg.StopOnEntry,
	}
	maps.Copy(args, cfg.Extra)
	if cfg.DryRun {
		return &adapter.Connection{Request: "launch", Arguments: args, AdapterID: "mock", Command: []string{"(in-process mock adapter)"}}, nil
	}
	return start("launch", args, cfg.Logger)
}

// Attach starts a fake adapter as if attaching; there is no process to
// attach to, so the program to run comes from dapLaunchArgs.program.
func (*Adapter) Attach(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if prog, _ := cfg.Extra["program"].(string); prog == "" {
		if cfg.Port != 0 || cfg.ProcessID != 0 {
			return nil, errors.New("the mock adapter cannot attach to a port or process: pass the .mock file to run as dapLaunchArgs.program")
		}
		return nil, errors.New("mock attach needs dapLaunchArgs.program: the .mock file to run")
	}
	args := map[string]any{"stopOnEntry": cfg.StopOnEntry}
	maps.Copy(args, cfg.Extra)
	return start("attach", args, cfg.Logger)
}

// ServeDAP serves the mock adapter to one DAP client, with the default
// handshake order (launch answered after configurationDone).
func (*Adapter) ServeDAP(ctx context.Context, conn io.ReadWriteCloser, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := newServer(conn, handshake{}, log)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	s.serve()
	return ctx.Err()
}

// start serves DAP on one end of a pipe and returns the other; the
// Connection's Cleanup waits for the server, which waits in turn for the
// program's goroutine.
func start(request string, args map[string]any, log *slog.Logger) (*adapter.Connection, error) {
	hs, err := handshakeFrom(args)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return dapserver.StartOnPipe(adapter.Connection{
		Request:   request,
		Arguments: args,
		AdapterID: "mock",
		Quirks:    adapter.Quirks{EvaluateContext: "repl"},
	}, func(end io.ReadWriteCloser) { newServer(end, hs, log).serve() }), nil
}
