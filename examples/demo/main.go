// Command demo plays a scripted agent: it starts mcp-debugger over stdio,
// as an MCP client would, and finds the bug in examples/python/orders.py
// with the debugger, printing every tool call and its result.
//
//	go run ./examples/demo -server bin/mcp-debugger
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	serverPath := flag.String("server", "bin/mcp-debugger", "path of the mcp-debugger binary")
	program := flag.String("program", "examples/python/orders.py", "the Python program to debug")
	flag.Parse()
	if err := run(*serverPath, *program); err != nil {
		fmt.Fprintln(os.Stderr, "demo failed:", err)
		os.Exit(1)
	}
}

type agent struct {
	ctx   context.Context
	mcp   *mcp.ClientSession
	calls int
}

// call invokes a tool, prints the call and its result, and decodes the
// result's JSON text.
func (a *agent) call(tool string, args map[string]any) (map[string]any, error) {
	a.calls++
	argText, _ := json.Marshal(args)
	fmt.Printf("\n── %d. %s %s\n", a.calls, tool, argText)
	start := time.Now()
	res, err := a.mcp.CallTool(a.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return nil, fmt.Errorf("%s: result is not JSON: %w", tool, err)
	}
	pretty, _ := json.MarshalIndent(out, "   ", "  ")
	fmt.Printf("   (%d ms) %s\n", time.Since(start).Milliseconds(), pretty)
	if res.IsError {
		return out, fmt.Errorf("%s failed: %v", tool, out["error"])
	}
	return out, nil
}

func run(serverPath, program string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	program, err := filepath.Abs(program)
	if err != nil {
		return err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "demo-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(serverPath)}, nil)
	if err != nil {
		return fmt.Errorf("start %s: %w", serverPath, err)
	}
	defer cs.Close()
	a := &agent{ctx: ctx, mcp: cs}
	fmt.Printf("Debugging %s: it prints a total of 23.76 where 26.4 is expected.\n", filepath.Base(program))

	created, err := a.call("create_debug_session", map[string]any{"language": "python", "name": "orders"})
	if err != nil {
		return err
	}
	id := created["sessionId"].(string)
	if _, err := a.call("set_breakpoint", map[string]any{"sessionId": id, "file": program, "statement": "return round(subtotal, 2)"}); err != nil {
		return err
	}
	stop, err := a.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": program})
	if err != nil {
		return err
	}
	fmt.Printf("\n   → stopped at line %v with locals %s\n", path(stop, "location", "line"), localsLine(stop))
	if _, err := a.call("evaluate_expression", map[string]any{"sessionId": id, "expression": "sum(line_total(i, q) for i, q in order)"}); err != nil {
		return err
	}
	fmt.Println("\n   → the lines add up to 26.4 but subtotal is 23.76: something after the loop changed it.")
	if _, err := a.call("set_breakpoint", map[string]any{"sessionId": id, "file": program, "statement": "subtotal = subtotal * 0.9"}); err != nil {
		return err
	}
	if _, err := a.call("restart_debugging", map[string]any{"sessionId": id}); err != nil {
		return err
	}
	if _, err := a.call("step_over", map[string]any{"sessionId": id}); err != nil {
		return err
	}
	fmt.Println("\n   → subtotal went from 26.4 to 23.76 on that line: the bulk discount is applied a second time (line_total already applies it).")
	end, err := a.call("continue_execution", map[string]any{"sessionId": id})
	if err != nil {
		return err
	}
	if end["stopReason"] == "exception" {
		fmt.Println("\n   → debugpy stops on sys.exit(1) as an uncaught SystemExit; continue once more to let it end.")
		if end, err = a.call("continue_execution", map[string]any{"sessionId": id}); err != nil {
			return err
		}
	}
	fmt.Printf("\n   → program ended with exit code %v\n", end["exitCode"])
	if _, err := a.call("close_debug_session", map[string]any{"sessionId": id}); err != nil {
		return err
	}
	fmt.Printf("\nDone in %d tool calls.\n", a.calls)
	return nil
}

func path(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}

func localsLine(m map[string]any) string {
	locals, _ := m["locals"].([]any)
	var parts []string
	for _, l := range locals {
		v, _ := l.(map[string]any)
		parts = append(parts, fmt.Sprintf("%v=%v", v["name"], v["value"]))
	}
	return strings.Join(parts, ", ")
}
