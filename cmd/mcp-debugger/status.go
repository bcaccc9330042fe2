package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// statusCommand shows the workspace's background server and its debug
// sessions, without starting one.
func statusCommand(args []string, stdout, stderr io.Writer) int {
	return withWorkspace("status", args, stderr, func(ctx context.Context, files workspaceFiles) int {
		defer printOtherServers(ctx, stdout, files)
		st, err := findRunning(ctx, files)
		if err != nil {
			fmt.Fprintln(stdout, "no background server for this directory (mcp-debugger call starts one)")
			return 0
		}
		c, err := connect(ctx, files, st)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
			return 1
		}
		defer c.close()
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_debug_sessions", Arguments: map[string]any{}})
		if err != nil {
			fmt.Fprintf(stderr, "mcp-debugger: listing the debug sessions: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "background server pid %d at %s for %s (log %s)\n", st.PID, st.Addr, st.Workspace, files.log)
		formatAnswer(stdout, answerOf(res))
		return 0
	})
}

// printOtherServers lists the background servers of other directories:
// their sessions are reached by calls from there.
func printOtherServers(ctx context.Context, w io.Writer, files workspaceFiles) {
	for _, o := range otherServers(ctx, files) {
		fmt.Fprintf(w, "another background server: pid %d for %s (its sessions are reached from there)\n", o.state.PID, o.state.Workspace)
	}
}

// stopCommand ends the workspace's background server, its debug sessions
// and every process they started.
func stopCommand(args []string, stdout, stderr io.Writer) int {
	return withWorkspace("stop", args, stderr, func(ctx context.Context, files workspaceFiles) int {
		stopped, err := stopBackground(ctx, files)
		if err != nil {
			fmt.Fprintf(stderr, "mcp-debugger: stopping the background server: %v\n", err)
			return 1
		}
		if stopped {
			fmt.Fprintln(stdout, "stopped the background server")
		} else {
			fmt.Fprintln(stdout, "no background server was running for this directory")
		}
		return 0
	})
}

// withWorkspace runs a command that takes no arguments on the working
// directory's workspace files: exit 2 with arguments, 1 when the files
// cannot be named, else body's status.
func withWorkspace(name string, args []string, stderr io.Writer, body func(context.Context, workspaceFiles) int) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "mcp-debugger %s: takes no arguments\n", name)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	files, err := workspaceFilesHere()
	if err != nil {
		fmt.Fprintf(stderr, "mcp-debugger: %v\n", err)
		return 1
	}
	return body(ctx, files)
}

func workspaceFilesHere() (workspaceFiles, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return workspaceFiles{}, fmt.Errorf("finding the working directory: %w", err)
	}
	return filesFor(cwd)
}
