//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// shell runs the CLI as a shell-only agent does: each command a new
// process, in the repository's root, with a private runtime directory.
type shell struct {
	t       *testing.T
	runtime string // $XDG_RUNTIME_DIR
	cred    *syscall.Credential
	bin     string
	dir     string
}

func newShell(t *testing.T) *shell {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sh := &shell{t: t, runtime: t.TempDir(), bin: binary(t), dir: root}
	t.Cleanup(func() { sh.run("stop") })
	return sh
}

// run runs one command and returns its stdout, stderr and exit status.
func (sh *shell) run(args ...string) (stdout, stderr string, code int) {
	sh.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, sh.bin, args...)
	cmd.Dir = sh.dir
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+sh.runtime)
	if sh.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: sh.cred}
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		sh.t.Fatalf("running mcp-debugger %v: %v", args, err)
	}
	return out.String(), errOut.String(), code
}

// ok runs a command that must succeed and returns its stdout.
func (sh *shell) ok(args ...string) string {
	sh.t.Helper()
	out, errOut, code := sh.run(args...)
	if code != 0 {
		sh.t.Fatalf("mcp-debugger %v: exit %d\nstdout: %s\nstderr: %s", args, code, out, errOut)
	}
	return out
}

// server is the background server's state file, read as the tests' user.
func (sh *shell) server() serverState {
	sh.t.Helper()
	files, err := filesForRuntime(sh.runtime, sh.dir)
	if err != nil {
		sh.t.Fatal(err)
	}
	st, err := readState(files.state)
	if err != nil {
		sh.t.Fatalf("no background server: %v", err)
	}
	return st
}

func filesForRuntime(runtime, cwd string) (workspaceFiles, error) {
	old, had := os.LookupEnv("XDG_RUNTIME_DIR")
	os.Setenv("XDG_RUNTIME_DIR", runtime)
	defer func() {
		if had {
			os.Setenv("XDG_RUNTIME_DIR", old)
		} else {
			os.Unsetenv("XDG_RUNTIME_DIR")
		}
	}()
	return filesFor(cwd)
}

// descendants lists the processes below pid (the adapters and programs a
// server started), from the process table.
func descendants(pid int) []int {
	parents := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The command name in parentheses may hold spaces: read after it.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 1 {
			ppid, _ := strconv.Atoi(fields[1])
			parents[ppid] = append(parents[ppid], child)
		}
	}
	var all []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		all = append(all, parents[p]...)
		queue = append(queue, parents[p]...)
	}
	return all
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// describeProcess says what a process runs and its state letter (Z for a
// zombie), for a failure message.
func describeProcess(pid int) string {
	cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	stat, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	state := "?"
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
		if f := strings.Fields(string(stat[i+1:])); len(f) > 0 {
			state = f[0]
		}
	}
	return fmt.Sprintf("state %s, %q", state, bytes.ReplaceAll(bytes.TrimRight(cmdline, "\x00"), []byte{0}, []byte{' '}))
}

// stopLeavesNothing stops the server and checks that it, its adapters and
// its programs are gone, and its state file with them.
func stopLeavesNothing(t *testing.T, sh *shell) {
	t.Helper()
	st := sh.server()
	procs := append(descendants(st.PID), st.PID)
	if len(procs) < 2 {
		t.Fatalf("the server (pid %d) has no adapter below it to check", st.PID)
	}
	if out := sh.ok("stop"); !strings.Contains(out, "stopped") {
		t.Fatalf("stop: %q", out)
	}
	for _, p := range procs {
		if alive(p) {
			t.Errorf("process %d (of the server %d) outlived stop: %s", p, st.PID, describeProcess(p))
		}
	}
	files, _ := filesForRuntime(sh.runtime, sh.dir)
	if _, err := os.Stat(files.state); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the state file outlived stop: %v", err)
	}
}

