//go:build linux

package main

// The attack suite (`make attack`, docs: issue 31): the built server as a
// hostile environment meets it. The per-tool cases are generated from the
// server's own tools/list, so a new tool is attacked without a test of its
// own. Each attack asserts a refusal or a bounded answer, in bounded time,
// with the server still up, and nothing left behind.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv/hostilefile"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds every attacked call is held to.
const (
	// attackCallTimeout is how long one hostile call may take: above the
	// longest wait a tool documents (get_output's wait, 30 s), far below
	// a hang.
	attackCallTimeout = 35 * time.Second
	// maxAttackAnswer is the largest answer a hostile argument may get.
	maxAttackAnswer = 256 << 10
	// maxServerRSS is the server's largest resident size while attacked:
	// a file read whole (/dev/zero) passes it within a second, and the
	// server is then killed before it takes the machine down.
	maxServerRSS = 1 << 30
)

// attacked is the built server over stdio, watched: its resident size is
// polled, and the server killed (the test failing) if it passes
// maxServerRSS.
type attacked struct {
	*agent
	pid     int
	mu      sync.Mutex
	tooBig  string // what the server was doing when it grew past maxServerRSS
	current string // the call in flight
}

func startAttacked(t *testing.T, env ...string) *attacked {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(binary(t), "stdio", "--tools", "all")
	cmd.Env = append(os.Environ(), env...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "attacker", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := &attacked{agent: &agent{t: t, ctx: ctx, cs: cs, cmd: cmd}, pid: cmd.Process.Pid}
	watchCtx, stopWatch := context.WithCancel(ctx)
	go a.watchMemory(watchCtx)
	t.Cleanup(func() {
		stopWatch()
		cs.Close()
		if t.Failed() {
			text := stderr.String()
			t.Logf("server stderr (last 4 KB):\n%s", text[max(0, len(text)-4096):])
		}
	})
	return a
}

// watchMemory kills the server when it grows past maxServerRSS.
func (a *attacked) watchMemory(ctx context.Context) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if rss := residentBytes(a.pid); rss > maxServerRSS {
			a.mu.Lock()
			a.tooBig = fmt.Sprintf("%s (%d MiB)", a.current, rss>>20)
			a.mu.Unlock()
			_ = syscall.Kill(a.pid, syscall.SIGKILL)
			return
		}
	}
}

// residentBytes is a process's resident size, 0 when it is gone.
func residentBytes(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// hostile makes one call with hostile arguments and checks the bounds:
// an answer within attackCallTimeout, of at most maxAttackAnswer bytes,
// from a server still running.
func (a *attacked) hostile(tool string, args map[string]any) {
	a.t.Helper()
	if err := a.try(tool, args); err != nil {
		a.t.Fatal(err)
	}
}

// try is hostile for calls made at once from several goroutines: it says
// what went wrong instead of failing the test.
func (a *attacked) try(tool string, args map[string]any) error {
	what := fmt.Sprintf("%s %s", tool, brief(args))
	a.mu.Lock()
	a.current = what
	a.mu.Unlock()
	ctx, cancel := context.WithTimeout(a.ctx, attackCallTimeout)
	defer cancel()
	start := time.Now()
	res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	a.mu.Lock()
	tooBig := a.tooBig
	a.mu.Unlock()
	switch {
	case tooBig != "":
		return fmt.Errorf("the server grew past %d MiB on %s and was killed", maxServerRSS>>20, tooBig)
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("%s: no answer within %v", what, attackCallTimeout)
	case err != nil:
		return fmt.Errorf("%s: %w (is the server gone?)", what, err)
	}
	size := 0
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			size += len(tc.Text)
		}
	}
	if size > maxAttackAnswer {
		return fmt.Errorf("%s: an answer of %d bytes, want at most %d", what, size, maxAttackAnswer)
	}
	if took := time.Since(start); took > 5*time.Second {
		a.t.Logf("%s took %v", what, took)
	}
	return nil
}

