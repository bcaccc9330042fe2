// Package bench compares each debugging operation done through
// mcp-debugger (the built binary, over stdio, as an agent calls it) with the
// same operation in raw DAP against the same debug adapter, per language.
//
//	make bench     (or: go test -run '^$' -bench . -benchtime 20x ./internal/bench/)
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-dap"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-debugger/mcp-debugger/internal/adapter"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/golang"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/java"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/lldb"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/node"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/python"
	_ "github.com/mcp-debugger/mcp-debugger/internal/adapter/ruby"
	dapc "github.com/mcp-debugger/mcp-debugger/internal/dap"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// The operations timed, in the order a session does them.
var ops = []string{"first_stop", "locals", "step_over", "continue", "evaluate", "close"}

// withInfo marks the raw timing of a run-control operation followed by
// what our snapshot carries (stack, scopes, locals), the same information.
const withInfo = "+locals"

// target is one language's benchmark program: a breakpoint inside a loop,
// so that continue reaches it again.
type target struct {
	language   string
	scriptPath string // relative to the repository root
	file       string // the breakpoint's file, relative to the repository root
	line       int
	expression string
}

var targets = []target{
	{"python", "examples/python/orders.py", "examples/python/orders.py", 22, "subtotal + 1"},
	{"go", "testdata/go/loop", "testdata/go/loop/main.go", 27, "total + i"},
	{"c", "testdata/native/c/loop.c", "testdata/native/c/loop.c", 40, "total + i"},
	{"rust", "testdata/native/rust", "testdata/native/rust/src/main.rs", 18, "total + 1"},
	{"ruby", "testdata/ruby/loop.rb", "testdata/ruby/loop.rb", 12, "total + i"},
	{"javascript", "testdata/node/loop.js", "testdata/node/loop.js", 10, "total + i"},
	{"java", "testdata/java/Hello.java", "testdata/java/Hello.java", 6, "i + count"},
}

func abs(b *testing.B, rel string) string {
	p, err := filepath.Abs(filepath.Join("../..", rel))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkSession runs one session per iteration and language both ways
// and reports each operation's median in ms, the ratio, and the server's
// memory.
func BenchmarkSession(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	srv := startServer(ctx, b)
	defer srv.close()
	for _, tg := range targets {
		b.Run(tg.language, func(b *testing.B) {
			testenv.RequireAdapter(b, tg.language)
			tg.scriptPath, tg.file = abs(b, tg.scriptPath), abs(b, tg.file)
			benchTarget(ctx, b, srv, tg)
		})
	}
}

func benchTarget(ctx context.Context, b *testing.B, srv *server, tg target) {

	viaMCP := map[string][]time.Duration{}
	// viaDAP also holds step_over+locals and continue+locals.
	viaDAP := map[string][]time.Duration{}
	// One untimed round of each warms the OS caches and the interpreter's .pyc files.
	if _, err := srv.session(ctx, tg); err != nil {
		b.Fatal(err)
	}
	if _, err := rawSession(ctx, tg); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		m, err := srv.session(ctx, tg)
		if err != nil {
			b.Fatal(err)
		}
		r, err := rawSession(ctx, tg)
		if err != nil {
			b.Fatal(err)
		}
		for _, op := range ops {
			viaMCP[op] = append(viaMCP[op], m[op])
		}
		for op, d := range r {
			viaDAP[op] = append(viaDAP[op], d)
		}
	}
	b.StopTimer()

	var table strings.Builder
	fmt.Fprintf(&table, "\n%s\n%-11s %8s %8s %6s %14s %6s  (medians of %d sessions)\n", tg.language, "operation", "mcp ms", "raw ms", "ratio", "raw+locals ms", "ratio", len(viaMCP["close"]))
	for _, op := range ops {
		mm, rm := ms(median(viaMCP[op])), ms(median(viaDAP[op]))
		fmt.Fprintf(&table, "%-11s %8.2f %8.2f %6.2f", op, mm, rm, mm/rm)
		if info, ok := viaDAP[op+withInfo]; ok {
			im := ms(median(info))
			fmt.Fprintf(&table, " %14.2f %6.2f", im, mm/im)
		}
		table.WriteString("\n")
		b.ReportMetric(mm, op+"-mcp-ms")
		b.ReportMetric(rm, op+"-raw-ms")
	}
	rss, hwm := srv.memory()
	fmt.Fprintf(&table, "server memory: %.1f MB resident now, %.1f MB peak\n", float64(rss)/1024, float64(hwm)/1024)
	b.ReportMetric(float64(hwm)/1024, "server-peak-MB")
	b.Log(table.String())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// server is the built mcp-debugger driven over stdio.
type server struct {
	cmd *exec.Cmd
	cs  *mcp.ClientSession
}

func startServer(ctx context.Context, b *testing.B) *server {
	bin := filepath.Join(b.TempDir(), "mcp-debugger")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/mcp-debugger").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return &server{cmd: cmd, cs: cs}
}

func (s *server) close() { s.cs.Close() }

// memory reads the server's resident and peak resident set, in kB.
func (s *server) memory() (rss, hwm int) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "VmRSS:":
			rss = n
		case "VmHWM:":
			hwm = n
		}
	}
	return rss, hwm
}

