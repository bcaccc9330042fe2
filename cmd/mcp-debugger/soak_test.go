//go:build linux

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// soakDurationVar holds how long TestSoak churns (a Go duration); unset,
// the test is skipped: `make soak` sets it.
const soakDurationVar = "MCP_DEBUGGER_SOAK"

// Bounds of the soak: a call that takes longer than soakCallLimit hangs;
// a session must reach a true end state within soakEndLimit of its
// program or adapter being killed; the processes of a closed session or
// a dead server must be gone within soakGoneLimit.
const (
	soakCallLimit = 2 * time.Minute
	soakEndLimit  = 30 * time.Second
	soakGoneLimit = 15 * time.Second
	soakWorkers   = 3
	// soakServerVar marks the processes of one short-lived server of the
	// client-kill rounds.
	soakServerVar = "MCP_DEBUGGER_SOAK_SERVER"
)

// soakProgram is a program that loops for ever, and the line in its loop
// where the soak's breakpoint goes.
type soakProgram struct {
	file, source string
	line         int
}

var soakPrograms = map[string]soakProgram{
	"python":     {"loop.py", "import time\nn = 0\nwhile True:\n    n += 1\n    time.sleep(0.005)\n", 4},
	"go":         {"main.go", "package main\n\nimport \"time\"\n\nfunc main() {\n\tn := 0\n\tfor {\n\t\tn++\n\t\ttime.Sleep(5 * time.Millisecond)\n\t}\n}\n", 8},
	"c":          {"loop.c", "#include <unistd.h>\n\nint main(void) {\n\tvolatile int n = 0;\n\tfor (;;) {\n\t\tn++;\n\t\tusleep(5000);\n\t}\n}\n", 6},
	"javascript": {"loop.js", "let n = 0;\nfunction tick() {\n  n++;\n  setTimeout(tick, 5);\n}\ntick();\n", 3},
	"ruby":       {"loop.rb", "n = 0\nloop do\n  n += 1\n  sleep 0.005\nend\n", 3},
	"java":       {"Loop.java", "public class Loop {\n    public static void main(String[] args) throws Exception {\n        int n = 0;\n        while (true) {\n            n++;\n            Thread.sleep(5);\n        }\n    }\n}\n", 5},
}

// TestSoak churns the built server (with the race detector) for
// MCP_DEBUGGER_SOAK: concurrent sessions across languages, programs and
// adapters SIGKILLed in the middle of calls, clients that vanish (the
// server SIGKILLed, or its stdin closed mid-call), garbage on stdin. It
// asserts what a user relies on: no call hangs, every session whose
// program or adapter was killed ends in a true state, nothing is left
// running (found by an environment mark, wherever it was reparented), no
// temporary directory outlives its server, and the long-lived server's
// memory and descriptors stay bounded.
func TestSoak(t *testing.T) {
	duration, err := time.ParseDuration(os.Getenv(soakDurationVar))
	if err != nil || duration <= 0 {
		t.Skipf("set %s to a duration (make soak) to run the soak", soakDurationVar)
	}
	var langs []string
	for lang := range soakPrograms {
		testenv.RequireAdapter(t, lang)
		langs = append(langs, lang)
	}
	bin := raceBinary(t)
	dir := t.TempDir()
	for _, p := range soakPrograms {
		if err := os.WriteFile(filepath.Join(dir, p.file), []byte(p.source), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := &soak{t: t, bin: bin, dir: dir, langs: langs, runID: fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano()), stats: newSoakStats()}

	main := s.startServer("main")
	rssStart, fdsStart := memoryOf(main.pid)
	end := time.Now().Add(duration)
	var wg sync.WaitGroup
	for w := range soakWorkers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
			for n := 0; time.Now().Before(end); n++ {
				s.cycle(main, rng, fmt.Sprintf("%s-w%d-%d", s.runID, w, n))
			}
		})
	}
	wg.Go(func() {
		rng := rand.New(rand.NewPCG(99, uint64(time.Now().UnixNano())))
		for n := 0; time.Now().Before(end); n++ {
			s.clientGone(rng, n)
			s.garbage(rng, n)
		}
	})
	wg.Wait()

	rssEnd, fdsEnd := memoryOf(main.pid)
	main.stop()
	s.checkServerLog(main)
	// A new server sweeps what killed ones left in the temporary directory.
	s.startServer("sweeper").stop()
	for _, pid := range s.serverPids() {
		if left := tempDirsOf(pid); len(left) > 0 {
			t.Errorf("temporary directories of server %d outlived it: %v", pid, left)
		}
	}
	if left := waitNone(soakRunVar, s.runID, soakGoneLimit); len(left) > 0 {
		t.Errorf("processes of the soak still running after every server ended: %v", left)
		s.stats.add("orphans", len(left))
	}
	if fdsEnd > fdsStart+8 {
		t.Errorf("the server's open descriptors grew from %d to %d over the soak", fdsStart, fdsEnd)
	}
	if rssEnd > 3*rssStart+64<<10 {
		t.Errorf("the server's memory grew from %d KiB to %d KiB over the soak", rssStart, rssEnd)
	}
	t.Logf("soak %v: %s; server RSS %d → %d KiB, fds %d → %d", duration, s.stats, rssStart, rssEnd, fdsStart, fdsEnd)
	for _, f := range s.stats.failures() {
		t.Error(f)
	}
}