// brief renders arguments for a failure message, long values cut.
func brief(args map[string]any) string {
	b, _ := json.Marshal(args)
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// attackedTool is what the attacks need of a tool's input schema.
type attackedTool struct {
	Name       string
	Required   []string
	Properties map[string]attackedProp
}

type attackedProp struct {
	Type       any                     `json:"type"`
	Properties map[string]attackedProp `json:"properties"`
	Items      *attackedProp           `json:"items"`
}

// is reports whether the property's type is typ (types may be a list).
func (p attackedProp) is(typ string) bool {
	switch t := p.Type.(type) {
	case string:
		return t == typ
	case []any:
		return slices.Contains(t, any(typ))
	}
	return false
}

// listTools is the server's tools with their input schemas, as a client
// lists them.
func (a *attacked) listTools() []attackedTool {
	a.t.Helper()
	var tools []attackedTool
	for tool, err := range a.cs.Tools(a.ctx, nil) {
		if err != nil {
			a.t.Fatalf("tools/list: %v", err)
		}
		b, _ := json.Marshal(tool.InputSchema)
		ts := attackedTool{Name: tool.Name}
		var in struct {
			Required   []string                `json:"required"`
			Properties map[string]attackedProp `json:"properties"`
		}
		if err := json.Unmarshal(b, &in); err != nil {
			a.t.Fatalf("%s's input schema: %v", tool.Name, err)
		}
		ts.Required, ts.Properties = in.Required, in.Properties
		tools = append(tools, ts)
	}
	if len(tools) < 30 {
		a.t.Fatalf("tools/list gave %d tools", len(tools))
	}
	return tools
}

// argPath is where an attacked argument is: a top-level property, or one
// inside an object or the objects of an array.
type argPath struct{ name, inner string }

func (p argPath) String() string {
	if p.inner == "" {
		return p.name
	}
	return p.name + "." + p.inner
}

// pathArgument recognises the arguments that name files and directories.
var pathArgument = regexp.MustCompile(`(?i)(file|path|paths|dir|cwd|root)$`)

// arguments lists a tool's arguments that match: top-level ones and those
// one level down.
func (ts attackedTool) arguments(match func(name string, p attackedProp) bool) []argPath {
	var out []argPath
	for name, p := range ts.Properties {
		if match(name, p) {
			out = append(out, argPath{name: name})
		}
		inner := p.Properties
		if p.Items != nil {
			inner = p.Items.Properties
		}
		for innerName, ip := range inner {
			if match(innerName, ip) {
				out = append(out, argPath{name: name, inner: innerName})
			}
		}
	}
	slices.SortFunc(out, func(x, y argPath) int { return strings.Compare(x.String(), y.String()) })
	return out
}

// baseArgs fills a tool's required arguments with values a call gets past
// its first checks with: the session is a paused one, a file is a real
// program.
func (ts attackedTool) baseArgs(sessionID, program string) map[string]any {
	args := map[string]any{}
	for _, name := range ts.Required {
		p := ts.Properties[name]
		switch {
		case name == "sessionId":
			args[name] = sessionID
		case name == "language":
			args[name] = "mock"
		case pathArgument.MatchString(name):
			args[name] = program
		case p.is("integer") || p.is("number"):
			args[name] = 1
		case p.is("boolean"):
			args[name] = false
		case p.is("array"):
			args[name] = []any{}
		case p.is("object"):
			args[name] = map[string]any{}
		default:
			args[name] = "x"
		}
	}
	return args
}

// with sets the argument at path to v in a copy of args.
func with(args map[string]any, at argPath, v any) map[string]any {
	out := make(map[string]any, len(args)+1)
	for k, val := range args {
		out[k] = val
	}
	if at.inner == "" {
		out[at.name] = v
		return out
	}
	inner := map[string]any{at.inner: v}
	out[at.name] = inner
	return out
}

// withArray is with for an argument inside the objects of an array.
func withArray(ts attackedTool, args map[string]any, at argPath, v any) map[string]any {
	out := with(args, at, v)
	if at.inner != "" && ts.Properties[at.name].Items != nil {
		out[at.name] = []any{out[at.name]}
	}
	return out
}

// pausedMock is a fresh session paused at line 12 of the mock program.
func (a *attacked) pausedMock(program string) string {
	a.t.Helper()
	id, _ := a.ok("create_debug_session", map[string]any{"language": "mock"})["sessionId"].(string)
	a.ok("set_breakpoint", map[string]any{"sessionId": id, "file": program, "line": 12})
	a.ok("start_debugging", map[string]any{"sessionId": id, "scriptPath": program})
	return id
}

// stillServes checks that the server answers an ordinary call.
func (a *attacked) stillServes(after string) {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(a.ctx, 10*time.Second)
	defer cancel()
	if _, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_debug_sessions", Arguments: map[string]any{}}); err != nil {
		a.t.Fatalf("after %s the server no longer answers: %v", after, err)
	}
}

