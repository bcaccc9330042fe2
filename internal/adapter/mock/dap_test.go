package mock_test

import (
	"bufio"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	"github.com/mcp-debugger/mcp-debugger/internal/adapter/mock"
	"github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/dap/dapserver"
)

func TestRegistered(t *testing.T) {
	a := mockAdapter(t)
	lang := a.Language()
	if lang.ID != "mock" || lang.DisplayName != "Mock" || lang.RequiresExecutable {
		t.Errorf("Language() = %+v", lang)
	}
	av := a.Check(context.Background())
	if !av.Installed || av.Version != "1.0" || !av.Launch.Supported || !av.Launch.Available || !av.Attach.Supported || !av.Attach.Available {
		t.Errorf("Check() = %+v", av)
	}
}

func TestConnection(t *testing.T) {
	prog := testdata(t, "basic.mock")
	conn, err := mockAdapter(t).Launch(context.Background(), adapter.LaunchConfig{
		Program: prog, Args: []string{"a"}, StopOnEntry: true, Extra: map[string]any{"cwd": "/elsewhere", "extra": 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Cleanup()
	defer conn.Transport.Close()
	a := conn.Arguments
	if conn.Request != "launch" || conn.AdapterID != "mock" || conn.Quirks.EvaluateContext != "repl" ||
		a["program"] != prog || a["cwd"] != "/elsewhere" || a["stopOnEntry"] != true || a["extra"] != 1 || !slices.Equal(a["args"].([]string), []string{"a"}) {
		t.Errorf("connection: request %q, adapter %q, quirks %+v, arguments %v", conn.Request, conn.AdapterID, conn.Quirks, a)
	}
}

// TestHandshakeOrder reads raw frames to see the exact order of responses
// and events in each handshake. The threads request sent before launch
// shows whether initialized was sent before launch arrived.
func TestHandshakeOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra map[string]any
		want  []string
	}{
		{"debugpy", nil, []string{"response initialize", "event initialized", "response threads", "response configurationDone", "response launch"}},
		{"lldb-dap 19", map[string]any{"launchResponse": "immediate"}, []string{"response initialize", "event initialized", "response threads", "response launch", "response configurationDone"}},
		{"delve", map[string]any{"initializedAfterLaunch": true}, []string{"response initialize", "response threads", "event initialized", "response configurationDone", "response launch"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := mockAdapter(t).Launch(context.Background(), adapter.LaunchConfig{Program: testdata(t, "output.mock"), Extra: tc.extra})
			if err != nil {
				t.Fatal(err)
			}
			msgs := make(chan string, 64)
			readerDone := make(chan struct{})
			go func() {
				defer close(readerDone)
				defer close(msgs)
				r := bufio.NewReader(conn.Transport)
				for {
					body, err := dap.ReadFrame(r)
					if err != nil {
						return
					}
					var m struct{ Type, Command, Event string }
					if json.Unmarshal(body, &m) == nil {
						msgs <- strings.TrimSpace(m.Type + " " + m.Command + m.Event)
					}
				}
			}()
			defer func() {
				conn.Transport.Close()
				<-readerDone
				conn.Cleanup()
			}()
			var got []string
			waitFor := func(want string) {
				t.Helper()
				timer := time.NewTimer(guard)
				defer timer.Stop()
				for !slices.Contains(got, want) {
					select {
					case m, ok := <-msgs:
						if !ok {
							t.Fatalf("connection ended before %q; got %v", want, got)
						}
						got = append(got, m)
					case <-timer.C:
						t.Fatalf("no %q within %v; got %v", want, guard, got)
					}
				}
			}
			seq := 0
			send := func(command string, args any) {
				seq++
				body, _ := json.Marshal(map[string]any{"seq": seq, "type": "request", "command": command, "arguments": args})
				if err := dap.WriteFrame(conn.Transport, body); err != nil {
					t.Fatal(err)
				}
			}
			send("initialize", map[string]any{"adapterID": "mock"})
			waitFor("response initialize")
			send("threads", nil)
			waitFor("response threads")
			send("launch", conn.Arguments)
			send("configurationDone", nil)
			waitFor("response configurationDone")
			waitFor("response launch")
			waitFor("event terminated")
			if !slices.Equal(got[:len(tc.want)], tc.want) {
				t.Errorf("order:\n got %v\nwant %v", got[:len(tc.want)], tc.want)
			}
		})
	}
}

func TestRunToEndInEachHandshake(t *testing.T) {
	for _, extra := range []map[string]any{
		nil,
		{"launchResponse": "immediate"},
		{"initializedAfterLaunch": true},
		{"launchResponse": "immediate", "initializedAfterLaunch": true},
	} {
		f := launch(t, testdata(t, "basic.mock"), extra)
		f.start(func() { f.setExceptionFilters("uncaught") })
		if code := f.ended(); code != 0 {
			t.Errorf("%v: exit code %d", extra, code)
		}
		if got, want := f.text("stdout"), "weigh 1\nweigh 2\nweigh 3\ntotal 18\n"; got != want {
			t.Errorf("%v: stdout %q, want %q", extra, got, want)
		}
	}
}

func TestLaunchFailures(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		program string
		want    string
	}{
		{filepath.Join(dir, "missing.mock"), "program not found: " + filepath.Join(dir, "missing.mock")},
		{testdata(t, "syntax.mock"), "syntax error at line 2: unexpected end of line"},
		{dir, "cannot read program " + dir},
		{"", "no program to run"},
	} {
		f := launch(t, tc.program, nil)
		f.must("initialize", map[string]any{"adapterID": "mock"}, nil)
		f.event("initialized")
		if got := f.mustFail("launch", f.conn.Arguments); !strings.HasPrefix(got, tc.want) {
			t.Errorf("launch %q failed with %q; want %q", tc.program, got, tc.want)
		}
		// The connection stays usable, as with a real adapter.
		f.must("disconnect", nil, nil)
	}
	_, err := mockAdapter(t).Launch(context.Background(), adapter.LaunchConfig{Program: "/x.mock", Extra: map[string]any{"launchResponse": "later"}})
	if err == nil || !strings.Contains(err.Error(), "launchResponse") {
		t.Errorf("bad launchResponse: %v", err)
	}
}