func (s *server) call(ctx context.Context, tool string, args map[string]any) (map[string]any, error) {
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("%s: %v", tool, out["error"])
	}
	return out, nil
}

// session runs the benchmark's session through MCP and times each operation.
func (s *server) session(ctx context.Context, tg target) (map[string]time.Duration, error) {
	t := map[string]time.Duration{}
	created, err := s.call(ctx, "create_debug_session", map[string]any{"language": tg.language})
	if err != nil {
		return nil, err
	}
	id := created["sessionId"]
	if _, err := s.call(ctx, "set_breakpoint", map[string]any{"sessionId": id, "file": tg.file, "line": tg.line}); err != nil {
		return nil, err
	}
	steps := []struct {
		op, tool string
		args     map[string]any
		want     string
	}{
		{"first_stop", "start_debugging", map[string]any{"sessionId": id, "scriptPath": tg.scriptPath}, "paused"},
		{"locals", "get_local_variables", map[string]any{"sessionId": id}, ""},
		{"step_over", "step_over", map[string]any{"sessionId": id}, "paused"},
		{"continue", "continue_execution", map[string]any{"sessionId": id}, "paused"},
		{"evaluate", "evaluate_expression", map[string]any{"sessionId": id, "expression": tg.expression}, ""},
		{"close", "close_debug_session", map[string]any{"sessionId": id}, ""},
	}
	for _, st := range steps {
		start := time.Now()
		out, err := s.call(ctx, st.tool, st.args)
		t[st.op] = time.Since(start)
		if err != nil {
			return nil, err
		}
		if st.want != "" && out["state"] != st.want {
			return nil, fmt.Errorf("%s: state %v, want %s", st.tool, out["state"], st.want)
		}
	}
	return t, nil
}

// topLocals fetches the top frame's locals the only way DAP allows: stack,
// then scopes, then variables.
// It returns the top frame's id.
func topLocals(ctx context.Context, c *dapc.Client, threadID int) (int, error) {
	var stack dap.StackTraceResponseBody
	if err := c.Call(ctx, "stackTrace", map[string]any{"threadId": threadID, "startFrame": 0, "levels": 20}, &stack); err != nil {
		return 0, err
	}
	frameID := stack.StackFrames[0].Id
	var scopes dap.ScopesResponseBody
	if err := c.Call(ctx, "scopes", map[string]any{"frameId": frameID}, &scopes); err != nil {
		return 0, err
	}
	return frameID, c.Call(ctx, "variables", map[string]any{"variablesReference": scopes.Scopes[0].VariablesReference}, nil)
}