// A shell-only agent debugs a failing pytest: the first call starts the
// server, later calls from other processes reuse it and its session,
// found without --session or by a typed prefix; errors exit 1 with a
// hint, bad arguments 2 with the usage; stop leaves no process.
func TestCLIDebugsAFailingPytest(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	sh := newShell(t)
	out := sh.ok("call", "debug_test", "--language", "python", "--path", "testdata/python/tests/test_cart.py")
	for _, want := range []string{"test FAILED", "test_total_with_discount", ">   15", "got=30.0", "session: "} {
		if !strings.Contains(out, want) {
			t.Fatalf("debug_test's compact answer lacks %q:\n%s", want, out)
		}
	}
	first := sh.server()
	short := strings.Fields(out[strings.Index(out, "session: "):])[1]

	if out := sh.ok("call", "evaluate_expression", "--expression", "got * 2"); !strings.Contains(out, "60.0") {
		t.Fatalf("a second process evaluating in the one open session: %q", out)
	}
	if again := sh.server(); again.PID != first.PID {
		t.Fatalf("the second call started another server (pid %d, then %d)", first.PID, again.PID)
	}
	// Shells of one agent calling at the same moment: each call adopts the
	// sessions, taking them from the others' calls in between; every
	// call still gets its answer.
	var wg sync.WaitGroup
	answers := make([]string, 6)
	for i := range answers {
		wg.Go(func() {
			out, errOut, code := sh.run("call", "evaluate_expression", "--expression", "got + 1")
			answers[i] = fmt.Sprintf("exit %d: %s%s", code, out, errOut)
		})
	}
	wg.Wait()
	for _, a := range answers {
		if !strings.HasPrefix(a, "exit 0") || !strings.Contains(a, "31.0") {
			t.Errorf("a call made beside others: %s", a)
		}
	}
	out, _, code := sh.run("call", "evaluate_expression", "--session", short[:6], "--expression", "nosuch")
	if code != 1 || !strings.Contains(out, "NameError") || !strings.Contains(out, "hint: ") {
		t.Fatalf("a failing evaluation by session prefix: exit %d, %q; want 1 with the error and hint", code, out)
	}
	if status := sh.ok("status"); !strings.Contains(status, short+"  python  paused") {
		t.Fatalf("status does not show the paused session %s:\n%s", short, status)
	}
	for _, bad := range [][]string{
		{"call", "step_over", "--bogus", "1"},
		{"call", "evaluate_expression"},
		{"call", "no_such_tool"},
		{"call", "set_breakpoint", "--line", "ten", "--file", "x.py"},
	} {
		if _, errOut, code := sh.run(bad...); code != 2 || !strings.Contains(errOut, "usage: mcp-debugger call") {
			t.Errorf("mcp-debugger %v: exit %d, stderr %q; want 2 with the usage", bad, code, errOut)
		}
	}
	if help := sh.ok("call", "evaluate_expression", "--help"); !strings.Contains(help, "--expression (string, required)") {
		t.Errorf("evaluate_expression --help does not list its arguments from the schema:\n%s", help)
	}
	stopLeavesNothing(t, sh)
}

// The same on Go: a test that fails with t.Errorf, stopped there, then
// read from another process and another server call.
func TestCLIDebugsAFailingGoTest(t *testing.T) {
	testenv.RequireAdapter(t, "go")
	sh := newShell(t)
	out := sh.ok("call", "debug_test", "--json", `{"language": "go", "path": "testdata/go/failing", "name": "TestTotalWithDiscount"}`)
	for _, want := range []string{"test FAILED (go test)", "discounted total = 30, want 40", ">   15", "got=30"} {
		if !strings.Contains(out, want) {
			t.Fatalf("debug_test's compact answer lacks %q:\n%s", want, out)
		}
	}
	first := sh.server()
	if out := sh.ok("call", "evaluate_expression", "--expression", "len(prices)"); !strings.Contains(out, "result: 3") {
		t.Fatalf("a second process evaluating in the one open session: %q", out)
	}
	out = sh.ok("call", "get_stack_trace", "--json")
	if !strings.Contains(out, `"stackFrames"`) && !strings.Contains(out, `"frames"`) {
		t.Fatalf("get_stack_trace --json is not the structured answer:\n%s", out)
	}
	if again := sh.server(); again.PID != first.PID {
		t.Fatalf("later calls started another server (pid %d, then %d)", first.PID, again.PID)
	}
	stopLeavesNothing(t, sh)
}

