package proc

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startReporting starts a shell script that prints a pid on its first line
// and returns the process and that pid.
func startReporting(t *testing.T, script string) (*Process, int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	// A plain pipe, not StdoutPipe: Wait closes that once the shell exits,
	// which may be before we read.
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout = w
	p, err := Start(cmd)
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	return p, pid
}

func TestKillReachesChildThatIgnoresSIGTERM(t *testing.T) {
	p, child := startReporting(t, `sh -c 'trap "" TERM; while :; do sleep 1; done' & echo $!; wait`)
	if !Alive(child) {
		t.Fatal("child not running")
	}
	p.Kill()
	if Alive(child) {
		t.Errorf("child %d ignoring SIGTERM survived Kill", child)
	}
	if !p.Exited() {
		t.Error("leader not reaped")
	}
}

// A command's leftovers end with it: its reaper ends the child it left
// running (re-parented to the reaper, not to init).
func TestWhatACommandLeavesEndsWithIt(t *testing.T) {
	p, orphan := startReporting(t, `sleep 300 & echo $!`)
	<-p.Done()
	if Alive(orphan) {
		t.Errorf("process %d, left running by a command that exited, outlived it", orphan)
	}
}

// A daemon that forked twice, left the process group (setsid) and dropped
// the environment (so no mark is on it) is still in the tree Kill ends.
func TestKillReachesADaemonThatLeftGroupAndMark(t *testing.T) {
	p, daemon := startReporting(t, `(setsid env -i sleep 300 & echo $!); exec sleep 300`)
	// The subshell that started it exits after the echo.
	deadline := time.Now().Add(contractWait)
	for parents()[daemon] != p.leader() {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon %d was not re-parented to the command's reaper %d (parent %d)", daemon, p.leader(), parents()[daemon])
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.Kill()
	if !WaitGone(daemon, contractWait) {
		t.Errorf("daemon %d survived Kill", daemon)
	}
}

// Pid is the command's own pid, and its exit, by status or by signal, is
// the one Start's caller sees.
func TestTheReaperIsInvisible(t *testing.T) {
	p, pid := startReporting(t, `echo $$; exec kill -SEGV $$`)
	if pid != p.Pid() {
		t.Errorf("Pid() = %d, the command says it is %d", p.Pid(), pid)
	}
	<-p.Done()
	if err := p.WaitErr(); err == nil || err.Error() != "signal: segmentation fault" {
		t.Errorf("a command killed by SIGSEGV ended with %v", err)
	}
	q, _ := startReporting(t, `echo $$; exit 7`)
	<-q.Done()
	if q.ExitCode() != 7 {
		t.Errorf("exit 7 came back as %d", q.ExitCode())
	}
	if _, err := Start(exec.Command("/nonexistent/program")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("starting a missing program: %v, want a not-exist error", err)
	}
}

func TestKillAll(t *testing.T) {
	p1, c1 := startReporting(t, `sleep 300 & echo $!; wait`)
	p2, c2 := startReporting(t, `sleep 300 & echo $!; wait`)
	KillAll()
	for _, pid := range []int{p1.Pid(), p2.Pid(), c1, c2} {
		if Alive(pid) {
			t.Errorf("process %d survived KillAll", pid)
		}
	}
	if d := Descendants(p1.Pid()); len(d) != 0 {
		t.Errorf("descendants left: %v", d)
	}
}

// What a process wrote just before it exited stays readable after the
// exit: the reader may come late (exec's StdoutPipe loses it then, its read
// end being closed by Wait as soon as the process is reaped).
func TestOutputPipesKeepOutputPastTheExit(t *testing.T) {
	cmd := exec.Command("sh", "-c", "head -c 32768 /dev/zero | tr '\\0' x; printf end >&2")
	stdout, stderr, err := OutputPipes(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	defer stderr.Close()
	p, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the process did not exit")
	}
	out, err := io.ReadAll(stdout)
	if err != nil || len(out) != 32768 {
		t.Fatalf("stdout after the exit: %d bytes, %v", len(out), err)
	}
	if errOut, err := io.ReadAll(stderr); err != nil || string(errOut) != "end" {
		t.Fatalf("stderr after the exit: %q, %v", errOut, err)
	}
}

// TestKillOfAReapedLeaderSparesTheProcessThatReusedItsPid: once a leader
// has been reaped, its pid may belong to another process (on a busy
// machine it soon does); Kill must not signal that one. The reuse is
// staged: a reaped Process carrying the pid of a live group leader.
func TestKillOfAReapedLeaderSparesTheProcessThatReusedItsPid(t *testing.T) {
	other, child := startReporting(t, `sleep 300 & echo $!; wait`)
	defer other.Kill()
	reaped := &Process{cmd: &exec.Cmd{Process: &os.Process{Pid: other.Pid()}}, done: make(chan struct{}), exitCode: 0}
	close(reaped.done)
	reaped.Kill()
	// Had Kill signalled the group, its SIGKILL would have ended both;
	// other's own Kill below sends SIGTERM first, which the shell reports.
	if !Alive(other.Pid()) || !Alive(child) {
		t.Fatalf("Kill of a reaped process signalled the live process group %d that holds its pid now", other.Pid())
	}
	other.Kill()
	if ws, ok := other.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGTERM {
		t.Errorf("the live process should end by its own Kill's SIGTERM, not an earlier SIGKILL: %v", other.cmd.ProcessState)
	}
}