// hostileFiles makes a FIFO and a 2 GiB sparse file, and names the
// device files, that every path argument is given.
func hostileFiles(t *testing.T) []string {
	t.Helper()
	fifo, sparse := hostilefile.Make(t, ".mock")
	return []string{"/dev/zero", "/dev/urandom", fifo, sparse}
}

// Device files, a FIFO and a 2 GiB sparse file as every path argument of
// every tool: one such file read whole took the server down (OOM-killed
// in seconds), and a FIFO blocked a call until a writer came.
func TestAttackHostileFilesInEveryPathArgument(t *testing.T) {
	a := startAttacked(t)
	program := repoFile(t, "testdata/mock/basic.mock")
	files := hostileFiles(t)
	cases := 0
	for _, ts := range a.listTools() {
		paths := ts.arguments(func(name string, p attackedProp) bool {
			return pathArgument.MatchString(name) && (p.is("string") || p.is("array"))
		})
		for _, at := range paths {
			for _, file := range files {
				id := ""
				if _, ok := ts.Properties["sessionId"]; ok {
					id = a.pausedMock(program)
				}
				var v any = file
				if p := ts.Properties[at.name]; at.inner == "" && p.is("array") {
					v = []any{file}
				}
				args := withArray(ts, ts.baseArgs(id, program), at, v)
				a.hostile(ts.Name, args)
				cases++
				if id != "" {
					_, _ = a.call("close_debug_session", map[string]any{"sessionId": id})
				}
			}
		}
	}
	t.Logf("%d calls with a device, a FIFO or a huge file as a path", cases)
	a.stillServes("the hostile files")
	wantNothingLeft(t, a)
}

// hugeNumbers are given to every numeric argument: past int64, negative,
// past float64, and strings that parse as a number somewhere.
var hugeNumbers = []any{1e18, -1, 1e308, 9.3e18, "NaN", "Infinity", "-1e999", "0x7fffffffffffffff"}

// Huge and odd numbers in every numeric argument of every tool: each is
// refused or honoured within bounds; none hangs a call, makes an
// unbounded answer or takes the server down.
func TestAttackHugeNumbersInEveryNumericArgument(t *testing.T) {
	a := startAttacked(t)
	program := repoFile(t, "testdata/mock/basic.mock")
	type attack struct {
		tool string
		args map[string]any
	}
	var attacks []attack
	var sessions []string
	for _, ts := range a.listTools() {
		numbers := ts.arguments(func(_ string, p attackedProp) bool { return p.is("integer") || p.is("number") })
		if len(numbers) == 0 {
			continue
		}
		id := ""
		if _, ok := ts.Properties["sessionId"]; ok {
			id = a.pausedMock(program)
			sessions = append(sessions, id)
		}
		for _, at := range numbers {
			for _, n := range hugeNumbers {
				attacks = append(attacks, attack{ts.Name, withArray(ts, ts.baseArgs(id, program), at, n)})
			}
		}
	}
	// At once, a few at a time: a huge wait is honoured up to its cap
	// (30 s), and one after another they would take minutes.
	errs := make(chan error, len(attacks))
	limit := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for _, at := range attacks {
		wg.Add(1)
		limit <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-limit }()
			errs <- a.try(at.tool, at.args)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d calls with huge numbers", len(attacks))
	for _, id := range sessions {
		_, _ = a.call("close_debug_session", map[string]any{"sessionId": id})
	}
	a.stillServes("the huge numbers")
	wantNothingLeft(t, a)
}

