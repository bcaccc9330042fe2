//go:build unix

package server

import (
	"bufio"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
	"github.com/mcp-debugger/mcp-debugger/internal/testenv"
)

// These tests start each program the way README's "Debugging in a
// container" section tells a user to, inside the container, and attach to
// it by host and port as an agent outside would. Program and agent share
// one file system here (same paths, no pathMappings).

// lldbServer starts `lldb-server gdbserver 127.0.0.1:0 target…` (target
// is `-- prog args…` or `--attach PID`) and returns it and the port it
// listens on, which it writes to the pipe given by --pipe once it listens.
func lldbServer(t *testing.T, target ...string) (pid, port int) {
	t.Helper()
	return startLLDBServer(t, func(argv []string) *exec.Cmd { return exec.Command(argv[0], argv[1:]...) },
		append([]string{"127.0.0.1:0"}, target...)...)
}

// startLLDBServer runs `lldb-server gdbserver --pipe 3 args…` through
// command (which may wrap it, e.g. in a namespace) and reads the port it
// writes to the pipe once it listens. It runs as a user's own debug server
// would, not under this server's proc package (whose reaper would end the
// program it leaves running when it exits), in a process group the test's
// end kills.
func startLLDBServer(t *testing.T, command func(argv []string) *exec.Cmd, args ...string) (pid, port int) {
	t.Helper()
	server := testenv.RequireTool(t, "apt-get install -y lldb-22", "lldb-server", "lldb-server-22", "lldb-server-19")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := command(append([]string{server, "gdbserver", "--pipe", "3"}, args...))
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	line, err := bufio.NewReader(r).ReadString(0)
	port, perr := strconv.Atoi(strings.TrimRight(line, "\x00\n"))
	if perr != nil {
		t.Fatalf("lldb-server wrote no port (%q, %v)", line, err)
	}
	return cmd.Process.Pid, port
}

// childrenOf lists pid's child processes.
func childrenOf(t *testing.T, pid int) []int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
	if err != nil {
		t.Fatalf("children of %d: %v", pid, err)
	}
	var kids []int
	for _, f := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(f)
		kids = append(kids, n)
	}
	return kids
}

// wantPIDGone fails the test unless pid ends within a generous bound.
func wantPIDGone(t *testing.T, pid int, what string) {
	t.Helper()
	if !proc.WaitGone(pid, 30*time.Second) {
		t.Errorf("%s (process %d) is still running", what, pid)
	}
}

// killPID ends pid, which is no child of this process.
func killPID(pid int) { syscall.Kill(pid, syscall.SIGKILL) }

// C under `lldb-server gdbserver HOST:PORT -- prog`: attach by host and
// port, a breakpoint hits with locals, a step, and detach leaves the
// program running and lldb-server gone.
func TestRemoteAttachCThroughLLDBServer(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	server, port := lldbServer(t, "--", buildC(t, src), "wait")
	kids := childrenOf(t, server)
	if len(kids) != 1 {
		t.Fatalf("lldb-server should have launched the program: children %v", kids)
	}
	program := kids[0]
	t.Cleanup(func() { killPID(program) })

	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": true, "timeout": 60000})
	wantStop(t, att, "breakpoint", 13)
	if att.stopFile(t) != src || att.vars("locals")["factor"] != "1" {
		t.Errorf("the stop in the program's source, with locals: %v", att)
	}
	out := h.ok("get_output", map[string]any{"sessionId": id}).outputText("entries")
	if !strings.Contains(out, "ready ") || strings.Contains(out, "gdb-remote") || strings.Contains(out, "SIGSTOP") {
		t.Errorf("the program's output, without LLDB's connection report: %q", out)
	}
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 14)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	if det := h.ok("detach_from_process", map[string]any{"sessionId": id}); det.str("state") != "stopped" {
		t.Errorf("detach: %v", det)
	}
	wantPIDGone(t, server, "lldb-server after detach")
	if !proc.Alive(program) {
		t.Errorf("the program should keep running after detach")
	}
}

// detach_from_process terminateProcess ends a program served by
// lldb-server, and lldb-server with it.
func TestRemoteAttachCDetachTerminates(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	server, port := lldbServer(t, "--", buildC(t, nativeProgram(t, "c", "loop.c")), "wait")
	program := childrenOf(t, server)[0]
	t.Cleanup(func() { killPID(program) })
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "timeout": 60000})
	if att.str("state") != "paused" {
		t.Fatalf("attach pauses the program: %v", att)
	}
	h.ok("detach_from_process", map[string]any{"sessionId": id, "terminateProcess": true})
	wantPIDGone(t, program, "the program after detach with terminateProcess")
	wantPIDGone(t, server, "lldb-server after detach with terminateProcess")
}

