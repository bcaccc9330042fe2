package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// rawClient speaks newline-delimited JSON-RPC to the built binary by hand,
// so that it can send what no MCP client would.
type rawClient struct {
	t      *testing.T
	in     io.WriteCloser
	lines  chan string
	nextID int
}

func startRaw(t *testing.T) *rawClient {
	t.Helper()
	cmd := exec.Command(binary(t), "stdio")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, in: in, lines: make(chan string)}
	// The reader ends when the server's stdout closes, which Wait below
	// (or the server dying) brings about.
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		in.Close()
		// Drain what is left so the reader can reach the end.
		go func() {
			for range c.lines {
			}
		}()
		// A server that does not end when its stdin closes is a failure
		// too; kill it rather than hang the test run.
		select {
		case <-readDone:
		case <-time.After(15 * time.Second):
			t.Error("the server did not exit after its stdin closed")
			_ = cmd.Process.Kill()
			<-readDone
		}
		err := cmd.Wait()
		if t.Failed() {
			t.Logf("server exit: %v; stderr:\n%s", err, stderr.String())
		}
	})
	return c
}

// send writes one line as is.
func (c *rawClient) send(line []byte) {
	c.t.Helper()
	if _, err := c.in.Write(append(line, '\n')); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// next reads the next response, skipping notifications; it fails when the
// server ends its output.
func (c *rawClient) next() map[string]any {
	c.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatal("the server closed its output (it exited)")
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				c.t.Fatalf("server wrote a line that is not JSON: %q", l)
			}
			if _, isCall := m["method"]; isCall {
				continue
			}
			return m
		case <-timeout:
			c.t.Fatal("no answer from the server in 30 s")
		}
	}
}

// request sends a request and returns its response.
func (c *rawClient) request(method string, params any) map[string]any {
	c.t.Helper()
	c.nextID++
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(body)
	resp := c.next()
	if id, _ := resp["id"].(float64); int(id) != c.nextID {
		c.t.Fatalf("%s: answer %v is not to request %d", method, resp, c.nextID)
	}
	return resp
}

// tool calls a tool and returns its JSON result and isError.
func (c *rawClient) tool(name string, args map[string]any) (map[string]any, bool) {
	c.t.Helper()
	resp := c.request("tools/call", map[string]any{"name": name, "arguments": args})
	res, ok := resp["result"].(map[string]any)
	if !ok {
		c.t.Fatalf("%s: %v", name, resp)
	}
	content := res["content"].([]any)[0].(map[string]any)
	var out map[string]any
	if err := json.Unmarshal([]byte(content["text"].(string)), &out); err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	isErr, _ := res["isError"].(bool)
	return out, isErr
}

func (c *rawClient) initialize() {
	c.t.Helper()
	resp := c.request("initialize", map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "raw", "version": "1"},
	})
	if resp["result"] == nil {
		c.t.Fatalf("initialize: %v", resp)
	}
	c.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
}