// wantNothingLeft checks that the server has no process left under it
// once its sessions are closed.
func wantNothingLeft(t *testing.T, a *attacked) {
	t.Helper()
	out, _ := a.call("list_debug_sessions", map[string]any{})
	sessions, _ := out["sessions"].([]any)
	for _, s := range sessions {
		if id, _ := s.(map[string]any)["id"].(string); id != "" {
			_, _ = a.call("close_debug_session", map[string]any{"sessionId": id})
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for left := sessionProcesses(a.pid); len(left) > 0; left = sessionProcesses(a.pid) {
		if time.Now().After(deadline) {
			t.Fatalf("processes left under the server after every session closed: %v", left)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The HTTP server stays up and serves its owner while 200 connections sit
// idle (nothing sent) or trickle a request's headers a byte at a time:
// unreaped, such connections exhausted the server's descriptors.
func TestAttackIdleAndSlowConnections(t *testing.T) {
	addr, token := startHTTP(t)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range 200 {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			// The server may refuse what it cannot hold; it must still
			// serve its owner below.
			t.Logf("connection %d: %v", i, err)
			continue
		}
		conns = append(conns, c)
		if i%2 == 1 {
			// Slow: the start of a request, never finished.
			_ = c.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: "+addr+"\r\nContent-Length: 100000\r\n")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	cs := connectHTTP(ctx, t, "http://"+addr+"/mcp", "Authorization", "Bearer "+token)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_debug_session", Arguments: map[string]any{"language": "mock"}})
	if err != nil || res.IsError {
		t.Fatalf("the owner's call among 200 idle and slow connections: %v %v", err, res)
	}
	t.Logf("the owner connected and created a session in %v among %d idle and slow connections", time.Since(start), len(conns))
	// Slow senders keep trickling; the server still answers.
	for _, c := range conns {
		_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		_, _ = io.WriteString(c, "X")
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list after the trickle: %v", err)
	}
}

// attackUserEnv marks the test binary's run as the other local user's
// helper (TestAttackOtherLocalUserHelper), with what it is to try.
const attackUserEnv = "MCP_DEBUGGER_ATTACK_USER"

// Another local user can neither read the HTTP server's token nor use the
// server without it: uid 1002 once ran its own script through a loopback
// server as the user who started it. Needs root, to create the user.
func TestAttackOtherLocalUserCannotReachHTTP(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs as root: this test creates a user")
		}
		t.Skip("creating a second local user needs root")
	}
	name := fmt.Sprintf("mcpatk%d", os.Getpid()%100000)
	if out, err := exec.Command("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v %s", name, err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("userdel", name).CombinedOutput(); err != nil {
			t.Errorf("userdel %s: %v %s", name, err, out)
		}
	})
	uid, gid := userIDs(t, name)

	env, configDir := httpEnv(t)
	addr, _ := startHTTPWith(t, env)
	tokenFile := filepath.Join(configDir, "mcp-debugger", "http-token")
	if _, err := os.Stat(tokenFile); err != nil {
		t.Fatalf("the server made no token file: %v", err)
	}
	// The token's directories are made traversable, so that only the
	// file's own mode stands between the user and the token.
	for d := filepath.Dir(tokenFile); d != filepath.Dir(configDir); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	helper := publicCopy(t, exe)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, helper, "-test.run=^TestAttackOtherLocalUserHelper$", "-test.v")
	cmd.Env = []string{attackUserEnv + "=" + addr + " " + tokenFile, "PATH=/usr/bin:/bin"}
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	out, err := cmd.CombinedOutput()
	t.Logf("as %s (uid %d):\n%s", name, uid, out)
	if err != nil || !strings.Contains(string(out), "token: permission denied") || !strings.Contains(string(out), "initialize: 401") {
		t.Fatalf("user %s: %v; want the token unreadable and the server refusing (401)", name, err)
	}
}

// TestAttackOtherLocalUserHelper is what the other local user runs in
// TestAttackOtherLocalUserCannotReachHTTP: it reports what it could reach.
func TestAttackOtherLocalUserHelper(t *testing.T) {
	spec := os.Getenv(attackUserEnv)
	if spec == "" {
		t.Skip("run by TestAttackOtherLocalUserCannotReachHTTP as another user")
	}
	addr, tokenFile, _ := strings.Cut(spec, " ")
	if _, err := os.ReadFile(tokenFile); err != nil {
		fmt.Printf("token: %v\n", strings.TrimPrefix(err.Error(), "open "+tokenFile+": "))
	} else {
		fmt.Println("token: read")
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"other-user","version":"1"}}}`
	req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		fmt.Printf("initialize: %v\n", err)
		return
	}
	resp.Body.Close()
	fmt.Printf("initialize: %d\n", resp.StatusCode)
}

// userIDs reads a user's uid and gid from /etc/passwd.
func userIDs(t *testing.T, name string) (uint32, uint32) {
	t.Helper()
	f, err := os.Open("/etc/passwd")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) > 3 && fields[0] == name {
			uid, _ := strconv.ParseUint(fields[2], 10, 32)
			gid, _ := strconv.ParseUint(fields[3], 10, 32)
			return uint32(uid), uint32(gid)
		}
	}
	t.Fatalf("no user %s in /etc/passwd", name)
	return 0, 0
}
