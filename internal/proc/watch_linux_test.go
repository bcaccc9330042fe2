package proc

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// grandchild starts a shell that starts script in the background, prints
// its pid and reaps it, as a debug adapter does with its debuggee.
func grandchild(t *testing.T, script string) int {
	t.Helper()
	cmd := exec.Command("sh", "-c", "("+script+") & echo $!; wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	buf := make([]byte, 32)
	n, err := out.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func watchUntilEnd(t *testing.T, pid int, kill func()) Ending {
	t.Helper()
	w, err := Watch(pid)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, ended := w.Ended(); ended {
		t.Fatal("a live process reads as ended")
	}
	kill()
	select {
	case <-w.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher did not see the process end")
	}
	return w.Ending()
}

func TestWatchSeesSignalOfReapedGrandchild(t *testing.T) {
	pid := grandchild(t, "exec sleep 30")
	e := watchUntilEnd(t, pid, func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if !e.Known || e.SignalName() != "SIGKILL" {
		t.Fatalf("want killed by SIGKILL, got %+v", e)
	}
}

func TestWatchSeesExitCodeOfGrandchild(t *testing.T) {
	pid := grandchild(t, "sleep 0.3; exit 3")
	e := watchUntilEnd(t, pid, func() {})
	if !e.Known || e.Signal != 0 || e.Code != 3 {
		t.Fatalf("want exit code 3, got %+v", e)
	}
}

func TestWatchSeesSignalOfUnreapedZombie(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	e := watchUntilEnd(t, cmd.Process.Pid, func() { _ = cmd.Process.Kill() })
	if !e.Known || e.SignalName() != "SIGKILL" {
		t.Fatalf("want killed by SIGKILL, got %+v", e)
	}
}