// TestMalformedLinesAreAnsweredAndSkipped sends every kind of bad line seen
// in the field between valid calls, with a debug session paused at a
// breakpoint, and checks each gets a JSON-RPC error and nothing else breaks.
func TestMalformedLinesAreAnsweredAndSkipped(t *testing.T) {
	c := startRaw(t)
	c.initialize()

	prog := repoFile(t, "testdata/mock/basic.mock")
	created, isErr := c.tool("create_debug_session", map[string]any{"language": "mock"})
	if isErr {
		t.Fatalf("create_debug_session: %v", created)
	}
	id := created["sessionId"].(string)
	if out, isErr := c.tool("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12}); isErr {
		t.Fatalf("set_breakpoint: %v", out)
	}
	snap, isErr := c.tool("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog})
	if isErr || snap["state"] != "paused" {
		t.Fatalf("start_debugging: %v", snap)
	}

	bad := []struct {
		name string
		line []byte
		code float64
		id   any // the id the answer must carry
	}{
		{"broken JSON", []byte(`{bad json`), -32700, nil},
		{"truncated object", []byte(`{"jsonrpc":"2.0","id":99,"method":"tools/list"`), -32700, nil},
		{"null", []byte(`null`), -32600, nil},
		{"empty array", []byte(`[]`), -32600, nil},
		{"number", []byte(`42`), -32600, nil},
		{"no jsonrpc member", []byte(`{"id":7,"method":"tools/list"}`), -32600, float64(7)},
		{"wrong jsonrpc version", []byte(`{"jsonrpc":"1.0","id":"x","method":"tools/list"}`), -32600, "x"},
		{"neither request nor response", []byte(`{"jsonrpc":"2.0","id":8}`), -32600, float64(8)},
		{"invalid UTF-8", []byte{0xff, 0xfe, 0x00}, -32700, nil},
		{"over the line limit", []byte(`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}`), -32600, nil},
	}
	for _, b := range bad {
		c.send(b.line)
		resp := c.next()
		e, ok := resp["error"].(map[string]any)
		if !ok {
			t.Fatalf("%s: answer has no error: %v", b.name, resp)
		}
		if e["code"] != b.code {
			t.Errorf("%s: code %v, want %v (%v)", b.name, e["code"], b.code, e["message"])
		}
		if got, present := resp["id"]; !present || got != b.id {
			t.Errorf("%s: id %v (present %v), want %v", b.name, got, present, b.id)
		}
		// The server still answers, and the paused session is still there.
		list, isErr := c.tool("list_debug_sessions", map[string]any{})
		if isErr || !strings.Contains(fmt.Sprint(list), id) {
			t.Fatalf("after %s: list_debug_sessions: %v", b.name, list)
		}
	}

	// The session still debugs: locals of the stop, then on to the end.
	if out, isErr := c.tool("get_local_variables", map[string]any{"sessionId": id}); isErr {
		t.Fatalf("get_local_variables after the bad lines: %v", out)
	}
	if out, isErr := c.tool("continue_execution", map[string]any{"sessionId": id}); isErr {
		t.Fatalf("continue_execution after the bad lines: %v", out)
	}
}

// A request the client cancels gets no response (MCP's rule: the client has
// stopped waiting, and a late answer to a reused id would mislead it); the
// session stays as it was and later calls are answered.
func TestCancelledCallGetsNoResponse(t *testing.T) {
	c := startRaw(t)
	c.initialize()
	prog := repoFile(t, "testdata/mock/basic.mock")
	created, _ := c.tool("create_debug_session", map[string]any{"language": "mock"})
	id := created["sessionId"].(string)
	c.tool("set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": 12})
	if snap, isErr := c.tool("start_debugging", map[string]any{"sessionId": id, "scriptPath": prog}); isErr || snap["state"] != "paused" {
		t.Fatalf("start_debugging: %v", snap)
	}
	const waiting = 1000
	c.send([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_output","arguments":{"sessionId":%q,"wait":30000}}}`, waiting, id)))
	c.send([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"user gave up"}}`, waiting)))
	// The cancelled wait ends at once; this one outlasts it, so an answer to
	// the cancelled call would come before this one's.
	if out, isErr := c.tool("get_output", map[string]any{"sessionId": id, "wait": 500}); isErr {
		t.Fatalf("get_output after the cancel: %v", out)
	}
	if snap, isErr := c.tool("get_local_variables", map[string]any{"sessionId": id}); isErr {
		t.Fatalf("the session should still be paused: %v", snap)
	}
}

// TestRequestsBeforeTheEndOfInputAreAnswered: a client that writes its
// requests and closes stdin at once (`echo … | mcp-debugger stdio`) gets
// every answer before the server exits.
func TestRequestsBeforeTheEndOfInputAreAnswered(t *testing.T) {
	input := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
	for range 5 {
		cmd := exec.Command(binary(t), "stdio")
		cmd.Stdin = strings.NewReader(input)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("server: %v", err)
		}
		if !strings.Contains(string(out), `"id":1,"result"`) || !strings.Contains(string(out), `"id":2,"result"`) {
			t.Fatalf("answers lost at the end of input: %.300s", out)
		}
	}
}

// A request sent before initialize is refused with a JSON-RPC error code a
// client can act on and a message saying what to send first; ping, which
// MCP allows at any time, is answered; after initialize all is served.
func TestRequestBeforeInitializeIsRefusedWithACode(t *testing.T) {
	c := startRaw(t)
	for _, method := range []string{"tools/list", "tools/call"} {
		resp := c.request(method, map[string]any{"name": "list_debug_sessions", "arguments": map[string]any{}})
		e, _ := resp["error"].(map[string]any)
		if e == nil {
			t.Fatalf("%s before initialize: %v, want an error", method, resp)
		}
		if code, _ := e["code"].(float64); code != -32600 {
			t.Errorf("%s before initialize: error code %v, want -32600 (invalid request): %v", method, e["code"], e["message"])
		}
		if msg, _ := e["message"].(string); !strings.Contains(msg, `send "initialize" first`) {
			t.Errorf("%s before initialize: message %q does not tell to send initialize first", method, msg)
		}
	}
	if resp := c.request("ping", nil); resp["result"] == nil {
		t.Errorf("ping before initialize: %v, want a result", resp)
	}
	c.initialize()
	if resp := c.request("tools/list", nil); resp["result"] == nil {
		t.Fatalf("tools/list after initialize: %v", resp)
	}
}