// A program whose executable exists only where it runs (its file gone
// here, as in a container): LLDB reads no executable from the stub, so
// the agent names its own build of it in adapterConfig.program, and the
// breakpoint binds and hits.
func TestRemoteAttachCProgramFromTheAgentsBuild(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	build := buildC(t, src)
	served := filepath.Join(t.TempDir(), "prog")
	b, err := os.ReadFile(build)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(served, b, 0o755); err != nil {
		t.Fatal(err)
	}
	server, port := lldbServer(t, "--", served, "wait")
	program := childrenOf(t, server)[0]
	t.Cleanup(func() { killPID(program) })
	if err := os.Remove(served); err != nil {
		t.Fatal(err)
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 13})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": true, "timeout": 60000,
		"adapterConfig": map[string]any{"program": build}})
	wantStop(t, att, "breakpoint", 13)
	if att.vars("locals")["factor"] != "1" {
		t.Errorf("locals: %v", att.vars("locals"))
	}
	h.ok("detach_from_process", map[string]any{"sessionId": id, "terminateProcess": true})
	wantPIDGone(t, program, "the program after detach with terminateProcess")
}

// `lldb-server gdbserver HOST:PORT --attach PID`, for a program already
// running: the breakpoint hits, and detach leaves the program running.
func TestRemoteAttachCThroughLLDBServerAttached(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	src := nativeProgram(t, "c", "loop.c")
	program := startNativeWaiter(t, buildC(t, src))
	server, port := lldbServer(t, "--attach", strconv.Itoa(program.Pid()))
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 14})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": true, "timeout": 60000})
	wantStop(t, att, "breakpoint", 14)
	if l := att.vars("locals"); l["scaled"] != l["item"] {
		t.Errorf("locals: %v", l)
	}
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("detach_from_process", map[string]any{"sessionId": id})
	wantPIDGone(t, server, "lldb-server after detach")
	if !proc.Alive(program.Pid()) {
		t.Errorf("the program should keep running after detach")
	}
}

// Rust under lldb-server: frame names and the toolchain's formatters work
// as in a local attach, though LLDB learns of the program only from the stub.
func TestRemoteAttachRustThroughLLDBServer(t *testing.T) {
	testenv.RequireTool(t, "rustup or apt-get install -y cargo", "cargo")
	h := newHarness(t)
	id := h.sessionFor("rust")
	dir := nativeProgram(t, "rust")
	build := exec.Command("cargo", "build")
	build.Dir = dir
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cargo build: %v\n%s", err, b)
	}
	server, port := lldbServer(t, "--", filepath.Join(dir, "target", "debug", "loop_rust"), "wait")
	program := childrenOf(t, server)[0]
	t.Cleanup(func() { killPID(program) })
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": nativeProgram(t, "rust", "src", "main.rs"), "line": 7})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": true, "timeout": 60000})
	wantStop(t, att, "breakpoint", 7)
	if loc := att.obj("location"); loc.str("function") != "loop_rust::weigh" {
		t.Errorf("frame name: %v", loc)
	}
	stack := h.ok("get_stack_trace", map[string]any{"sessionId": id}).list("stackFrames")
	// The stub launched the program: the first weigh is main's loop.
	if len(stack) != 2 || stack[1].str("name") != "loop_rust::main" || stack[1].num("line") != 18 {
		t.Fatalf("stack: %v", stack)
	}
	l := h.ok("get_local_variables", map[string]any{"sessionId": id, "frameId": stack[1].num("id")}).vars("variables")
	if !strings.Contains(l["tags"], "size=3") {
		t.Errorf("main's locals through the formatters: %v", l)
	}
	h.ok("detach_from_process", map[string]any{"sessionId": id, "terminateProcess": true})
	wantPIDGone(t, program, "the program after detach with terminateProcess")
}

