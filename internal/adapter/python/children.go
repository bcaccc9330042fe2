package python

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
)

// debugpyAttachEvent announces a child process debugpy holds.
const debugpyAttachEvent = "debugpyAttach"

// childReleaser answers debugpy's debugpyAttach events. With subProcess
// on, debugpy holds every child process the program starts (subprocess,
// fork, multiprocessing) until a client attaches to it over a second
// connection, as the event's body describes; a client that never does
// leaves the program waiting on its child for ever. debugpy 1.6 announces
// children only by this event, never by a startDebugging request. We
// attach and at once detach, so that the child runs on, undebugged.
// docs/adapter-quirks.md: debugpy-8.
func childReleaser(log *slog.Logger) func(context.Context, dap.Event) {
	return func(ctx context.Context, ev dap.Event) {
		var config map[string]any
		if err := json.Unmarshal(ev.Body, &config); err != nil {
			log.Warn("undecodable debugpyAttach event", "err", err)
			return
		}
		if err := releaseChild(ctx, config, log); err != nil {
			log.Warn("releasing a child process", "child", config["subProcessId"], "err", err)
		}
	}
}

// releaseChild attaches to the child process config names, lets it run
// and detaches, leaving it running.
func releaseChild(ctx context.Context, config map[string]any, log *slog.Logger) error {
	addr, err := childAddress(config)
	if err != nil {
		return err
	}
	conn, err := adapter.DialTCP(ctx, addr)
	if err != nil {
		return fmt.Errorf("connect to debugpy for the child: %w", err)
	}
	client := dap.NewClient(conn, dap.Options{Logger: log})
	defer client.Close()
	init := map[string]any{"clientID": "mcp-debugger", "adapterID": adapterID, "pathFormat": "path", "linesStartAt1": true, "columnsStartAt1": true}
	if err := client.Call(ctx, "initialize", init, nil); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	// debugpy answers attach only after configurationDone, which in turn
	// waits for the initialized event.
	attach, err := client.Send("attach", config)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	if err := awaitInitialized(ctx, client); err != nil {
		return err
	}
	if err := client.Call(ctx, "configurationDone", nil, nil); err != nil {
		return fmt.Errorf("configurationDone: %w", err)
	}
	if err := attach.Wait(ctx, nil); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	if err := client.Call(ctx, "disconnect", map[string]any{"terminateDebuggee": false}, nil); err != nil {
		return fmt.Errorf("disconnect: %w", err)
	}
	return nil
}

// childAddress is where debugpy's adapter waits for the child's client.
func childAddress(config map[string]any) (string, error) {
	connect, _ := config["connect"].(map[string]any)
	host, _ := connect["host"].(string)
	port, _ := connect["port"].(float64)
	if host == "" || port == 0 {
		return "", errors.New("debugpyAttach names no host and port to connect to")
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port))), nil
}

// awaitInitialized reads the child connection's events up to initialized.
func awaitInitialized(ctx context.Context, client *dap.Client) error {
	for {
		select {
		case ev, ok := <-client.Events():
			if !ok {
				return fmt.Errorf("the child's connection ended before initialized: %w", client.Err())
			}
			if ev.Name == "initialized" {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("waiting for the child's initialized event: %w", ctx.Err())
		}
	}
}
