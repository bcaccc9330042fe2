package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// The MCP clients from the npm registry that the tests below drive, and
// the Node they run on (npm's node package: the Inspector wants Node 22,
// Debian 12 has 18), which scripts/install-adapters.sh installs pinned.
var npmClients = []string{"@modelcontextprotocol/inspector", "@modelcontextprotocol/sdk", "@modelcontextprotocol/client", "node"}

// npmClientsDir returns the directory whose node_modules holds
// npmClients, or skips the test (fails it under CI=true, whose install
// script provides them) when one is missing.
func npmClientsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MCP_DEBUGGER_MCP_CLIENTS")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(cache, "mcp-debugger", "mcp-clients")
	}
	for _, pkg := range npmClients {
		manifest, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
		if err != nil {
			msg := pkg + " is not installed in " + dir + "; install with: scripts/install-adapters.sh node"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
		var m struct{ Version string }
		_ = json.Unmarshal(manifest, &m)
		t.Logf("%s %s", pkg, m.Version)
	}
	return dir
}

// clientNode is the command of the clients' Node, and the environment
// that has it first on PATH (the Inspector's command runs `env node`).
func clientNode(clients string) (node string, env []string) {
	bin := filepath.Join(clients, "node_modules", "node", "bin")
	return filepath.Join(bin, "node"), append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "MCP_CLIENTS="+clients)
}

// testdataPath is a file under the repository's testdata.
func testdataPath(t *testing.T, elem ...string) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(append([]string{root, "testdata"}, elem...)...)
}

// A whole Python session through the TypeScript SDK over HTTP: v1 (what
// most hosts embed) and v2 on 2025-11-25, v2 pinned to the sessionless
// 2026-07-28 (refused with -32022 before), and v1 opening a connection per
// call with the reconnect key in its header (the second call was "another
// client's" before).
func TestTypeScriptSDKDrivesPythonOverHTTP(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	clients := npmClientsDir(t)
	addr, token := startHTTP(t)
	program := testdataPath(t, "python", "loop.py")
	for _, c := range []struct {
		sdk, revision, negotiated string
		oneShot                   bool
	}{
		{"v1", "legacy", "2025-11-25", false},
		{"v2", "legacy", "2025-11-25", false},
		{"v2", "2026-07-28", "2026-07-28", false},
		{"v1", "legacy", "2025-11-25", true},
	} {
		name := c.sdk + " " + c.revision
		if c.oneShot {
			name += " one connection per call"
		}
		t.Run(name, func(t *testing.T) {
			got := runSessionScript(t, clients, map[string]any{"url": "http://" + addr + "/mcp", "token": token, "program": program, "line": 16,
				"sdk": c.sdk, "revision": c.revision, "oneShot": c.oneShot})
			if got.Revision != c.negotiated || got.StartLine != 16 || got.ContinueLine != 16 || got.I != "1" || !got.Closed {
				t.Fatalf("the session through the TypeScript SDK: %+v; want revision %s, stops at line 16 twice, i = 1, closed", got, c.negotiated)
			}
		})
	}
}

// sessionReport is what testdata/mcpclients/python-session.cjs reports of
// the session it drove.
type sessionReport struct {
	StartLine, ContinueLine int
	I, Revision             string
	Closed                  bool
}

// runSessionScript runs python-session.cjs with opts on the clients' Node
// and returns its report.
func runSessionScript(t *testing.T, clients string, opts map[string]any) sessionReport {
	t.Helper()
	arg, _ := json.Marshal(opts)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	node, env := clientNode(clients)
	cmd := exec.CommandContext(ctx, node, testdataPath(t, "mcpclients", "python-session.cjs"), string(arg))
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript SDK client failed: %v\n%s", err, stderr.String())
	}
	var got sessionReport
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the client's report %q: %v", out, err)
	}
	return got
}

// The same session through the TypeScript SDK over stdio: v1, and v2 on
// both revisions (the binary built for the tests, as a client spawns it).
func TestTypeScriptSDKDrivesPythonOverStdio(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	clients := npmClientsDir(t)
	program := testdataPath(t, "python", "loop.py")
	for _, c := range []struct{ sdk, revision, negotiated string }{
		{"v1", "legacy", "2025-11-25"},
		{"v2", "legacy", "2025-11-25"},
		{"v2", "2026-07-28", "2026-07-28"},
	} {
		t.Run(c.sdk+" "+c.revision, func(t *testing.T) {
			got := runSessionScript(t, clients, map[string]any{"command": []string{binary(t), "stdio"}, "program": program, "line": 16,
				"sdk": c.sdk, "revision": c.revision})
			if got.Revision != c.negotiated || got.StartLine != 16 || got.ContinueLine != 16 || got.I != "1" || !got.Closed {
				t.Fatalf("the session through the TypeScript SDK over stdio: %+v; want revision %s, stops at line 16 twice, i = 1, closed", got, c.negotiated)
			}
		})
	}
}

