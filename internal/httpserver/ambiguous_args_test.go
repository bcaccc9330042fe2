package httpserver_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/httpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callRaw invokes a tool with arguments as written, in their order and
// with their duplicates (a map would sort them and keep one of each).
func (a *agent) callRaw(tool, args string) (result, bool) {
	a.t.Helper()
	res, err := a.cs.CallTool(a.ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		a.t.Fatalf("%s %s: %v", tool, args, err)
	}
	var out result
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		a.t.Fatalf("%s: result is not JSON: %v", tool, err)
	}
	return out, res.IsError
}

// sessionTools lists the server's tools that take a sessionId, from the
// server's own tool list: a new tool is covered without a test of its own.
func sessionTools(t *testing.T, a *agent) []string {
	t.Helper()
	var names []string
	for tool, err := range a.cs.Tools(a.ctx, nil) {
		if err != nil {
			t.Fatalf("listing tools: %v", err)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(schema, &in); err != nil {
			t.Fatalf("%s's input schema: %v", tool.Name, err)
		}
		if _, ok := in.Properties["sessionId"]; ok {
			names = append(names, tool.Name)
		}
	}
	if len(names) < 30 {
		t.Fatalf("only %d tools take a sessionId: %v", len(names), names)
	}
	return names
}

// Every tool that takes a sessionId refuses another client's session
// however the key is spelled or repeated: the ownership check and the
// handler once read such arguments differently (case-insensitively in
// document order, and after re-encoding with sorted keys), and
// {"sessionid": alice's, "sessionId": null, "SessionID": bob's own} closed
// alice's session, evaluated in her frame and shared it with bob.
// Bob is a client in an MCP session, then a sessionless one (2026-07-28)
// with the same bearer token.
func TestEveryToolRefusesAmbiguousSessionIDs(t *testing.T) {
	l := startLive(t, httpserver.Config{})
	alice := l.agent("")
	theirs := alice.pausedMock(t)
	sessionless, _ := l.revisionClient(t, sessionlessRevision, "", false).agent()
	for _, bob := range []*agent{l.agent(""), sessionless} {
		bob.refusesAmbiguousSessionIDs(t, theirs)
	}
	// Nothing bob tried reached alice's program: it is where it was.
	if snap := alice.ok("step_over", map[string]any{"sessionId": theirs}); snap.line() != 13 {
		t.Fatalf("alice's step_over after bob's refusals: %v", snap)
	}
}

// refusesAmbiguousSessionIDs has bob try every tool that takes a
// sessionId on theirs, another client's session, with the key spelled or
// repeated every way, and checks each is refused.
func (bob *agent) refusesAmbiguousSessionIDs(t *testing.T, theirs string) {
	t.Helper()
	mine := bob.ok("create_debug_session", map[string]any{"language": "mock"}).str("sessionId")
	tools := sessionTools(t, bob)
	t.Logf("%d tools take a sessionId", len(tools))
	for _, tool := range tools {
		for _, c := range []struct{ args, want string }{
			{fmt.Sprintf(`{"sessionid":%q,"sessionId":null,"SessionID":%q}`, theirs, mine), `argument "sessionid" is not "sessionId"`},
			{fmt.Sprintf(`{"SessionID":%q,"sessionId":%q}`, theirs, mine), `argument "SessionID" is not "sessionId"`},
			{fmt.Sprintf(`{"sessionId":%q,"sessionId":%q}`, mine, theirs), `argument "sessionId" is given twice`},
			{fmt.Sprintf(`{"sessionId":%q,"sessionId":%q}`, theirs, mine), `argument "sessionId" is given twice`},
			// U+017F (ſ) folds to s in Go's decoder.
			{fmt.Sprintf(`{"sessionId":null,"\u017fessionId":%q}`, theirs), `is not "sessionId"`},
			{fmt.Sprintf(`{"sessionId":%q}`, theirs), "belongs to another client"},
		} {
			out, isErr := bob.callRaw(tool, c.args)
			if !isErr || !strings.Contains(out.str("error"), c.want) || out.str("hint") == "" {
				t.Errorf("bob's %s %s: %v (error: %v), want a refusal saying %q with a hint", tool, c.args, out, isErr, c.want)
			}
		}
	}
}
