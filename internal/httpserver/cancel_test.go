package httpserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
)

// rawMCP speaks Streamable HTTP by hand, one POST per message, so that a
// test can see exactly what each POST is answered with.
type rawMCP struct {
	t       *testing.T
	url     string
	session string
}

// request is one message as a POST of this client's MCP session.
func (c *rawMCP) request(body string) *http.Request {
	c.t.Helper()
	req, err := http.NewRequest("POST", c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	return req
}

// post sends one message and returns the status and the whole body.
func (c *rawMCP) post(body string) (int, string) {
	c.t.Helper()
	resp, err := (&http.Client{Timeout: time.Minute}).Do(c.request(body))
	if err != nil {
		c.t.Fatalf("POST %s: %v", body, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("POST %s: reading the answer: %v", body, err)
	}
	if c.session == "" {
		c.session = resp.Header.Get("Mcp-Session-Id")
	}
	return resp.StatusCode, string(answer)
}

// tool calls a tool as request id and returns its structured result.
func (c *rawMCP) tool(id int, name string, args map[string]any) map[string]any {
	c.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}})
	status, answer := c.post(string(body))
	_, data, found := strings.Cut(answer, "data: ")
	var resp struct {
		Result struct {
			Structured map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if status != http.StatusOK || !found || json.Unmarshal([]byte(strings.TrimSpace(data)), &resp) != nil || resp.Result.Structured["success"] != true {
		c.t.Fatalf("%s: HTTP %d %s", name, status, answer)
	}
	return resp.Result.Structured
}

// open sends one message and returns the answer's body as it streams.
func (c *rawMCP) open(body string) io.ReadCloser {
	c.t.Helper()
	resp, err := http.DefaultClient.Do(c.request(body))
	if err != nil {
		c.t.Fatalf("POST %s: %v", body, err)
	}
	return resp.Body
}

// A tools/call the client cancels gets no response over HTTP either (MCP's
// rule: the client stopped waiting): its POST's stream ends without one,
// long before the call's own wait would have, and the session goes on.
func TestCancelledCallGetsNoResponseOverHTTP(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	c := &rawMCP{t: t, url: l.url + "/mcp"}
	if status, answer := c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); status != http.StatusOK || c.session == "" {
		t.Fatalf("initialize: HTTP %d %s", status, answer)
	}
	c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	id := c.tool(2, "create_debug_session", map[string]any{"language": "mock"})["sessionId"].(string)
	prog := program(t, "mock", "sleep.mock")
	c.tool(3, "start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "stopOnEntry": true})

	// The program sleeps 60 s: the call waits for a stop, reporting
	// progress each second. The first report shows the call is in flight.
	start := time.Now()
	stream := c.open(fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"continue_execution","arguments":{"sessionId":%q,"timeout":30000},"_meta":{"progressToken":"p5"}}}`, id))
	defer stream.Close()
	lines := bufio.NewScanner(stream)
	for lines.Scan() && !strings.Contains(lines.Text(), "notifications/progress") {
	}
	if status, body := c.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user gave up"}}`); status != http.StatusAccepted {
		t.Fatalf("the cancel: HTTP %d %s", status, body)
	}
	for lines.Scan() {
		if line := lines.Text(); strings.Contains(line, `"id":5`) {
			t.Errorf("the cancelled call was answered: %s", line)
		}
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the cancelled call's stream ended after %v, as if not cancelled", took)
	}
	if paused := c.tool(6, "pause_execution", map[string]any{"sessionId": id}); paused["state"] != "paused" {
		t.Errorf("the session should go on after the cancel: %v", paused)
	}
}