// inspectorCall runs one MCP Inspector --cli call (a process, and an MCP
// connection, of its own) and returns the tool's structured answer.
func inspectorCall(t *testing.T, clients, url string, headers []string, era, tool string, args map[string]any) map[string]any {
	t.Helper()
	argsJSON, _ := json.Marshal(args)
	line := []string{"--cli", url, "--transport", "http", "--protocol-era", era, "--format", "json",
		"--method", "tools/call", "--tool-name", tool, "--tool-args-json", string(argsJSON)}
	for _, h := range headers {
		line = append(line, "--header", h)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(clients, "node_modules", ".bin", "mcp-inspector"), line...)
	_, cmd.Env = clientNode(clients)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector --cli %s: %v\n%s%s", tool, err, out, stderr.String())
	}
	var got struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("inspector --cli %s answered %q: %v", tool, out, err)
	}
	if got.Result.IsError {
		t.Fatalf("inspector --cli %s: %v", tool, got.Result.StructuredContent)
	}
	return got.Result.StructuredContent
}

// MCP Inspector's CLI makes every call a new connection. It keeps a
// Python session over HTTP on both eras: on 2025-11-25 by sending the
// reconnectKey create_debug_session gave it in the Mcp-Debugger-Reconnect-Key
// header; on 2026-07-28 (sessionless) by the session's id alone.
func TestInspectorCLIKeepsASessionOverHTTP(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	clients := npmClientsDir(t)
	addr, token := startHTTP(t)
	url := "http://" + addr + "/mcp"
	program := testdataPath(t, "python", "loop.py")
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			headers := []string{"Authorization: Bearer " + token}
			created := inspectorCall(t, clients, url, headers, era, "create_debug_session", map[string]any{"language": "python"})
			id, _ := created["sessionId"].(string)
			if era == "legacy" {
				key, _ := created["reconnectKey"].(string)
				if !strings.Contains(created["message"].(string), "Mcp-Debugger-Reconnect-Key") {
					t.Errorf("create_debug_session does not say how a one-shot client keeps the session: %v", created["message"])
				}
				headers = append(headers, "Mcp-Debugger-Reconnect-Key: "+key)
			}
			inspectorCall(t, clients, url, headers, era, "set_breakpoint", map[string]any{"sessionId": id, "file": program, "line": 16})
			for _, step := range []struct {
				tool string
				args map[string]any
			}{
				{"start_debugging", map[string]any{"sessionId": id, "scriptPath": program}},
				{"continue_execution", map[string]any{"sessionId": id}},
			} {
				snap := inspectorCall(t, clients, url, headers, era, step.tool, step.args)
				if loc, _ := snap["location"].(map[string]any); loc["line"] != float64(16) {
					t.Fatalf("%s: %v, want a stop at line 16", step.tool, snap)
				}
			}
			locals, _ := json.Marshal(inspectorCall(t, clients, url, headers, era, "get_local_variables", map[string]any{"sessionId": id}))
			if !strings.Contains(string(locals), `"name":"i","type":"int","value":"1"`) {
				t.Fatalf("get_local_variables on the second hit: %s, want i = 1", locals)
			}
			inspectorCall(t, clients, url, headers, era, "close_debug_session", map[string]any{"sessionId": id})
		})
	}
}

// mcpdo (the Inspector's connection CLI) keeps one stdio connection open
// in a daemon of its own across its commands: a whole Python session on
// both eras, the daemon private to the test and stopped after it.
func TestMcpdoDrivesPythonOverStdio(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	clients := npmClientsDir(t)
	program := testdataPath(t, "python", "loop.py")
	mcpdo := filepath.Join(clients, "node_modules", ".bin", "mcpdo")
	_, env := clientNode(clients)
	env = append(env, "MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "mcp.json"), "MCP_INSPECTOR_DAEMON_DIR="+t.TempDir(),
		"MCP_INSPECTOR_DAEMON_TOKEN=mcp-debugger-test-"+strings.Repeat("x", 32))
	run := func(args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, mcpdo, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mcpdo %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
		}
		return out
	}
	t.Cleanup(func() {
		stop := exec.Command(mcpdo, "daemon", "stop")
		stop.Env = env
		if out, err := stop.CombinedOutput(); err != nil {
			t.Errorf("mcpdo daemon stop: %v\n%s", err, out)
		}
	})
	bin := binary(t)
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			run("connect", "--connection", era, "--era", era, "--", bin, "stdio")
			defer run("disconnect", era)
			call := func(tool string, args ...string) map[string]any {
				t.Helper()
				out := run(append([]string{"--format", "json", "@" + era, "tools/call", tool}, args...)...)
				var got struct {
					IsError           bool           `json:"isError"`
					StructuredContent map[string]any `json:"structuredContent"`
				}
				if err := json.Unmarshal(out, &got); err != nil || got.IsError {
					t.Fatalf("mcpdo tools/call %s: %s (%v)", tool, out, err)
				}
				return got.StructuredContent
			}
			id, _ := call("create_debug_session", "language:=python")["sessionId"].(string)
			call("set_breakpoint", "sessionId:="+id, "file:="+program, "line:=16")
			for _, tool := range []string{"start_debugging", "continue_execution"} {
				args := []string{"sessionId:=" + id}
				if tool == "start_debugging" {
					args = append(args, "scriptPath:="+program)
				}
				if loc, _ := call(tool, args...)["location"].(map[string]any); loc["line"] != float64(16) {
					t.Fatalf("%s through mcpdo: want a stop at line 16, got %v", tool, loc)
				}
			}
			locals, _ := json.Marshal(call("get_local_variables", "sessionId:="+id))
			if !strings.Contains(string(locals), `"name":"i","type":"int","value":"1"`) {
				t.Fatalf("get_local_variables on the second hit: %s, want i = 1", locals)
			}
			call("close_debug_session", "sessionId:="+id)
		})
	}
}
