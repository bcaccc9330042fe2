// Package node debugs JavaScript and TypeScript on Node.js. No DAP adapter
// for Node is published in a package registry, so this one is built in: a
// DAP server written in Go that drives Node's own inspector (the Chrome
// DevTools Protocol over a WebSocket; package cdp). The session engine
// talks DAP to it in-process, over a pipe; `mcp-debugger adapter
// javascript` serves it on stdin/stdout to any DAP client. Nothing needs
// installing but node itself. The inspector's measured behaviour is in
// docs/adapter-quirks.md, the node-* rows.
package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
	"github.com/mcp-debugger/mcp-debugger/internal/platform"
)

func init() {
	adapter.Register(&Adapter{machine: platform.Host(), lang: adapter.Language{
		ID: "javascript", Aliases: []string{"js", "node", "nodejs"}, DisplayName: "JavaScript",
		Description:        "Node.js through its built-in inspector (adapter built into mcp-debugger)",
		RequiresExecutable: true, DefaultExecutable: "node",
		PlainTypes: jsPlainTypes, VSCodeType: "node", TestRunner: "node:test",
	}})
	adapter.Register(&Adapter{machine: platform.Host(), lang: adapter.Language{
		ID: "typescript", Aliases: []string{"ts"}, DisplayName: "TypeScript",
		Description:        "Node.js through its built-in inspector, following source maps (adapter built into mcp-debugger)",
		RequiresExecutable: true, DefaultExecutable: "node",
		PlainTypes: jsPlainTypes, VSCodeType: "node", TestRunner: "node:test",
	}})
}

// jsPlainTypes are the types the inspector's values show by their text
// (strings quoted, numbers and booleans bare).
var jsPlainTypes = []string{"number", "string", "boolean", "undefined", "null"}

// Adapter is the Node adapter, for one of the language ids it serves.
type Adapter struct {
	lang adapter.Language
	// machine is where node is looked for; tests replace it.
	machine platform.Machine

	once  sync.Once
	avail adapter.Availability
}

// Language describes the language id.
func (a *Adapter) Language() adapter.Language { return a.lang }

// Check looks for node (once: the result is cached).
func (a *Adapter) Check(ctx context.Context) adapter.Availability {
	a.once.Do(func() {
		found, err := findNode(a.machine, "")
		if err != nil {
			no := adapter.ModeStatus{Supported: true, Reason: "node is not installed"}
			a.avail = adapter.Availability{Reason: err.Error(), InstallHint: installHint(a.machine.OS), Launch: no, Attach: no}
			return
		}
		path := found.path
		_, version, err := nodeVersion(ctx, path)
		if err != nil {
			no := adapter.ModeStatus{Supported: true, Reason: err.Error()}
			a.avail = adapter.Availability{Path: path, Reason: err.Error(), InstallHint: installHint(a.machine.OS), Launch: no, Attach: no}
			return
		}
		ok := adapter.ModeStatus{Supported: true, Available: true}
		a.avail = adapter.Availability{Installed: true, Version: version, Path: path, Launch: ok, Attach: ok}
	})
	return a.avail
}

// Launch prepares the launch of a program; node itself starts when the
// launch request reaches the in-process adapter.
func (a *Adapter) Launch(ctx context.Context, cfg adapter.LaunchConfig) (*adapter.Connection, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	chosen, source := cfg.ExecutablePath, "executablePath"
	if rt, _ := cfg.Extra["runtimeExecutable"].(string); rt != "" {
		chosen, source = rt, "runtimeExecutable"
	}
	choice, err := chooseNode(ctx, a.machine, cfg.Program, chosen, source)
	if err != nil {
		return nil, &adapter.UnavailableError{Language: a.lang.ID, Reason: err.Error(), InstallHint: installHint(a.machine.OS)}
	}
	node := choice.path
	cwd := cfg.Cwd
	if cwd == "" {
		cwd = filepath.Dir(cfg.Program)
	}
	progArgs := cfg.Args
	if progArgs == nil {
		progArgs = []string{}
	}
	args := map[string]any{
		"type": "node", "program": cfg.Program, "args": progArgs, "cwd": cwd,
		"stopOnEntry": cfg.StopOnEntry, "runtimeExecutable": node,
	}
	if len(cfg.Env) > 0 {
		args["env"] = cfg.Env
	}
	if cfg.StdinFile != "" {
		args[stdinFileKey] = cfg.StdinFile
	}
	maps.Copy(args, cfg.Extra)
	command := []string{node, "--inspect-brk=127.0.0.1:0", cfg.Program}
	command = append(command, progArgs...)
	runtime := runtimeLine(choice, cfg.Program, args)
	if cfg.DryRun {
		return &adapter.Connection{Request: "launch", Arguments: args, AdapterID: "node", Command: command, Quirks: quirks, Runtime: runtime}, nil
	}
	conn := start("launch", args, command, cfg.Logger)
	conn.Runtime = runtime
	return conn, nil
}

// runtimeLine says which node runs the program and why, how a .ts program
// runs, and which options a package.json test script adds.
func runtimeLine(choice nodeChoice, program string, args map[string]any) string {
	line := choice.runtimeLine()
	runtimeArgs := stringList(args["runtimeArgs"])
	if script, _ := args[testScriptArg].(string); script != "" {
		line += fmt.Sprintf("; test options from package.json scripts.test %q: %s", script, strings.Join(runtimeArgs, " "))
	}
	if !isTypeScript(program) {
		return line
	}
	if r, err := typeScriptRunner(choice.path, program, runtimeArgs); err == nil {
		line += "; .ts run by " + r.how
	}
	return line
}

// stringList reads a launch argument that is a list of strings, as a
// caller's JSON ([]any) or the adapter's own ([]string).
func stringList(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, e := range l {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Attach prepares an attach to a running node, by inspector address or
// by process id.
func (a *Adapter) Attach(ctx context.Context, cfg adapter.AttachConfig) (*adapter.Connection, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cfg.Port == 0 && cfg.ProcessID == 0 {
		return nil, errors.New("attach to node needs the inspector's port (node --inspect=127.0.0.1:9229) or a processId")
	}
	args := map[string]any{"type": "node", "host": cfg.Host, "port": cfg.Port, "processId": cfg.ProcessID, "stopOnEntry": cfg.StopOnEntry}
	maps.Copy(args, cfg.Extra)
	return start("attach", args, []string{"(built-in node adapter)"}, cfg.Logger), nil
}

// ServeDAP serves the adapter to one DAP client on conn.
func (a *Adapter) ServeDAP(ctx context.Context, conn io.ReadWriteCloser, log *slog.Logger) error {
	s := newServer(conn, log)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	s.serve()
	return ctx.Err()
}

// start serves DAP on one end of a pipe and returns the other; the
// Connection's Cleanup waits for the server, which waits for node and its
// own goroutines.
func start(request string, args map[string]any, command []string, log *slog.Logger) *adapter.Connection {
	return dapserver.StartOnPipe(adapter.Connection{
		Request:   request,
		Arguments: args,
		AdapterID: "node",
		Quirks:    quirks,
		Command:   command,
	}, func(end io.ReadWriteCloser) { newServer(end, log).serve() })
}