// raceBinary builds the server with the race detector, so that the soak's
// concurrency also hunts data races in the server.
func raceBinary(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp-debugger-race")
	if out, err := exec.Command("go", "build", "-race", "-o", path, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -race: %v\n%s", err, out)
	}
	return path
}

// soak is one run's shared state.
type soak struct {
	t     *testing.T
	bin   string
	dir   string
	langs []string
	runID string
	stats *soakStats

	mu      sync.Mutex
	servers []int
}

// addServer records a server the soak started, whose temporary
// directories must be gone at the end.
func (s *soak) addServer(pid int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.servers = append(s.servers, pid)
}

func (s *soak) serverPids() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.servers...)
}

// soakServer is one server process driven by an MCP client over stdio.
type soakServer struct {
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	stderr *lockedBuffer
	pid    int
	tag    string
}

func (s *soak) startServer(tag string) *soakServer {
	cmd := exec.Command(s.bin, "stdio")
	cmd.Env = append(os.Environ(), soakRunVar+"="+s.runID, soakServerVar+"="+s.runID+"-"+tag)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), soakCallLimit)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "soak", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		s.t.Fatalf("starting server %s: %v", tag, err)
	}
	s.addServer(cmd.Process.Pid)
	return &soakServer{cmd: cmd, cs: cs, stderr: stderr, pid: cmd.Process.Pid, tag: tag}
}

// stop closes the client, which closes the server's stdin: it exits.
func (v *soakServer) stop() { _ = v.cs.Close() }

// call runs one tool; err is set only when the call itself failed (the
// server gone, the call past soakCallLimit), not for an error result.
func (v *soakServer) call(tool string, args map[string]any) (map[string]any, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), soakCallLimit)
	defer cancel()
	start := time.Now()
	res, err := v.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, fmt.Errorf("%s hung: no answer in %v", tool, time.Since(start).Round(time.Second))
		}
		return nil, false, fmt.Errorf("%s: %w", tool, err)
	}
	var out map[string]any
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			_ = json.Unmarshal([]byte(tc.Text), &out)
		}
	}
	return out, res.IsError, nil
}

// cycle is one session's life: a breakpoint, a start, a few random steps,
// and most times a SIGKILL of the program or its adapter while a
// continue is under way; then the session must say it ended, and close
// must leave nothing of it.
func (s *soak) cycle(v *soakServer, rng *rand.Rand, tag string) {
	lang := s.langs[rng.IntN(len(s.langs))]
	prog := soakPrograms[lang]
	fail := func(format string, args ...any) {
		s.stats.fail(fmt.Sprintf("%s %s: %s", lang, tag, fmt.Sprintf(format, args...)))
	}
	out, isErr, err := v.call("create_debug_session", map[string]any{"language": lang, "name": tag})
	if err != nil || isErr {
		fail("create_debug_session: %v %v", err, out)
		return
	}
	id, _ := out["sessionId"].(string)
	defer s.closeAndCheck(v, id, tag, fail)
	src := filepath.Join(s.dir, prog.file)
	if out, isErr, err := v.call("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": prog.line}); err != nil || isErr {
		fail("set_breakpoint: %v %v", err, out)
		return
	}
	out, isErr, err = v.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "env": map[string]string{soakSessionVar: tag}, "timeout": 90000})
	if err != nil || isErr || out["state"] != "paused" {
		fail("start_debugging did not stop at the breakpoint: %v %v", err, out)
		return
	}
	s.stats.add("sessions", 1)
	for range rng.IntN(4) {
		tool := []string{"step_over", "continue_execution", "evaluate_expression", "get_stack_trace", "get_local_variables"}[rng.IntN(5)]
		args := map[string]any{"sessionId": id}
		if tool == "evaluate_expression" {
			args["expression"] = "n"
		}
		if out, isErr, err := v.call(tool, args); err != nil || isErr {
			fail("%s: %v %v", tool, err, out)
			return
		}
		s.stats.add("calls", 1)
	}
	switch rng.IntN(3) {
	case 0:
		return
	case 1:
		s.killMidCall(v, id, tag, rng, "program", fail)
	case 2:
		s.killMidCall(v, id, tag, rng, "adapter", fail)
	}
}

