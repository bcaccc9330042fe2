//go:build unix

package proc

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// startGroup starts sleep as the leader of a process group of its own,
// outside Start (no Pdeathsig), and returns it and a channel that is
// closed once it has been reaped.
func startGroup(t *testing.T) (*exec.Cmd, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(reaped)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-reaped
	})
	return cmd, reaped
}

// TestWatchdogKillsTheGroupsOfADeadServer: when the server's end of the
// pipe closes, as it does when the server dies, the groups it added die,
// and a group it forgot is spared (its number may be another's by then).
func TestWatchdogKillsTheGroupsOfADeadServer(t *testing.T) {
	kept, keptReaped := startGroup(t)
	forgotten, _ := startGroup(t)
	var g groupWatchdog
	// The forgotten group first: had the watchdog killed it, it would be
	// dead by the time the kept one is.
	for _, cmd := range []*exec.Cmd{forgotten, kept} {
		if err := g.add(cmd.Process.Pid); err != nil {
			t.Fatal(err)
		}
	}
	g.forget(forgotten.Process.Pid)
	g.in.Close()
	select {
	case <-keptReaped:
	case <-time.After(30 * time.Second):
		t.Fatalf("group %d survived the watchdog's end of input", kept.Process.Pid)
	}
	if ws, ok := kept.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("want the group killed by SIGKILL, got %v", kept.ProcessState)
	}
	if !Alive(forgotten.Process.Pid) {
		t.Errorf("the watchdog killed group %d, which it had been told to forget", forgotten.Process.Pid)
	}
}

// TestDismissedWatchdogKillsNothing: a server that cleaned up itself
// dismisses its watchdog, which has exited by the time dismiss returns (a
// server that stopped leaves no process, the watchdog included) and left
// every group alone.
func TestDismissedWatchdogKillsNothing(t *testing.T) {
	group, _ := startGroup(t)
	var g groupWatchdog
	if err := g.add(group.Process.Pid); err != nil {
		t.Fatal(err)
	}
	g.dismiss()
	defer g.in.Close()
	select {
	case <-g.exited:
	default:
		t.Fatal("dismiss returned while the watchdog still ran")
	}
	if !Alive(group.Process.Pid) {
		t.Error("a dismissed watchdog killed a group")
	}
}
