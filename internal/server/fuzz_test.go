package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fuzzSkipped are the tools a call without a session can make start
// something (a test run, an attach, a check of every adapter): the fuzz
// target is about decoding arguments, not about running programs.
var fuzzSkipped = []string{"debug_test", "create_debug_session", "list_supported_languages"}

// maxFuzzAnswer bounds any answer to arguments without a session: errors
// quote a short prefix of what they were given, never all of it.
const maxFuzzAnswer = 16 << 10

// fuzzCallLimit is far more than any call without a session needs: one
// that takes it waits for something that cannot come.
const fuzzCallLimit = 10 * time.Second

// FuzzToolArguments sends arbitrary JSON as a tool's arguments. Whatever
// it is, the server answers with a JSON result of bounded size, never
// panics in a handler, and keeps serving.
func FuzzToolArguments(f *testing.F) {
	h := newHarness(f)
	list, err := h.cs.ListTools(h.ctx, nil)
	if err != nil {
		f.Fatal(err)
	}
	var tools []string
	for _, t := range list.Tools {
		if !slices.Contains(fuzzSkipped, t.Name) {
			tools = append(tools, t.Name)
		}
	}
	for i, seed := range []string{
		`{}`, `{"sessionId":"nope"}`, `{"sessionId":7,"line":"12"}`, `{"line":-1,"file":""}`,
		`{"expression":"` + strings.Repeat("x", 70000) + `"}`, `{"timeout":"soon","maxBytes":1e400}`,
		`{"sessionId":"s","collect":[1,{"a":null}],"args":"notalist"}`, `[]`, `null`, `"str"`,
	} {
		f.Add(uint8(i*7), seed)
	}
	f.Fuzz(func(t *testing.T, which uint8, args string) {
		if !json.Valid([]byte(args)) {
			return
		}
		tool := tools[int(which)%len(tools)]
		ctx, cancel := context.WithTimeout(h.ctx, fuzzCallLimit)
		defer cancel()
		res, err := h.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if ctx.Err() != nil {
			t.Fatalf("%s(%.200s) did not answer in %v", tool, args, fuzzCallLimit)
		}
		if err != nil {
			// A protocol error is a fine answer to arguments that are no
			// object; the server must still be there.
			if _, err := h.cs.ListTools(h.ctx, nil); err != nil {
				t.Fatalf("%s(%.200s) left the server unable to answer: %v", tool, args, err)
			}
			return
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !json.Valid([]byte(text)) {
			t.Fatalf("%s(%.200s) answered no JSON: %.500s", tool, args, text)
		}
		if len(text) > maxFuzzAnswer {
			t.Errorf("%s(%.200s) answered %d bytes", tool, args, len(text))
		}
		if strings.Contains(text, "internal error in") {
			t.Errorf("%s(%.200s) panicked: %.1000s", tool, args, text)
		}
	})
}