func TestAttach(t *testing.T) {
	a := mockAdapter(t)
	for _, cfg := range []adapter.AttachConfig{{Port: 5678}, {ProcessID: 42}, {}} {
		if _, err := a.Attach(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "dapLaunchArgs.program") {
			t.Errorf("Attach(%+v) = %v; want an error naming dapLaunchArgs.program", cfg, err)
		}
	}
	prog := testdata(t, "output.mock")
	conn, err := a.Attach(context.Background(), adapter.AttachConfig{StopOnEntry: true, Extra: map[string]any{"program": prog}})
	if err != nil {
		t.Fatal(err)
	}
	if conn.Request != "attach" {
		t.Errorf("request %q", conn.Request)
	}
	f := connect(t, conn, prog)
	f.start(nil)
	f.stopped("entry", 1)
	f.resume("continue")
	if code := f.ended(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestBreakpointsAndVariables(t *testing.T) {
	f := launch(t, testdata(t, "basic.mock"), nil)
	var bps []godap.Breakpoint
	f.start(func() { bps = f.setBreakpoints(lines(6, 12, 16, 0)...) })

	// Line 6 is blank and 7 a comment: the breakpoint moves to line 8.
	if !bps[0].Verified || bps[0].Line != 8 || !bps[1].Verified || bps[1].Line != 12 || bps[0].Id == bps[1].Id {
		t.Errorf("verified breakpoints: %+v %+v", bps[0], bps[1])
	}
	if bps[2].Verified || bps[2].Message != "line 16 is past the end of the program (15 lines)" || bps[2].Line != 16 {
		t.Errorf("past the end: %+v", bps[2])
	}
	if bps[3].Verified || bps[3].Message == "" {
		t.Errorf("line 0: %+v", bps[3])
	}
	if bps[1].Source == nil || bps[1].Source.Path != f.path {
		t.Errorf("source %+v", bps[1].Source)
	}

	ev, _ := f.stopped("breakpoint", 8)
	if !slices.Equal(ev.HitBreakpointIds, []int{bps[0].Id}) || !ev.AllThreadsStopped {
		t.Errorf("stopped: %+v", ev)
	}
	var threads godap.ThreadsResponseBody
	f.must("threads", nil, &threads)
	if len(threads.Threads) != 1 || threads.Threads[0] != (godap.Thread{Id: 1, Name: "main"}) {
		t.Errorf("threads %+v", threads)
	}

	f.resume("continue")
	_, stack := f.stopped("breakpoint", 12)
	top := stack[0]
	if len(stack) != 1 || top.Name != "<module>" || top.Column != 1 || top.Source.Path != f.path || top.Source.Name != "basic.mock" {
		t.Errorf("stack %+v", stack)
	}
	scopes := f.scopes(top.Id)
	if len(scopes) != 1 || scopes[0].Name != "Locals" || scopes[0].PresentationHint != "locals" {
		t.Fatalf("top-level scopes %+v", scopes)
	}
	got, refs := f.vars(map[string]any{"variablesReference": scopes[0].VariablesReference})
	want := []string{
		"total=0:int",
		"items=[1, 2, 3]:list",
		`user={name: "ada", api_key: "sk-live-0123456789", address: {city: "Paris", zip: 75001}}:map`,
		"i=1:int",
	}
	if !slices.Equal(got, want) || refs["total"] != 0 || refs["items"] == 0 {
		t.Errorf("locals %v (refs %v); want %v", got, refs, want)
	}
	got, urefs := f.vars(map[string]any{"variablesReference": refs["user"]})
	if want := []string{`name="ada":str`, `api_key="sk-live-0123456789":str`, `address={city: "Paris", zip: 75001}:map`}; !slices.Equal(got, want) {
		t.Errorf("user: %v", got)
	}
	if got, _ := f.vars(map[string]any{"variablesReference": urefs["address"]}); !slices.Equal(got, []string{`city="Paris":str`, "zip=75001:int"}) {
		t.Errorf("address: %v", got)
	}
	if got, _ := f.vars(map[string]any{"variablesReference": refs["items"], "start": 1, "count": 1}); !slices.Equal(got, []string{"[1]=2:int"}) {
		t.Errorf("items paged: %v", got)
	}
	var named godap.VariablesResponseBody
	f.must("variables", map[string]any{"variablesReference": urefs["address"]}, &named)
	if named.Variables[0].EvaluateName != "user.address.city" {
		t.Errorf("evaluateName %q", named.Variables[0].EvaluateName)
	}

	// References and frame ids die with the stop.
	f.resume("continue")
	f.stopped("breakpoint", 12)
	if msg := f.mustFail("variables", map[string]any{"variablesReference": refs["user"]}); !strings.Contains(msg, "unknown variablesReference") {
		t.Errorf("stale reference: %q", msg)
	}
	if msg := f.mustFail("scopes", map[string]any{"frameId": top.Id}); !strings.Contains(msg, "unknown frameId") {
		t.Errorf("stale frame: %q", msg)
	}
	if got := f.mustEval("i", 0); got != "2" {
		t.Errorf("i = %s", got)
	}

	// Clearing the file's breakpoints lets the program run to its end.
	f.setBreakpoints()
	f.resume("continue")
	if code := f.ended(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	if msg := f.mustFail("stackTrace", map[string]any{"threadId": 1}); msg != "the program has exited" {
		t.Errorf("stackTrace after exit: %q", msg)
	}
}

func TestBreakpointIDsSurviveResend(t *testing.T) {
	f := launch(t, testdata(t, "basic.mock"), nil)
	var first []godap.Breakpoint
	f.start(func() { first = f.setBreakpoints(godap.SourceBreakpoint{Line: 3, HitCondition: ">= 2"}) })
	f.stopped("breakpoint", 3)
	// Re-sending the set with one more breakpoint keeps the first one's id
	// and hit count: the next stop is its 3rd hit, still >= 2.
	again := f.setBreakpoints(godap.SourceBreakpoint{Line: 3, HitCondition: ">= 2"}, godap.SourceBreakpoint{Line: 15})
	if again[0].Id != first[0].Id || again[1].Id == first[0].Id {
		t.Errorf("ids %d then %d, %d", first[0].Id, again[0].Id, again[1].Id)
	}
	f.resume("continue")
	f.stopped("breakpoint", 3)
	if got := f.mustEval("item", 0); got != "3" {
		t.Errorf("item = %s", got)
	}
}

func TestStepping(t *testing.T) {
	f := launch(t, testdata(t, "basic.mock"), nil)
	f.start(func() { f.setBreakpoints(lines(12)...) })
	f.stopped("breakpoint", 12)

	f.resume("stepIn")
	_, stack := f.stopped("step", 2)
	if len(stack) != 2 || stack[0].Name != "weigh" || stack[1].Name != "<module>" || stack[1].Line != 12 || stack[0].Id == stack[1].Id {
		t.Fatalf("stack in weigh: %+v", stack)
	}
	scopes := f.scopes(stack[0].Id)
	if len(scopes) != 2 || scopes[0].Name != "Locals" || scopes[1].Name != "Globals" {
		t.Fatalf("function scopes %+v", scopes)
	}
	if got, _ := f.vars(map[string]any{"variablesReference": scopes[0].VariablesReference}); !slices.Equal(got, []string{"item=1:int", "factor=3:int"}) {
		t.Errorf("weigh locals %v", got)
	}
	// A caller's frame can be inspected too.
	if got := f.mustEval("total + i", stack[1].Id); got != "1" {
		t.Errorf("total + i in the caller = %s", got)
	}
	if _, err := f.eval("scaled", stack[1].Id); err == nil {
		t.Errorf("weigh's local scaled is visible in the caller's frame")
	}

	f.resume("next")
	f.stopped("step", 3)
	// stepOut finishes the call and the calling statement: the next stop
	// is the statement after it in the caller.
	f.resume("stepOut")
	f.stopped("step", 13)
	if got := f.mustEval("w", 0); got != "3" {
		t.Errorf("w = %s", got)
	}
	// The for header is visited before each further iteration.
	f.resume("next")
	f.stopped("step", 11)
	// A step that lands on a breakpoint reports the breakpoint.
	f.resume("next")
	f.stopped("breakpoint", 12)
	// next steps over the call, though weigh prints.
	f.resume("next")
	f.stopped("step", 13)
	if !strings.Contains(f.text("stdout"), "weigh 2\n") {
		t.Errorf("stdout %q", f.text("stdout"))
	}
	// stepIn on a line without a call behaves like next.
	f.resume("stepIn")
	f.stopped("step", 11)
	// stepOut at the top level runs to the end.
	f.setBreakpoints()
	f.resume("stepOut")
	if code := f.ended(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func TestStepOutRunsRestOfCallingLine(t *testing.T) {
	f := launch(t, testdata(t, "calls.mock"), nil)
	f.start(func() { f.setBreakpoints(lines(2)...) })
	_, stack := f.stopped("breakpoint", 2)
	if len(stack) != 3 || stack[0].Name != "inner" || stack[1].Name != "outer" || stack[1].Line != 5 {
		t.Fatalf("stack %+v", stack)
	}
	// Clear the breakpoint so the second call on line 5 does not stop.
	f.setBreakpoints()
	f.resume("stepOut")
	f.stopped("step", 6)
	if got := f.mustEval("y", 0); got != "13" {
		t.Errorf("y = %s", got)
	}
	f.resume("stepOut")
	f.stopped("step", 9)
	f.resume("continue")
	f.ended()
	if got := f.text("stdout"); got != "result 13\n" {
		t.Errorf("stdout %q", got)
	}
}

func TestEvaluate(t *testing.T) {
	f := launch(t, testdata(t, "basic.mock"), nil)
	f.start(func() { f.setBreakpoints(lines(13)...) })
	f.stopped("breakpoint", 13)

	for expr, want := range map[string]string{
		"total + w":                "3",
		"user.address.city":        `"Paris"`,
		`user["api_key"]`:          `"sk-live-0123456789"`,
		"items[2] * 10 % 7":        "2",
		`"n=" + str(len(items))`:   `"n=3"`,
		"[i, w] == [1, 3]":         "true",
		"not (i > 0 and w < 3)":    "true",
		"-i":                       "-1",
		"null":                     "null",
		"{a: items}":               "{a: [1, 2, 3]}",
		"weigh(2, 5)":              "10",
		`"quote \" and \\ inside"`: `"quote \" and \\ inside"`,
	} {
		if got := f.mustEval(expr, 0); got != want {
			t.Errorf("evaluate %s = %s; want %s", expr, got, want)
		}
	}
	// A function called from evaluate really runs: its output is sent.
	f.event("output")
	if !strings.Contains(f.text("stdout"), "weigh 2\n") {
		t.Errorf("stdout %q", f.text("stdout"))
	}
	body, err := f.eval("user", 0)
	if err != nil || body.Type != "map" || body.VariablesReference == 0 || body.NamedVariables != 3 {
		t.Errorf("evaluate user: %+v %v", body, err)
	}
	var children godap.VariablesResponseBody
	f.must("variables", map[string]any{"variablesReference": body.VariablesReference}, &children)
	if children.Variables[2].EvaluateName != "user.address" {
		t.Errorf("child evaluateName %q", children.Variables[2].EvaluateName)
	}

	for expr, want := range map[string]string{
		"foo":          "NameError: name 'foo' is not defined",
		"items[5]":     "IndexError: list index 5 out of range (length 3)",
		"1 / 0":        "ZeroDivisionError: division by zero",
		`"a" + 1`:      "TypeError: unsupported operand types for +: str and int",
		"user.phone":   "KeyError: 'phone'",
		"weigh(1)":     "TypeError: weigh() takes 2 arguments (1 given)",
		"total +":      `syntax error in "total +": unexpected end of line`,
		"weigh":        "TypeError: weigh is a function; call it with (…)",
		"len(1)":       "TypeError: int has no len()",
		"items(1)":     "NameError: name 'items' is not defined",
		"total = 1":    `syntax error in "total = 1": unexpected "="`,
		"str(1, 2)":    "TypeError: str() takes 1 argument (2 given)",
		"items.length": "TypeError: list has no key length (only maps have keys)",
	} {
		_, err := f.eval(expr, 0)
		re, ok := err.(*dap.ResponseError)
		if !ok || re.Text() != want {
			t.Errorf("evaluate %s: %v; want %q", expr, err, want)
		}
	}
	if msg := f.mustFail("evaluate", map[string]any{"expression": "1", "frameId": 9999}); !strings.Contains(msg, "unknown frameId 9999") {
		t.Errorf("bad frame: %q", msg)
	}
	// The session is still usable after failed evaluations.
	f.resume("continue")
	f.stopped("breakpoint", 13)
	if got := f.mustEval("i", 0); got != "2" {
		t.Errorf("i = %s", got)
	}
}

func TestSetVariable(t *testing.T) {
	f := launch(t, testdata(t, "basic.mock"), nil)
	f.start(func() { f.setBreakpoints(lines(3, 15)...) })
	_, stack := f.stopped("breakpoint", 3)
	scopes := f.scopes(stack[0].Id)
	var body godap.SetVariableResponseBody
	f.must("setVariable", map[string]any{"variablesReference": scopes[0].VariablesReference, "name": "item", "value": "item * 100"}, &body)
	if body.Value != "100" || body.Type != "int" {
		t.Errorf("setVariable: %+v", body)
	}
	f.must("setVariable", map[string]any{"variablesReference": scopes[0].VariablesReference, "name": "scaled", "value": "item * factor"}, &body)
	if body.Value != "300" {
		t.Errorf("setVariable scaled: %+v", body)
	}
	_, grefs := f.vars(map[string]any{"variablesReference": scopes[1].VariablesReference})
	f.must("setVariable", map[string]any{"variablesReference": grefs["items"], "name": "[0]", "value": `"x"`}, &body)
	f.must("setVariable", map[string]any{"variablesReference": grefs["user"], "name": "name", "value": `"grace"`}, nil)
	if msg := f.mustFail("setVariable", map[string]any{"variablesReference": scopes[0].VariablesReference, "name": "nope", "value": "1"}); !strings.Contains(msg, "nope") {
		t.Errorf("unknown name: %q", msg)
	}
	if msg := f.mustFail("setVariable", map[string]any{"variablesReference": grefs["items"], "name": "[7]", "value": "1"}); !strings.Contains(msg, "[7]") {
		t.Errorf("bad index: %q", msg)
	}
	if got := f.mustEval(`[items[0], user.name]`, 0); got != `["x", "grace"]` {
		t.Errorf("after setVariable: %s", got)
	}
	f.setBreakpoints(lines(15)...)
	f.resume("continue")
	f.stopped("breakpoint", 15)
	// weigh printed the changed item; total got 300 + 6 + 9.
	if got := f.mustEval("total", 0); got != "315" || !strings.HasPrefix(f.text("stdout"), "weigh 100\n") {
		t.Errorf("total = %s, stdout %q", got, f.text("stdout"))
	}
}

func TestConditionsHitConditionsAndLogPoints(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bp    godap.SourceBreakpoint
		items []string // item at each stop
	}{
		{"condition", godap.SourceBreakpoint{Line: 3, Condition: "item == 2"}, []string{"2"}},
		{"hit count N means the Nth hit", godap.SourceBreakpoint{Line: 3, HitCondition: "2"}, []string{"2"}},
		{"== N", godap.SourceBreakpoint{Line: 3, HitCondition: "== 3"}, []string{"3"}},
		{">= N", godap.SourceBreakpoint{Line: 3, HitCondition: ">= 2"}, []string{"2", "3"}},
		{"> N", godap.SourceBreakpoint{Line: 3, HitCondition: ">1"}, []string{"2", "3"}},
		{"% N", godap.SourceBreakpoint{Line: 3, HitCondition: "% 2"}, []string{"2"}},
		{"hits count only when the condition holds", godap.SourceBreakpoint{Line: 3, Condition: "item > 1", HitCondition: "2"}, []string{"3"}},
		{"condition never true", godap.SourceBreakpoint{Line: 3, Condition: "item > 5"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := launch(t, testdata(t, "basic.mock"), nil)
			f.start(func() { f.setBreakpoints(tc.bp) })
			for _, want := range tc.items {
				f.stopped("breakpoint", 3)
				if got := f.mustEval("item", 0); got != want {
					t.Errorf("item = %s; want %s", got, want)
				}
				f.resume("continue")
			}
			f.ended()
		})
	}

	t.Run("log point", func(t *testing.T) {
		f := launch(t, testdata(t, "basic.mock"), nil)
		f.start(func() {
			f.setBreakpoints(godap.SourceBreakpoint{Line: 4, LogMessage: "scaled {item} to {scaled}, {nope} {"})
		})
		f.ended()
		want := "scaled 1 to 3, <error: NameError: name 'nope' is not defined> {\n" +
			"scaled 2 to 6, <error: NameError: name 'nope' is not defined> {\n" +
			"scaled 3 to 9, <error: NameError: name 'nope' is not defined> {\n"
		if got := f.text("console"); got != want {
			t.Errorf("console %q; want %q", got, want)
		}
	})

	t.Run("broken condition stops and explains", func(t *testing.T) {
		f := launch(t, testdata(t, "basic.mock"), nil)
		f.start(func() { f.setBreakpoints(godap.SourceBreakpoint{Line: 3, Condition: "nope > 1"}) })
		f.stopped("breakpoint", 3)
		if got := f.text("console"); !strings.Contains(got, `condition "nope > 1" could not be evaluated (NameError: name 'nope' is not defined); treating it as true`) {
			t.Errorf("console %q", got)
		}
	})

	t.Run("invalid hit condition", func(t *testing.T) {
		f := launch(t, testdata(t, "basic.mock"), nil)
		var bps []godap.Breakpoint
		f.start(func() { bps = f.setBreakpoints(godap.SourceBreakpoint{Line: 3, HitCondition: "often"}) })
		if bps[0].Verified || !strings.Contains(bps[0].Message, `invalid hitCondition "often"`) {
			t.Errorf("breakpoint %+v", bps[0])
		}
		f.ended()
	})
}

func TestFunctionBreakpoints(t *testing.T) {
	f := launch(t, testdata(t, "basic.mock"), nil)
	var body godap.SetFunctionBreakpointsResponseBody
	f.start(func() {
		f.must("setFunctionBreakpoints", map[string]any{"breakpoints": []map[string]any{
			{"name": "weigh", "condition": "item == 2"}, {"name": "missing"},
		}}, &body)
	})
	bps := body.Breakpoints
	if len(bps) != 2 || !bps[0].Verified || bps[0].Line != 2 || bps[1].Verified || bps[1].Message != "function missing is not defined in basic.mock" {
		t.Fatalf("function breakpoints %+v", bps)
	}
	ev, stack := f.stopped("function breakpoint", 2)
	if !slices.Equal(ev.HitBreakpointIds, []int{bps[0].Id}) || stack[0].Name != "weigh" {
		t.Errorf("stop %+v in %s", ev, stack[0].Name)
	}
	if got := f.mustEval("item", 0); got != "2" {
		t.Errorf("item = %s", got)
	}
	f.resume("continue")
	f.ended()
}

func TestExceptions(t *testing.T) {
	for _, tc := range []struct {
		filters []string
		mode    godap.ExceptionBreakMode // "" when it must not stop
	}{
		{[]string{"uncaught"}, "unhandled"},
		{[]string{"all"}, "always"},
		{[]string{"all", "uncaught"}, "always"},
		{nil, ""},
	} {
		f := launch(t, testdata(t, "exception.mock"), nil)
		f.start(func() { f.setExceptionFilters(tc.filters...) })
		if tc.mode != "" {
			ev, stack := f.stopped("exception", 2)
			msg := "ZeroDivisionError: division by zero"
			if ev.Description != msg || ev.Text != msg || len(stack) != 2 || stack[0].Name != "divide" || stack[1].Line != 7 {
				t.Errorf("%v: stopped %+v, stack %+v", tc.filters, ev, stack)
			}
			var info godap.ExceptionInfoResponseBody
			f.must("exceptionInfo", map[string]any{"threadId": 1}, &info)
			wantTrace := "  at divide (" + f.path + ":2)\n  at <module> (" + f.path + ":7)\n"
			if info.ExceptionId != "ZeroDivisionError" || info.Description != msg || info.BreakMode != tc.mode ||
				info.Details == nil || info.Details.Message != msg || info.Details.TypeName != "ZeroDivisionError" || info.Details.StackTrace != wantTrace {
				t.Errorf("%v: exceptionInfo %+v %+v", tc.filters, info, info.Details)
			}
			if got := f.mustEval("b", 0); got != "0" {
				t.Errorf("b = %s", got)
			}
			// Nothing catches: even a step ends the program.
			f.resume("next")
		}
		if code := f.ended(); code != 1 {
			t.Errorf("%v: exit code %d", tc.filters, code)
		}
		if got := f.text("stderr"); got != "Traceback: ZeroDivisionError: division by zero\n" {
			t.Errorf("%v: stderr %q", tc.filters, got)
		}
		if got := f.text("stdout"); got != "start\nhalf 5\n" {
			t.Errorf("%v: stdout %q", tc.filters, got)
		}
	}

	f := launch(t, testdata(t, "throw.mock"), nil)
	var body godap.SetExceptionBreakpointsResponseBody
	f.start(func() {
		f.must("setExceptionBreakpoints", map[string]any{"filters": []string{"uncaught", "caught"}}, &body)
	})
	if len(body.Breakpoints) != 2 || !body.Breakpoints[0].Verified || body.Breakpoints[1].Verified {
		t.Errorf("filters %+v", body.Breakpoints)
	}
	f.stopped("exception", 2)
	var info godap.ExceptionInfoResponseBody
	f.must("exceptionInfo", map[string]any{"threadId": 1}, &info)
	if info.ExceptionId != "ValueError" || info.Description != "ValueError: bad value" {
		t.Errorf("exceptionInfo %+v", info)
	}
	f.resume("continue")
	if code := f.ended(); code != 1 {
		t.Errorf("exit code %d", code)
	}
}

func TestOutputAndExitCode(t *testing.T) {
	f := launch(t, testdata(t, "output.mock"), nil)
	f.start(nil)
	if code := f.ended(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	var got []string
	for _, o := range f.output {
		got = append(got, o.Category+":"+o.Output)
	}
	if want := []string{"stdout:hello\n", "stderr:warning\n", "stdout:line 2\n", "stdout:done\n"}; !slices.Equal(got, want) {
		t.Errorf("output %q; want %q", got, want)
	}

	f = launch(t, testdata(t, "exit.mock"), nil)
	f.start(nil)
	if code := f.ended(); code != 3 {
		t.Errorf("exit code %d; want 3", code)
	}
	if got := f.text("stdout"); got != "exiting\n" {
		t.Errorf("stdout %q", got)
	}
}

func TestStopOnEntry(t *testing.T) {
	f := launch(t, testdata(t, "basic.mock"), map[string]any{"stopOnEntry": true})
	// The entry stop wins over a breakpoint on the first statement.
	f.start(func() { f.setBreakpoints(lines(1)...) })
	f.stopped("entry", 1)
	f.resume("next")
	f.stopped("step", 8)
	f.resume("continue")
	f.ended()
}

func TestPauseLoop(t *testing.T) {
	f := launch(t, testdata(t, "loop.mock"), nil)
	f.start(nil)
	if msg := f.mustFail("stackTrace", map[string]any{"threadId": 1}); msg != "thread is not paused" {
		t.Errorf("stackTrace while running: %q", msg)
	}
	if msg := f.mustFail("continue", map[string]any{"threadId": 1}); msg != "thread is not paused" {
		t.Errorf("continue while running: %q", msg)
	}
	for range 2 {
		f.must("pause", map[string]any{"threadId": 1}, nil)
		var ev godap.StoppedEventBody
		decode(t, f.event("stopped").Body, &ev)
		line := f.stack()[0].Line
		if ev.Reason != "pause" || line < 1 || line > 3 {
			t.Fatalf("stopped %+v at line %d", ev, line)
		}
		// Pausing a paused program is harmless.
		f.must("pause", map[string]any{"threadId": 1}, nil)
		for ; line < 3; line++ {
			f.resume("next")
			f.stopped("step", line+1)
		}
		// One iteration, stepped through, adds one to n.
		before := f.mustEval("n", 0)
		f.resume("next")
		f.stopped("step", 2)
		if after := f.mustEval("n - 1", 0); after != before {
			t.Errorf("n went from %s to %s + 1", before, after)
		}
		f.resume("continue")
	}
	f.must("terminate", nil, nil)
	f.event("terminated")
	f.must("disconnect", map[string]any{"terminateDebuggee": true}, nil)
	select {
	case <-f.c.Done():
	case <-time.After(guard):
		t.Fatal("the adapter did not close the connection after disconnect")
	}
}

func TestPauseDuringSleep(t *testing.T) {
	f := launch(t, testdata(t, "sleep.mock"), map[string]any{"stopOnEntry": true})
	f.start(nil)
	f.stopped("entry", 1)
	f.resume("next")
	f.stopped("step", 2)
	// Whether the pause arrives before the sleep begins or during it, the
	// program stops inside the sleep, and again after being resumed.
	for range 2 {
		f.resume("continue")
		f.must("pause", map[string]any{"threadId": 1}, nil)
		f.stopped("pause", 2)
	}
	f.must("terminate", nil, nil)
	f.event("terminated")
	if got := f.text("stdout"); got != "sleeping\n" {
		t.Errorf("stdout %q", got)
	}
	f.must("disconnect", nil, nil)
}

func TestCrash(t *testing.T) {
	f := launch(t, testdata(t, "crash.mock"), nil)
	f.start(nil)
	var events []string
	for ev := range f.c.Events() {
		events = append(events, ev.Name+" "+string(ev.Body))
	}
	if err := f.c.Err(); err == nil || !strings.Contains(err.Error(), "closed the connection") {
		t.Errorf("Err() = %v", err)
	}
	// No exited or terminated: the adapter just went away.
	if want := []string{`output {"category":"stdout","output":"about to crash\n"}`}; !slices.Equal(events, want) {
		t.Errorf("events before the crash: %q; want %q", events, want)
	}
}

func TestProtocolErrors(t *testing.T) {
	f := launch(t, testdata(t, "basic.mock"), nil)
	if msg := f.mustFail("threads", nil); !strings.Contains(msg, "initialize") {
		t.Errorf("before initialize: %q", msg)
	}
	if msg := f.mustFail("frobnicate", nil); msg != "unrecognized request: frobnicate" {
		t.Errorf("unknown request: %q", msg)
	}
	f.start(func() {
		if msg := f.mustFail("stackTrace", map[string]any{"threadId": 1}); !strings.Contains(msg, "not started") {
			t.Errorf("stackTrace before configurationDone: %q", msg)
		}
		f.setBreakpoints(lines(8)...)
	})
	f.stopped("breakpoint", 8)
	for _, tc := range []struct {
		command string
		args    any
		want    string
	}{
		{"frobnicate", nil, "unrecognized request: frobnicate"},
		{"initialize", nil, "initialize was already received"},
		{"launch", f.conn.Arguments, "the program was already launched"},
		{"configurationDone", nil, "configurationDone was already received"},
		{"stackTrace", map[string]any{"threadId": 2}, "unknown thread 2"},
		{"exceptionInfo", map[string]any{"threadId": 1}, "the thread is not stopped on an exception"},
		{"setBreakpoints", map[string]any{"source": map[string]any{}}, "setBreakpoints needs source.path"},
		{"scopes", "not an object", "bad arguments for scopes"},
	} {
		if msg := f.mustFail(tc.command, tc.args); !strings.HasPrefix(msg, tc.want) {
			t.Errorf("%s: %q; want %q", tc.command, msg, tc.want)
		}
	}
	var bp godap.SetBreakpointsResponseBody
	f.must("setBreakpoints", map[string]any{"source": map[string]any{"path": "/no/such.mock"}, "breakpoints": []map[string]any{{"line": 1}}}, &bp)
	if bp.Breakpoints[0].Verified || bp.Breakpoints[0].Message != "source not found: /no/such.mock" {
		t.Errorf("missing source: %+v", bp.Breakpoints[0])
	}
	// Still usable.
	f.resume("continue")
	f.ended()
	if msg := f.mustFail("pause", map[string]any{"threadId": 1}); msg != "the program has exited" {
		t.Errorf("pause after exit: %q", msg)
	}
	var threads godap.ThreadsResponseBody
	f.must("threads", nil, &threads)
	if len(threads.Threads) != 0 {
		t.Errorf("threads after exit: %+v", threads)
	}
	f.must("terminate", nil, nil)
}

// TestCleanup ends adapters in every state through Cleanup alone; TestMain
// then checks that no goroutine was left behind.
func TestCleanup(t *testing.T) {
	for _, tc := range []struct {
		name  string
		prog  string
		setup func(f *fake)
	}{
		{"before initialize", "basic.mock", func(*fake) {}},
		{"paused", "basic.mock", func(f *fake) {
			f.start(func() { f.setBreakpoints(lines(3)...) })
			f.stopped("breakpoint", 3)
		}},
		{"looping", "loop.mock", func(f *fake) { f.start(nil) }},
		{"sleeping", "sleep.mock", func(f *fake) { f.start(nil) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := mockAdapter(t).Launch(context.Background(), adapter.LaunchConfig{Program: testdata(t, tc.prog)})
			if err != nil {
				t.Fatal(err)
			}
			c := dap.NewClient(conn.Transport, dap.Options{})
			defer c.Close()
			tc.setup(&fake{t: t, conn: conn, c: c, path: testdata(t, tc.prog)})
			conn.Cleanup()
			select {
			case <-c.Done():
			case <-time.After(guard):
				t.Fatal("the connection is still open after Cleanup")
			}
		})
	}
}

func TestEdgePrograms(t *testing.T) {
	t.Run("empty program never stops", func(t *testing.T) {
		f := launch(t, writeProgram(t, "# nothing\n\n"), map[string]any{"stopOnEntry": true})
		f.start(nil)
		if code := f.ended(); code != 0 {
			t.Errorf("exit code %d", code)
		}
	})
	t.Run("function with an empty body", func(t *testing.T) {
		f := launch(t, writeProgram(t, "func noop()\nend\nnoop()\nprint \"after\"\n"), nil)
		var body godap.SetFunctionBreakpointsResponseBody
		f.start(func() {
			f.must("setFunctionBreakpoints", map[string]any{"breakpoints": []map[string]any{{"name": "noop"}}}, &body)
			f.setBreakpoints(lines(3)...)
		})
		if bp := body.Breakpoints[0]; !bp.Verified || bp.Line != 1 {
			t.Errorf("breakpoint %+v", bp)
		}
		f.stopped("breakpoint", 3)
		// Nothing in noop to stop at: stepIn behaves like next.
		f.resume("stepIn")
		f.stopped("step", 4)
		f.resume("continue")
		f.ended()
	})
	t.Run("exit inside a function while stepping", func(t *testing.T) {
		f := launch(t, writeProgram(t, "func bye()\n  exit 7\nend\nbye()\n"), map[string]any{"stopOnEntry": true})
		f.start(nil)
		f.stopped("entry", 1)
		f.resume("next")
		f.stopped("step", 4)
		f.resume("stepIn")
		f.stopped("step", 2)
		f.resume("next")
		if code := f.ended(); code != 7 {
			t.Errorf("exit code %d", code)
		}
	})
	t.Run("runaway recursion is an exception", func(t *testing.T) {
		f := launch(t, writeProgram(t, "func down(n)\n  down(n + 1)\nend\ndown(0)\n"), nil)
		f.start(func() { f.setExceptionFilters("uncaught") })
		ev, stack := f.stopped("exception", 2)
		if ev.Text != "RecursionError: maximum call depth (200) exceeded" || len(stack) != 200 {
			t.Errorf("stopped %+v with %d frames", ev, len(stack))
		}
		var page godap.StackTraceResponseBody
		f.must("stackTrace", map[string]any{"threadId": 1, "startFrame": 198, "levels": 5}, &page)
		if len(page.StackFrames) != 2 || page.TotalFrames != 200 || page.StackFrames[1].Name != "<module>" || page.StackFrames[1].Line != 4 {
			t.Errorf("last frames %+v (total %d)", page.StackFrames, page.TotalFrames)
		}
		f.resume("continue")
		f.ended()
	})
}

// TestHandlerPanicFailsOnlyThatRequest: a panic in a request handler (one
// injected into the server's table) fails that request, and the session
// goes on to the program's end.
func TestHandlerPanicFailsOnlyThatRequest(t *testing.T) {
	program := testdata(t, "basic.mock")
	conn := mock.StartWithHandler(map[string]any{"program": program}, "evaluate", func(context.Context, *dapserver.Request) (any, error) {
		panic("injected fault")
	})
	f := connect(t, conn, program)
	f.start(func() { f.setBreakpoints(lines(8)...) })
	f.stopped("breakpoint", 8)
	if msg := f.mustFail("evaluate", map[string]any{"expression": "1"}); msg != "internal error in the mock adapter while handling evaluate: injected fault" {
		t.Errorf("the panicking request: %q", msg)
	}
	f.resume("continue")
	if code := f.ended(); code != 0 {
		t.Errorf("exit code %d after the panic; want 0", code)
	}
}