// rawSession does the same in plain DAP with the same adapter and launch
// arguments, doing only what each operation strictly needs.
func rawSession(ctx context.Context, tg target) (map[string]time.Duration, error) {
	t := map[string]time.Duration{}
	a, _ := adapter.Lookup(tg.language)
	start := time.Now()
	conn, err := a.Launch(ctx, adapter.LaunchConfig{Program: tg.scriptPath})
	if err != nil {
		return nil, err
	}
	c := dapc.NewClient(conn.Transport, dapc.Options{AfterRead: conn.AfterRead})
	var once sync.Once
	cleanup := func() {
		once.Do(func() {
			c.Close()
			if conn.Cleanup != nil {
				conn.Cleanup()
			}
		})
	}
	defer cleanup()

	initialized := make(chan struct{})
	stopped := make(chan dap.StoppedEventBody, 8)
	go func() {
		initOnce := sync.Once{}
		for ev := range c.Events() {
			switch ev.Name {
			case "initialized":
				initOnce.Do(func() { close(initialized) })
			case "stopped":
				var b dap.StoppedEventBody
				_ = json.Unmarshal(ev.Body, &b)
				stopped <- b
			}
		}
	}()
	waitStop := func() (dap.StoppedEventBody, error) {
		select {
		case b := <-stopped:
			return b, nil
		case <-ctx.Done():
			return dap.StoppedEventBody{}, ctx.Err()
		}
	}

	var caps dap.Capabilities
	if err := c.Call(ctx, "initialize", map[string]any{"clientID": "raw", "adapterID": conn.AdapterID, "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}, &caps); err != nil {
		return nil, err
	}
	filters := []string{}
	for _, f := range caps.ExceptionBreakpointFilters {
		if f.Default || f.Filter == "uncaught" {
			filters = append(filters, f.Filter)
		}
	}
	launch, err := c.Send(conn.Request, conn.Arguments)
	if err != nil {
		return nil, err
	}
	select {
	case <-initialized:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err := c.Call(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": tg.file}, "breakpoints": []map[string]any{{"line": tg.line}}}, nil); err != nil {
		return nil, err
	}
	if err := c.Call(ctx, "setExceptionBreakpoints", map[string]any{"filters": filters}, nil); err != nil {
		return nil, err
	}
	if err := c.Call(ctx, "configurationDone", nil, nil); err != nil {
		return nil, err
	}
	if err := launch.Wait(ctx, nil); err != nil {
		return nil, err
	}
	stop, err := waitStop()
	if err != nil {
		return nil, err
	}
	t["first_stop"] = time.Since(start)

	begin := time.Now()
	if _, err := topLocals(ctx, c, stop.ThreadId); err != nil {
		return nil, err
	}
	t["locals"] = time.Since(begin)

	var frameID int
	for _, op := range []struct{ name, cmd string }{{"step_over", "next"}, {"continue", "continue"}} {
		begin = time.Now()
		if err := c.Call(ctx, op.cmd, map[string]any{"threadId": stop.ThreadId}, nil); err != nil {
			return nil, err
		}
		if stop, err = waitStop(); err != nil {
			return nil, err
		}
		t[op.name] = time.Since(begin)
		// What the snapshot also carries: where it stopped and the locals.
		if frameID, err = topLocals(ctx, c, stop.ThreadId); err != nil {
			return nil, err
		}
		t[op.name+withInfo] = time.Since(begin)
	}

	begin = time.Now()
	if err := c.Call(ctx, "evaluate", map[string]any{"expression": tg.expression, "frameId": frameID, "context": evalContext(conn.Quirks.EvaluateContext)}, nil); err != nil {
		return nil, err
	}
	t["evaluate"] = time.Since(begin)

	begin = time.Now()
	_ = c.Call(ctx, "disconnect", map[string]any{"terminateDebuggee": true}, nil)
	cleanup()
	t["close"] = time.Since(begin)
	return t, nil
}

func evalContext(c string) string {
	if c == "" {
		return "repl"
	}
	return c
}

// BenchmarkJavaJDWP compares the Java session through MCP with the same
// work in raw JDWP against the same kind of JVM (the floor; see
// rawJDWPSession), with and without TCP_QUICKACK on the raw socket.
func BenchmarkJavaJDWP(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	testenv.RequireAdapter(b, "java")
	tg := targets[slices.IndexFunc(targets, func(t target) bool { return t.language == "java" })]
	tg.scriptPath, tg.file = abs(b, tg.scriptPath), abs(b, tg.file)
	srv := startServer(ctx, b)
	defer srv.close()
	runs := map[string]map[string][]time.Duration{"mcp": {}, "jdwp": {}, "jdwp-noquickack": {}}
	do := func() error {
		m, err := srv.session(ctx, tg)
		if err != nil {
			return err
		}
		r, err := rawJDWPSession(ctx, tg, true)
		if err != nil {
			return err
		}
		n, err := rawJDWPSession(ctx, tg, false)
		if err != nil {
			return err
		}
		for name, res := range map[string]map[string]time.Duration{"mcp": m, "jdwp": r, "jdwp-noquickack": n} {
			for op, d := range res {
				runs[name][op] = append(runs[name][op], d)
			}
		}
		return nil
	}
	if err := do(); err != nil {
		b.Fatal(err)
	}
	runs = map[string]map[string][]time.Duration{"mcp": {}, "jdwp": {}, "jdwp-noquickack": {}}
	b.ResetTimer()
	for b.Loop() {
		if err := do(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var table strings.Builder
	fmt.Fprintf(&table, "\njava vs raw JDWP\n%-11s %8s %8s %6s %14s %16s %6s  (medians of %d sessions)\n", "operation", "mcp ms", "jdwp ms", "ratio", "no-quickack ms", "jdwp+locals ms", "ratio", len(runs["mcp"]["close"]))
	for _, op := range ops {
		mm, rm, nm := ms(median(runs["mcp"][op])), ms(median(runs["jdwp"][op])), ms(median(runs["jdwp-noquickack"][op]))
		fmt.Fprintf(&table, "%-11s %8.2f %8.2f %6.2f %14.2f", op, mm, rm, mm/rm, nm)
		if info, ok := runs["jdwp"][op+withInfo]; ok {
			im := ms(median(info))
			fmt.Fprintf(&table, " %16.2f %6.2f", im, mm/im)
		}
		table.WriteString("\n")
		b.ReportMetric(mm, op+"-mcp-ms")
		b.ReportMetric(rm, op+"-jdwp-ms")
	}
	b.Log(table.String())
}
