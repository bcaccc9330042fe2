package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	buildOnce sync.Once
	builtPath string
	buildErr  error
)

// binary builds mcp-debugger once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcp-debugger-e2e")
		if err != nil {
			buildErr = err
			return
		}
		builtPath = filepath.Join(dir, "mcp-debugger")
		out, err := exec.Command("go", "build", "-o", builtPath, ".").CombinedOutput()
		if err != nil {
			buildErr = &buildError{out: string(out), err: err}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtPath
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// agent is an MCP client driving the built binary over stdio.
type agent struct {
	t      *testing.T
	ctx    context.Context
	cs     *mcp.ClientSession
	cmd    *exec.Cmd
	stderr *bytes.Buffer
}

func startAgent(t *testing.T) *agent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(binary(t), "stdio")
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := &agent{t: t, ctx: ctx, cs: cs, cmd: cmd, stderr: stderr}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return a
}

func (a *agent) call(tool string, args map[string]any) (map[string]any, bool) {
	a.t.Helper()
	res, err := a.cs.CallTool(a.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		a.t.Fatalf("%s: %v", tool, err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		a.t.Fatalf("%s: %v", tool, err)
	}
	return out, res.IsError
}

func (a *agent) ok(tool string, args map[string]any) map[string]any {
	a.t.Helper()
	out, isErr := a.call(tool, args)
	if isErr {
		a.t.Fatalf("%s failed: %v (hint: %v)", tool, out["error"], out["hint"])
	}
	return out
}

func line(snap map[string]any) int {
	loc, _ := snap["location"].(map[string]any)
	n, _ := loc["line"].(float64)
	return int(n)
}

func locals(snap map[string]any) map[string]string {
	out := map[string]string{}
	list, _ := snap["locals"].([]any)
	for _, l := range list {
		v := l.(map[string]any)
		out[v["name"].(string)], _ = v["value"].(string)
	}
	return out
}

// sessionProcesses are the processes below server but its watchdog,
// which outlives it on purpose (to end what a killed server leaves).
func sessionProcesses(server int) []int {
	var out []int
	for _, pid := range proc.Descendants(server) {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if !strings.Contains(string(cmdline), proc.WatchdogName) {
			out = append(out, pid)
		}
	}
	return out
}

func repoFile(t *testing.T, rel string) string {
	p, err := filepath.Abs(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAgentDebugsPythonOverStdio drives the built binary as an agent that
// only knows the reference's tool names, from the first breakpoint to exit.
func TestAgentDebugsPythonOverStdio(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	a := startAgent(t)
	prog := repoFile(t, "examples/python/orders.py")

	langs := a.ok("list_supported_languages", nil)
	pythonInstalled := false
	for _, l := range langs["languages"].([]any) {
		if entry, _ := l.(map[string]any); entry["id"] == "python" {
			pythonInstalled = entry["installed"] == true
		}
	}
	if !pythonInstalled {
		t.Fatalf("python should be installed: %v", langs)
	}
	id := a.ok("create_debug_session", map[string]any{"language": "python"})["sessionId"].(string)
	bp := a.ok("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "statement": "subtotal += line_total(item, qty)"})
	if bp["line"].(float64) != 22 {
		t.Fatalf("statement anchor: %v", bp)
	}

	snap := a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if snap["state"] != "paused" || line(snap) != 22 {
		t.Fatalf("first stop: %v", snap)
	}
	if l := locals(snap); l["item"] != "'apple'" || l["qty"] != "12" || l["subtotal"] != "0" {
		t.Errorf("locals at first stop: %v", l)
	}
	into := a.ok("step_into", map[string]any{"sessionId": id})
	if into["location"].(map[string]any)["function"] != "line_total" {
		t.Errorf("step_into should enter line_total: %v", into["location"])
	}
	out := a.ok("step_out", map[string]any{"sessionId": id})
	if fn := out["location"].(map[string]any)["function"]; fn != "order_total" {
		t.Errorf("step_out should return to order_total: %v", out["location"])
	}
	next := a.ok("continue_execution", map[string]any{"sessionId": id})
	if line(next) != 22 || locals(next)["item"] != "'pear'" {
		t.Errorf("second hit: %v", next)
	}
	ev := a.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "subtotal + 1"})
	if ev["result"] != "6.4" {
		t.Errorf("evaluate subtotal + 1 = %v", ev["result"])
	}
	stack := a.ok("get_stack_trace", map[string]any{"sessionId": id})
	if stack["count"].(float64) < 2 {
		t.Errorf("stack: %v", stack)
	}
	a.ok("remove_breakpoint", map[string]any{"sessionId": id, "breakpointId": bp["breakpointId"]})
	// debugpy treats sys.exit(1) as an uncaught SystemExit (only exit code 0
	// is ignored), so the program stops there once before it ends.
	exit := a.ok("continue_execution", map[string]any{"sessionId": id})
	if ex, _ := exit["exception"].(map[string]any); exit["stopReason"] != "exception" || ex["exceptionId"] != "SystemExit" || line(exit) != 40 {
		t.Fatalf("sys.exit(1) should stop as SystemExit at line 40: %v", exit)
	}
	end := a.ok("continue_execution", map[string]any{"sessionId": id})
	if end["state"] != "stopped" || end["exitCode"] != float64(1) {
		t.Fatalf("end: %v", end)
	}
	got := a.ok("get_output", map[string]any{"sessionId": id})
	text, _ := json.Marshal(got["entries"])
	if !strings.Contains(string(text), "order total: 23.76") || !strings.Contains(string(text), "expected 26.4") {
		t.Errorf("program output: %s", text)
	}

	serverPid := a.cmd.Process.Pid
	a.ok("close_debug_session", map[string]any{"sessionId": id})
	if kids := sessionProcesses(serverPid); len(kids) != 0 {
		t.Errorf("processes left after close_debug_session: %v", kids)
	}
}

// TestServerExitLeavesNoProcess: when the client goes away mid-session,
// the server exits and takes the adapter and the debuggee with it.
func TestServerExitLeavesNoProcess(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	a := startAgent(t)
	prog := filepath.Join(t.TempDir(), "busy.py")
	if err := os.WriteFile(prog, []byte("n = 0\nwhile True:\n    n += 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := a.ok("create_debug_session", map[string]any{"language": "python"})["sessionId"].(string)
	run := a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitForStop": false})
	if run["state"] != "running" {
		t.Fatalf("start: %v", run)
	}
	paused := a.ok("pause_execution", map[string]any{"sessionId": id})
	if paused["state"] != "paused" || paused["stopReason"] != "pause" {
		t.Fatalf("pause of a busy loop: %v", paused)
	}
	a.ok("continue_execution", map[string]any{"sessionId": id, "waitForStop": false})

	kids := sessionProcesses(a.cmd.Process.Pid)
	if len(kids) < 2 {
		t.Fatalf("expected the adapter and the debuggee under the server, got %v", kids)
	}
	a.cs.Close()
	for _, pid := range kids {
		if proc.Alive(pid) {
			t.Errorf("process %d outlived the server", pid)
		}
	}
}

// TestServerKilledLeavesNoProcess: even a server killed outright (no
// cleanup) takes the adapter and the debuggee with it: the adapter gets
// SIGKILL from the kernel (Pdeathsig), and debugpy ends the rest.
func TestServerKilledLeavesNoProcess(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	a := startAgent(t)
	prog := filepath.Join(t.TempDir(), "busy.py")
	if err := os.WriteFile(prog, []byte("n = 0\nwhile True:\n    n += 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := a.ok("create_debug_session", map[string]any{"language": "python"})["sessionId"].(string)
	a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitForStop": false})
	a.ok("pause_execution", map[string]any{"sessionId": id})
	kids := sessionProcesses(a.cmd.Process.Pid)
	if len(kids) < 2 {
		t.Fatalf("expected the adapter and the debuggee under the server, got %v", kids)
	}
	if err := a.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range kids {
		if !proc.WaitGone(pid, 10*time.Second) {
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			t.Errorf("process %d (%s) outlived the killed server", pid, strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
}

func TestDoctorAndVersion(t *testing.T) {
	out, err := exec.Command(binary(t), "doctor").CombinedOutput()
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	for _, want := range []string{"LANGUAGE", "python", "mock"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
	out, err = exec.Command(binary(t), "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "mcp-debugger ") {
		t.Errorf("version: %v %q", err, out)
	}
	if err := exec.Command(binary(t), "bogus").Run(); err == nil {
		t.Error("an unknown command should fail")
	}
}