// killMidCall SIGKILLs the session's program, or its adapter, while a
// continue_execution is under way, and checks that the call answers and
// the session ends in a true state.
func (s *soak) killMidCall(v *soakServer, id, tag string, rng *rand.Rand, what string, fail func(string, ...any)) {
	program := leafOf(processes(soakSessionVar, tag))
	if program == 0 {
		fail("no process carries the session's mark")
		return
	}
	victim := program
	if what == "adapter" {
		top, ok := topBelow(program, v.pid)
		if !ok || top == program {
			// Node's and the JVM's adapters run inside the server.
			what = "program"
		} else {
			victim = top
		}
	}
	answered := make(chan error, 1)
	go func() {
		_, _, err := v.call("continue_execution", map[string]any{"sessionId": id})
		answered <- err
	}()
	time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
	if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
		fail("kill %s %d: %v", what, victim, err)
		return
	}
	s.stats.add("kills of the "+what, 1)
	if err := <-answered; err != nil {
		fail("the continue under way when the %s was killed: %v", what, err)
		return
	}
	deadline := time.Now().Add(soakEndLimit)
	for {
		info := sessionListed(v, id)
		state, _ := info["state"].(string)
		if state == "stopped" || state == "error" {
			if what == "program" && info["signal"] != "SIGKILL" {
				fail("the program was SIGKILLed, yet the session says %v", info)
			}
			return
		}
		if time.Now().After(deadline) {
			fail("%v after its %s was SIGKILLed the session still says %v", soakEndLimit, what, info)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// leafOf is the process among procs that has no child among them: the
// program, below whatever launched it with the same mark.
func leafOf(procs []procInfo) int {
	parents := map[int]bool{}
	for _, p := range procs {
		parents[p.ppid] = true
	}
	for _, p := range procs {
		if !parents[p.pid] {
			return p.pid
		}
	}
	return 0
}

// sessionListed is the session's entry in list_debug_sessions.
func sessionListed(v *soakServer, id string) map[string]any {
	out, _, err := v.call("list_debug_sessions", nil)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	list, _ := out["sessions"].([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && m["id"] == id {
			return m
		}
	}
	return map[string]any{"missing": id}
}

func (s *soak) closeAndCheck(v *soakServer, id, tag string, fail func(string, ...any)) {
	if out, isErr, err := v.call("close_debug_session", map[string]any{"sessionId": id}); err != nil || isErr {
		fail("close_debug_session: %v %v", err, out)
	}
	if left := waitNone(soakSessionVar, tag, soakGoneLimit); len(left) > 0 {
		fail("the program outlived close_debug_session: %v", left)
		s.stats.add("orphans", len(left))
	}
}

// clientGone starts a server of its own, starts a program under it, and
// makes the client vanish while a call is under way: the server SIGKILLed,
// or its stdin closed. Everything that server started must end with it.
func (s *soak) clientGone(rng *rand.Rand, n int) {
	tag := fmt.Sprintf("client-%d", n)
	v := s.startServer(tag)
	lang := []string{"python", "javascript", "go"}[rng.IntN(3)]
	prog := soakPrograms[lang]
	fail := func(format string, args ...any) {
		s.stats.fail(fmt.Sprintf("%s %s: %s", lang, tag, fmt.Sprintf(format, args...)))
	}
	out, _, err := v.call("create_debug_session", map[string]any{"language": lang})
	if err != nil {
		fail("create_debug_session: %v", err)
		return
	}
	id, _ := out["sessionId"].(string)
	if _, _, err := v.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": filepath.Join(s.dir, prog.file), "waitForStop": false, "timeout": 90000}); err != nil {
		fail("start_debugging: %v", err)
		return
	}
	go func() { _, _, _ = v.call("pause_execution", map[string]any{"sessionId": id}) }()
	time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
	how := "SIGKILL of the server"
	if rng.IntN(2) == 0 {
		how = "stdin closed"
		v.stop()
	} else {
		_ = v.cmd.Process.Kill()
		_ = v.cs.Close()
	}
	s.stats.add("clients gone ("+how+")", 1)
	if left := waitNone(soakServerVar, s.runID+"-"+tag, soakGoneLimit); len(left) > 0 {
		fail("after %s, its processes still run: %v", how, left)
		s.stats.add("orphans", len(left))
	}
	if how == "stdin closed" {
		s.checkServerLog(v)
	}
}

// garbage feeds a server lines that are not JSON-RPC, then a real
// request: it must answer it, and exit when its stdin closes.
func (s *soak) garbage(rng *rand.Rand, n int) {
	fail := func(format string, args ...any) {
		s.stats.fail(fmt.Sprintf("garbage %d: %s", n, fmt.Sprintf(format, args...)))
	}
	cmd := exec.Command(s.bin, "stdio")
	cmd.Env = append(os.Environ(), soakRunVar+"="+s.runID)
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		fail("start: %v", err)
		return
	}
	s.addServer(cmd.Process.Pid)
	// answered closes when the answer to the real request arrives; the
	// reader ends when the server's stdout closes.
	answered := make(chan struct{})
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(outPipe)
		sc.Buffer(nil, 16<<20)
		seen := false
		for sc.Scan() {
			if !seen && strings.Contains(sc.Text(), `"id":"soak"`) && strings.Contains(sc.Text(), `"result"`) {
				seen = true
				close(answered)
			}
		}
	}()
	for range 1 + rng.IntN(20) {
		line := make([]byte, 1+rng.IntN(4096))
		for i := range line {
			line[i] = byte(rng.IntN(256))
			if line[i] == '\n' {
				line[i] = ' '
			}
		}
		if rng.IntN(3) == 0 {
			line = []byte(`{"jsonrpc":"2.0","id":` + fmt.Sprint(rng.IntN(100)) + `,"method":` + string(line[:min(len(line), 8)]))
		}
		_, _ = in.Write(append(line, '\n'))
	}
	_, _ = io.WriteString(in, `{"jsonrpc":"2.0","id":"soak","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}}`+"\n")
	select {
	case <-answered:
	case <-time.After(soakGoneLimit):
		fail("no answer to initialize after garbage; stderr: %s", tail(stderr.String()))
	}
	in.Close()
	exited := make(chan error, 1)
	go func() {
		<-readDone
		exited <- cmd.Wait()
	}()
	select {
	case <-exited:
	case <-time.After(soakGoneLimit):
		_ = cmd.Process.Kill()
		<-exited
		fail("the server did not exit after its stdin closed")
	}
	s.checkLog(fmt.Sprintf("garbage-%d", n), stderr.String())
	s.stats.add("garbage rounds", 1)
}