// With no gdb-remote stub at the address, the answer comes within
// seconds and gives LLDB's reason.
func TestRemoteAttachCNothingListening(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("c")
	port := freePort(t)
	began := time.Now()
	h.fail("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "timeout": 60000}, "Failed to connect to 127.0.0.1:"+strconv.Itoa(port))
	if took := time.Since(began); took > 25*time.Second {
		t.Errorf("the failed attach took %v", took)
	}
}

// Ruby held at its first line by `rdbg --open`: attaching lets it run to
// the breakpoint, a step goes on, and after detach the program runs to
// its own end (exit code 3) with nothing of ours attached.
func TestRemoteAttachRubyHeldAtStart(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "loop.rb")
	program, port := rdbgOpen(t, src, false)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 4})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": true, "timeout": 30000})
	wantStop(t, att, "breakpoint", 4)
	if l := att.vars("locals"); att.stopFile(t) != src || l["item"] != "1" || l["factor"] != "10" {
		t.Errorf("the stop in the program's file, with locals: %v", att)
	}
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 5)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("detach_from_process", map[string]any{"sessionId": id})
	wantRunsToItsEnd(t, program, 3)
}

// A running Ruby program under `rdbg --open --nonstop`: the breakpoint
// hits in its loop, a step, and detach leaves it running.
func TestRemoteAttachRubyNonstop(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("ruby")
	src := rubyProgram(t, "spin.rb")
	program, port := rdbgOpen(t, src, true)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 7})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": true, "timeout": 30000})
	wantStop(t, att, "breakpoint", 7)
	if att.stopFile(t) != src || att.vars("locals")["ticks"] == "" {
		t.Errorf("the stop in the program's file, with locals: %v", att)
	}
	// The loop's condition makes no line event: the next line is the sleep.
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 6)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("detach_from_process", map[string]any{"sessionId": id})
	select {
	case <-program.Done():
		t.Errorf("the program ended after detach (exit code %d)", program.ExitCode())
	case <-time.After(time.Second):
	}
}

// startServing starts cmd and returns it and the first submatch of the
// first line of its stream (its stdout or stderr pipe) that ready
// matches: the port its debug server listens on.
func startServing(t *testing.T, cmd *exec.Cmd, pipe func() (io.ReadCloser, error), ready *regexp.Regexp) (*proc.Process, string) {
	t.Helper()
	stream, err := pipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	sc := bufio.NewScanner(stream)
	for sc.Scan() {
		if m := ready.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return p, m[1]
		}
	}
	t.Fatalf("%s never printed a line matching %q", cmd.Path, ready)
	return nil, ""
}

// nodeInspect starts `node FLAG=0.0.0.0:0 src` (FLAG --inspect or
// --inspect-brk), listening on every interface as in a container, and
// returns it and the inspector's port.
func nodeInspect(t *testing.T, flag, src string) (*proc.Process, string) {
	t.Helper()
	node := testenv.RequireTool(t, "apt-get install -y nodejs", "node")
	cmd := exec.Command(node, flag+"=0.0.0.0:0", src)
	cmd.Stdout = io.Discard
	return startServing(t, cmd, cmd.StderrPipe, regexp.MustCompile(`ws://0\.0\.0\.0:(\d+)/`))
}

// Node under --inspect on every interface, attached to by this machine's
// host name, as an agent names a compose service or another host: the
// inspector accepts only IP addresses and "localhost" as the HTTP Host. A
// breakpoint hits, a step, and detach leaves the program running.
func TestRemoteAttachNodeByHostName(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	src := nodeProgram(t, "serve.js")
	program, port := nodeInspect(t, "--inspect", src)
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 6})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": host, "port": port, "waitForStop": true, "timeout": 30000})
	wantStop(t, att, "breakpoint", 6)
	if att.stopFile(t) != src {
		t.Errorf("the stop's path is the program's: %v", att)
	}
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 7)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("detach_from_process", map[string]any{"sessionId": id})
	select {
	case <-program.Done():
		t.Errorf("the program ended after detach (exit code %d)", program.ExitCode())
	case <-time.After(time.Second):
	}
}

// Node held by --inspect-brk, attached to by a non-loopback address of
// this machine: a breakpoint in a module the program loads later (its path
// given by the agent) binds and hits with locals, a step, and after detach
// the program runs to its end (exit code 3).
func TestRemoteAttachNodeInspectBrk(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("javascript")
	program, port := nodeInspect(t, "--inspect-brk", nodeProgram(t, "loop.js"))
	module := nodeProgram(t, "weigh.js")
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": module, "line": 5})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": outwardAddress(t), "port": port, "waitForStop": true, "timeout": 30000})
	wantStop(t, att, "breakpoint", 5)
	if l := att.vars("locals"); att.stopFile(t) != module || l["item"] != "1" || l["factor"] != "10" {
		t.Errorf("the stop in weigh.js, with locals: %v", att)
	}
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 6)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("detach_from_process", map[string]any{"sessionId": id})
	wantRunsToItsEnd(t, program, 3)
}