// The one-call look from a shell: start_debugging {language, probes} makes
// its own session, and the next call (another process) goes on in it.
func TestCLIOneCallLookThenEvaluate(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	sh := newShell(t)
	out := sh.ok("call", "start_debugging", "--json", `{"language": "python", "scriptPath": "testdata/python/loop.py", "probes": ["testdata/python/loop.py:16"]}`)
	if !strings.Contains(out, "breakpoint") {
		t.Fatalf("the look did not stop at its probe:\n%s", out)
	}
	if out := sh.ok("call", "evaluate_expression", "--expression", "i + 1"); !strings.Contains(out, "result: 1") {
		t.Fatalf("the next call does not reach the session the look made: %q", out)
	}
	stopLeavesNothing(t, sh)
}

// Another user gets neither the directory that holds the token nor a
// server without it; a runtime directory others can enter is refused.
func TestCLIRefusesAnotherUser(t *testing.T) {
	sh := newShell(t)
	sh.ok("call", "list_debug_sessions")
	st := sh.server()

	if os.Getuid() == 0 {
		other := &shell{t: t, runtime: sh.runtime, bin: publicCopy(t, sh.bin), dir: "/", cred: &syscall.Credential{Uid: 65534, Gid: 65534}}
		if out, errOut, code := other.run("call", "list_debug_sessions"); code != 1 || !strings.Contains(errOut, "runtime directory") {
			t.Errorf("another user's call with this user's runtime directory: exit %d, %q %q; want 1, refused", code, out, errOut)
		}
	} else {
		t.Log("not root: the other user's refusal is checked only by the mode and the token")
	}

	resp, err := http.Get("http://" + st.Addr + "/version")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the background server without its token: %s; want 401", resp.Status)
	}
	open := t.TempDir()
	if err := os.Mkdir(filepath.Join(open, "mcp-debugger"), 0o755); err != nil {
		t.Fatal(err)
	}
	planted := &shell{t: t, runtime: open, bin: sh.bin, dir: sh.dir}
	if _, errOut, code := planted.run("call", "list_debug_sessions"); code != 1 || !strings.Contains(errOut, "not private to you") {
		t.Errorf("a runtime directory others can enter: exit %d, %q; want 1, refused", code, errOut)
	}
}

// publicCopy copies the binary where another user can run it.
func publicCopy(t *testing.T, bin string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "mcp-debugger-public")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "mcp-debugger")
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}

// The compact text for a terminal carries no control byte of the
// program's: a title change or a screen clear in its output is not sent
// to the terminal.
func TestFormatAnswerMakesControlBytesVisible(t *testing.T) {
	var out strings.Builder
	formatAnswer(&out, map[string]any{"success": true, "message": "ok", "output": "\x1b]0;pwned\x07\x1b[2Jhello\x07\n"})
	if strings.ContainsAny(out.String(), "\x1b\x07") || !strings.Contains(out.String(), `hello\x07`) {
		t.Fatalf("formatted answer %q", out.String())
	}
}

// A shell agent that changed directory is told where its session is, not
// that there is none: the call starts this directory's server, says so,
// and names the directory whose server holds the session; status lists
// that server too. Kebab-case flags are the schema's camelCase names.
func TestCLIAfterCdFindsTheSession(t *testing.T) {
	testenv.RequireAdapter(t, "python")
	sh := newShell(t)
	root := sh.dir
	out := sh.ok("call", "start_debugging", "--language", "python", "--script-path", "testdata/python/loop.py", "--probes", `["testdata/python/loop.py:16"]`)
	if !strings.Contains(out, "reconnectKey: ") {
		t.Errorf("the answer that says to keep the reconnectKey does not show it:\n%s", out)
	}
	short := strings.Fields(out[strings.Index(out, "session: "):])[1]
	holder := sh.server().PID

	sh.dir = filepath.Join(root, "testdata")
	_, errOut, code := sh.run("call", "get_stack_trace")
	if code != 2 || !strings.Contains(errOut, "started a background server for "+sh.dir) ||
		!strings.Contains(errOut, "session "+short+" is in the server of "+root) {
		t.Errorf("a call after cd: exit %d, stderr:\n%s\nwant 2, the new server said and where session %s is", code, errOut, short)
	}
	if status := sh.ok("status"); !strings.Contains(status, "another background server: pid "+strconv.Itoa(holder)+" for "+root) {
		t.Errorf("status in the other directory does not list the server that holds the session:\n%s", status)
	}
	sh.ok("stop")
	sh.dir = root
	if out := sh.ok("call", "get_local_variables"); !strings.Contains(out, "  i = 0") {
		t.Errorf("back in its directory, the session answers: %q", out)
	}
	stopLeavesNothing(t, sh)
}