// checkServerLog fails the soak on a data race or a panic in the server.
func (s *soak) checkServerLog(v *soakServer) { s.checkLog(v.tag, v.stderr.String()) }

// checkLog fails the soak on a data race or a panic in server tag's log.
func (s *soak) checkLog(tag, log string) {
	for _, bad := range []string{"WARNING: DATA RACE", "panic:"} {
		if i := strings.Index(log, bad); i >= 0 {
			s.stats.fail(fmt.Sprintf("server %s logged %q:\n%s", tag, bad, log[i:min(len(log), i+4000)]))
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-2000):] }

// soakStats counts what happened and collects the failures.
type soakStats struct {
	mu     sync.Mutex
	counts map[string]int
	order  []string
	fails  []string
}

func newSoakStats() *soakStats { return &soakStats{counts: map[string]int{}} }

func (st *soakStats) add(what string, n int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, ok := st.counts[what]; !ok {
		st.order = append(st.order, what)
	}
	st.counts[what] += n
}

func (st *soakStats) fail(msg string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.fails = append(st.fails, msg)
}

func (st *soakStats) failures() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]string(nil), st.fails...)
}

func (st *soakStats) String() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var parts []string
	for _, k := range st.order {
		parts = append(parts, fmt.Sprintf("%s %d", k, st.counts[k]))
	}
	parts = append(parts, fmt.Sprintf("failures %d", len(st.fails)))
	return strings.Join(parts, ", ")
}

// lockedBuffer is a strings.Builder safe for the writer (the server's
// stderr copier) and the reader (the soak) at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
