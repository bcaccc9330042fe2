package proc

// The contract every platform's implementation keeps. This file has no
// build tag: it compiles for every target `make cross` vets, and runs
// wherever the tests run. Its processes are this test binary itself, in a
// role named by helperRole, so that it needs no shell.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// helperRole, in the environment, makes the test binary a helper process.
const helperRole = "PROC_CONTRACT_ROLE"

// helperLife bounds a helper that waits to be killed, should the test that
// started it fail to.
const helperLife = 5 * time.Minute

// contractWait bounds every wait of these tests for an event.
const contractWait = 30 * time.Second

func TestMain(m *testing.M) {
	switch os.Getenv(helperRole) {
	case "":
		os.Exit(m.Run())
	case "parent":
		// An adapter that starts its debuggee the plain way, not through
		// Start: only the platform keeps it from outliving the session.
		child := helperCommand("child")
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(child.Process.Pid)
		time.Sleep(helperLife)
	case "child":
		time.Sleep(helperLife)
	case "exit3":
		// Exits once told to, so that a watch can start before the end.
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(3)
	}
	os.Exit(0)
}

func helperCommand(role string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperRole+"="+role)
	return cmd
}

// startParent starts a helper that starts a child of its own, and returns
// it and the child's pid.
func startParent(t *testing.T) (*Process, int) {
	t.Helper()
	cmd := helperCommand("parent")
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
	t.Cleanup(p.Kill)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		errOut, _ := io.ReadAll(stderr)
		t.Fatalf("the helper said no child pid: %v %s", err, errOut)
	}
	child, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	return p, child
}

func waitDone(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(contractWait):
		t.Fatalf("%s did not happen within %v", what, contractWait)
	}
}

// TestContractKillEndsTheGroupAndEveryDescendant: a session's Kill leaves
// nothing of what it started, and a watch of the debuggee sees it end.
func TestContractKillEndsTheGroupAndEveryDescendant(t *testing.T) {
	p, child := startParent(t)
	if !Alive(p.Pid()) || !Alive(child) {
		t.Fatalf("helpers not running: parent %d %v, child %d %v", p.Pid(), Alive(p.Pid()), child, Alive(child))
	}
	if d := Descendants(p.Pid()); len(d) != 1 || d[0] != child {
		t.Fatalf("descendants of %d: %v, want [%d]", p.Pid(), d, child)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if got := DescendantRunning(p.Pid(), exe); got != child {
		t.Fatalf("the descendant running %s: %d, want %d", exe, got, child)
	}
	w, err := Watch(child)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, ended := w.Ended(); ended {
		t.Fatal("a live process reads as ended")
	}
	p.Kill()
	if !p.Exited() {
		t.Error("Kill returned before the leader was reaped")
	}
	for _, pid := range []int{p.Pid(), child} {
		if Alive(pid) {
			t.Errorf("process %d survived Kill", pid)
		}
	}
	waitDone(t, w.Done(), "the watch of the killed child seeing its end")
}

// TestContractKillAllEndsEverySession: the server's exit leaves nothing.
func TestContractKillAllEndsEverySession(t *testing.T) {
	p1, c1 := startParent(t)
	p2, c2 := startParent(t)
	KillAll()
	for _, pid := range []int{p1.Pid(), c1, p2.Pid(), c2} {
		if Alive(pid) {
			t.Errorf("process %d survived KillAll", pid)
		}
	}
}

// TestContractWatchSeesTheExitCode: a watch tells how the process ended.
func TestContractWatchSeesTheExitCode(t *testing.T) {
	cmd := helperCommand("exit3")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	w, err := Watch(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, err := io.WriteString(stdin, "exit\n"); err != nil {
		t.Fatal(err)
	}
	waitDone(t, w.Done(), "the watch seeing the exit")
	if e := w.Ending(); !e.Known || e.Signal != 0 || e.Code != 3 {
		t.Errorf("want exit code 3, got %+v", e)
	}
	waitDone(t, p.Done(), "the reaping")
	if p.ExitCode() != 3 {
		t.Errorf("exit code %d, want 3", p.ExitCode())
	}
	if !WaitGone(p.Pid(), contractWait) {
		t.Error("WaitGone says a reaped process is there")
	}
}

// TestContractStoppedWatchSaysNoEnd: stopping a watch is not an end.
func TestContractStoppedWatchSaysNoEnd(t *testing.T) {
	_, child := startParent(t)
	w, err := Watch(child)
	if err != nil {
		t.Fatal(err)
	}
	w.Stop()
	w.Stop()
	select {
	case <-w.Done():
		t.Fatal("a stopped watch of a live process says it ended")
	default:
	}
}

// TestContractTempDirsOfGoneServersAreSwept: a later server removes the
// directories of a server that is gone, and only those.
func TestContractTempDirsOfGoneServersAreSwept(t *testing.T) {
	mine, err := MkdirTemp("contract")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(mine)
	p, _ := startParent(t)
	start, err := startTime(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	gone, err := os.MkdirTemp("", fmt.Sprintf("%scontract-%d.%d-", tempPrefix, p.Pid(), start))
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(gone)
	p.Kill()
	removed := SweepTempDirs()
	if !contains(removed, gone) {
		t.Errorf("the directory of a gone process was not swept: %v", removed)
	}
	if contains(removed, mine) {
		t.Errorf("the running server's own directory was swept")
	}
}

func contains(dirs []string, dir string) bool {
	for _, d := range dirs {
		if filepath.Clean(d) == filepath.Clean(dir) {
			return true
		}
	}
	return false
}