// call --help lists the tools, a line each; a usage error is a short line
// and where the help is, not the whole usage.
func TestCLIHelpListsToolsAndUsageErrorsAreShort(t *testing.T) {
	sh := newShell(t)
	help := sh.ok("call", "--help")
	// read_memory is outside the default profile: call offers every tool.
	for _, want := range []string{"\n  start_debugging ", "\n  debug_test ", "\n  get_stack_trace ", "\n  read_memory "} {
		if !strings.Contains(help, want) {
			t.Errorf("call --help does not list %q:\n%s", strings.TrimSpace(want), help)
		}
	}
	for line := range strings.Lines(help) {
		if len(line) > 140 {
			t.Errorf("a tool line longer than a terminal's: %q", line)
		}
	}
	_, errOut, code := sh.run("call", "step_over", "--bogus", "1")
	if code != 2 || len(errOut) > 300 || !strings.Contains(errOut, "--bogus") || !strings.Contains(errOut, "mcp-debugger call --help") {
		t.Errorf("a usage error: exit %d, %d bytes:\n%s", code, len(errOut), errOut)
	}
	sh.ok("stop")
}

// The compact text of locals, stacks, every thread's stacks and the
// languages is lines to read, not JSON; the reconnectKey is shown.
func TestFormatAnswerIsCompactText(t *testing.T) {
	rows := []struct {
		name   string
		answer string
		want   []string
	}{
		{"locals", `{"success":true,"frame":{"name":"main"},"scopeName":"Locals","count":2,"variables":[
			{"name":"i","value":"3","type":"int","variablesReference":0},
			{"name":"cart","value":"Cart(items=2)","type":"Cart","variablesReference":7,"children":[{"name":"items","value":"[1, 2]","type":"list","variablesReference":8}]}]}`,
			[]string{"in main:\n", "  i = 3  (int)\n", "  cart = Cart(items=2)  (Cart)  [ref 7]\n", "    items = [1, 2]  (list)  [ref 8]\n"}},
		{"stack", `{"success":true,"count":2,"startFrame":0,"totalFrames":5,"stackFrames":[
			{"id":2,"name":"weigh","file":"/p/loop.py","line":9},{"id":3,"name":"main","file":"/p/loop.py","line":16}]}`,
			[]string{"#0  weigh  /p/loop.py:9  [frame 2]\n", "#1  main  /p/loop.py:16  [frame 3]\n", "(5 frames in all)\n"}},
		{"all threads", `{"success":true,"waits":"threads 1 and 2 wait on each other","threads":[
			{"count":2,"threadIds":[1,2],"name":"worker","waiting":"on a lock","frames":[{"id":4,"name":"take","file":"/p/m.go","line":12}],"moreFrames":3}]}`,
			[]string{"thread 1, 2 (worker): waiting on a lock\n", "  #0  take  /p/m.go:12  [frame 4]\n", "  … 3 more frames\n", "waits: threads 1 and 2 wait on each other\n"}},
		{"languages", `{"success":true,"count":2,"languages":[
			{"id":"python","installed":true,"adapter":"debugpy","version":"1.8","debugTest":"pytest"},
			{"id":"ruby","installed":false,"adapter":"rdbg","reason":"rdbg not found","installHint":"gem install debug","unavailable":{"attach":"no"}}]}`,
			[]string{"python      installed  debugpy 1.8; debug_test: pytest\n", "ruby        missing    rdbg not found; install: gem install debug; no attach: no\n"}},
		{"reconnect key", `{"success":true,"sessionId":"abcdef0123","message":"Created. Keep reconnectKey: …","reconnectKey":"KEY123"}`,
			[]string{"reconnectKey: KEY123\n"}},
	}
	for _, row := range rows {
		var answer map[string]any
		if err := json.Unmarshal([]byte(row.answer), &answer); err != nil {
			t.Fatalf("%s: %v", row.name, err)
		}
		var out strings.Builder
		formatAnswer(&out, answer)
		for _, want := range row.want {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the text lacks %q:\n%s", row.name, want, out.String())
			}
		}
		if strings.Contains(out.String(), `{"`) {
			t.Errorf("%s: JSON in the text:\n%s", row.name, out.String())
		}
	}
}
