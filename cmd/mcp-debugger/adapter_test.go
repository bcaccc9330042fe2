package main

import (
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"testing"
	"time"

	"github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// pipeConn joins a child's stdout (read) and stdin (write).
type pipeConn struct {
	io.Reader
	io.WriteCloser
}

// TestBuiltinAdaptersServeDAPOnStdio runs `mcp-debugger adapter LANG` as a
// DAP client such as VS Code would, through a whole launch to the
// program's end, for each adapter built into the binary.
func TestBuiltinAdaptersServeDAPOnStdio(t *testing.T) {
	for _, tc := range []struct {
		language, program string
		exitCode          int
	}{
		{"javascript", "testdata/node/loop.js", 3},
		{"java", "testdata/java/Hello.java", 0},
	} {
		t.Run(tc.language, func(t *testing.T) {
			testenv.RequireAdapter(t, tc.language)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, binary(t), "adapter", tc.language)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			c := dapc.NewClient(pipeConn{stdout, stdin}, dapc.Options{})
			defer c.Close()

			var caps dap.Capabilities
			if err := c.Call(ctx, "initialize", map[string]any{"adapterID": tc.language, "linesStartAt1": true, "columnsStartAt1": true}, &caps); err != nil || !caps.SupportsConfigurationDoneRequest {
				t.Fatalf("initialize: %v %+v", err, caps)
			}
			launch, err := c.Send("launch", map[string]any{"program": repoFile(t, tc.program)})
			if err != nil {
				t.Fatal(err)
			}
			var output string
			exit := -1
			for ev := range c.Events() {
				switch ev.Name {
				case "initialized":
					if err := c.Call(ctx, "configurationDone", nil, nil); err != nil {
						t.Fatal(err)
					}
				case "output":
					var b dap.OutputEventBody
					json.Unmarshal(ev.Body, &b)
					output += b.Output
				case "exited":
					var b dap.ExitedEventBody
					json.Unmarshal(ev.Body, &b)
					exit = b.ExitCode
				}
				if ev.Name == "terminated" {
					break
				}
			}
			if err := launch.Wait(ctx, nil); err != nil {
				t.Errorf("launch: %v", err)
			}
			if exit != tc.exitCode || output == "" {
				t.Errorf("exit code %d (want %d), output %q", exit, tc.exitCode, output)
			}
			c.Call(ctx, "disconnect", map[string]any{"terminateDebuggee": true}, nil)
		})
	}
	if _, ok := adapter.Lookup("python"); ok {
		if out, err := exec.Command(binary(t), "adapter", "python").CombinedOutput(); err == nil {
			t.Errorf("adapter python should be refused (debugpy is not built in): %s", out)
		}
	}
}