// outwardAddress is an IPv4 address of this machine other than loopback,
// as another host would reach it; loopback when it has none.
func outwardAddress(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() {
			return ipn.IP.String()
		}
	}
	return "127.0.0.1"
}

// A JVM whose JDWP agent listens on every interface without suspending
// (address=*:PORT, suspend=n), attached to by loopback: a breakpoint in a
// class the program loads only later binds and hits with locals, a step,
// and detach leaves the program running (it answers the next line).
func TestRemoteAttachJavaListeningOnAllInterfaces(t *testing.T) {
	h := newHarness(t)
	id := h.sessionFor("java")
	java := testenv.RequireTool(t, "apt-get install -y openjdk-17-jdk-headless", "java")
	src := javaSource(t, "Later.java")
	cmd := exec.Command(java, "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=*:0", src)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	port := ""
	for line := range lines {
		if _, rest, ok := strings.Cut(line, "Listening for transport dt_socket at address: "); ok {
			port = rest
		}
		if line == "ready" {
			break
		}
	}
	if port == "" {
		t.Fatal("the JVM printed no JDWP address before ready")
	}
	h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 18})
	att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": false})
	if att.str("state") != "running" {
		t.Fatalf("attach lets the program run: %v", att)
	}
	io.WriteString(stdin, "one\n")
	hit := h.ok("wait_for_stop", map[string]any{"sessionId": id, "timeout": 30000})
	wantStop(t, hit, "breakpoint", 18)
	if l := hit.vars("locals"); hit.stopFile(t) != src || l["item"] != "1" || l["factor"] != "10" {
		t.Errorf("the stop in Worker.weigh, with locals: %v", hit)
	}
	wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 19)
	h.ok("clear_breakpoints", map[string]any{"sessionId": id})
	h.ok("detach_from_process", map[string]any{"sessionId": id})
	io.WriteString(stdin, "two\n")
	// The JDWP agent listens again after a detach, and says so in between.
	for _, want := range []string{"weighed 10", "weighed 20"} {
		select {
		case line := <-lines:
			if strings.HasPrefix(line, "Listening for transport") {
				line = <-lines
			}
			if line != want {
				t.Errorf("the program printed %q, want %q", line, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("the program stopped answering after detach (want %q)", want)
		}
	}
}

// Go: a headless, multi-client dlv that attached itself to a running
// program (`dlv attach PID --headless --accept-multiclient --listen …`):
// our attach by host and port hits the breakpoint with locals, steps, and
// detach leaves the program running under that dlv, ready for the next
// client.
func TestRemoteAttachGoToHeadlessDlvAttached(t *testing.T) {
	h := newHarness(t)
	av := testenv.RequireAdapter(t, "go")
	id := h.sessionFor("go")
	program, sc := startWaiter(t, exec.Command(buildGo(t, "waiter")), "ready")
	go func() {
		for sc.Scan() {
		}
	}()
	dlv := exec.Command(av.Path, "attach", strconv.Itoa(program.Pid()), "--headless", "--accept-multiclient", "--check-go-version=false", "--listen", "127.0.0.1:0")
	dlv.Stderr = io.Discard
	_, port := startServing(t, dlv, dlv.StdoutPipe, regexp.MustCompile(`API server listening at: 127\.0\.0\.1:(\d+)`))
	src := goProgram(t, "waiter", "main.go")
	for round := range 2 {
		h.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": 10})
		att := h.ok("attach_to_process", map[string]any{"sessionId": id, "host": "127.0.0.1", "port": port, "waitForStop": true, "timeout": 60000})
		wantStop(t, att, "breakpoint", 10)
		if att.vars("locals")["n"] == "" {
			t.Errorf("round %d: locals after attach: %v", round, att.vars("locals"))
		}
		wantStop(t, h.ok("step_over", map[string]any{"sessionId": id}), "step", 11)
		h.ok("clear_breakpoints", map[string]any{"sessionId": id})
		h.ok("detach_from_process", map[string]any{"sessionId": id})
		if !proc.Alive(program.Pid()) {
			t.Fatalf("round %d: the program should keep running after detach", round)
		}
	}
}

// wantRunsToItsEnd checks that a program left running by a detach goes on
// to its own end with its own exit code.
func wantRunsToItsEnd(t *testing.T, program *proc.Process, code int) {
	t.Helper()
	select {
	case <-program.Done():
		if program.ExitCode() != code {
			t.Errorf("the program's exit code after detach: %d (%v), want %d", program.ExitCode(), program.WaitErr(), code)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("the program did not run to its end after detach")
	}
}
