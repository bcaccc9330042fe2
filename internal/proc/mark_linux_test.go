package proc

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// startMarked starts sleep with MarkVar=mark in its environment, in a
// session of its own (out of every group the server knows), and returns
// a channel closed once it has been reaped.
func startMarked(t *testing.T, mark string) (*exec.Cmd, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	cmd.Env = append(os.Environ(), MarkVar+"="+mark)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reaped := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(reaped)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-reaped
	})
	return cmd, reaped
}

// liveStrangerMark is a mark of another server that runs (init, pid 1):
// no watchdog or sweep, of this test or of another test process, may
// touch its processes.
func liveStrangerMark(t *testing.T) string {
	t.Helper()
	start, err := startTime(1)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("1.%d/stranger", start)
}

func wantReaped(t *testing.T, what string, reaped <-chan struct{}) {
	t.Helper()
	select {
	case <-reaped:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s survived", what)
	}
}

// TestKillMarkedEndsExactlyItsRun: a run's mark reaches its process
// wherever it is; another run's process is spared.
func TestKillMarkedEndsExactlyItsRun(t *testing.T) {
	mine, mineReaped := startMarked(t, RunMark("s1.1"))
	other, _ := startMarked(t, RunMark("s1.2"))
	if killed := KillMarked(RunMark("s1.1")); len(killed) != 1 || killed[0] != mine.Process.Pid {
		t.Errorf("KillMarked killed %v, want only %d", killed, mine.Process.Pid)
	}
	wantReaped(t, "the marked process", mineReaped)
	if !Alive(other.Process.Pid) {
		t.Error("KillMarked killed another run's process")
	}
}

// TestWatchdogSweepsTheMarksOfADeadServer: when the server's end of the
// pipe closes, the processes its runs marked die, those of another server
// live.
func TestWatchdogSweepsTheMarksOfADeadServer(t *testing.T) {
	_, mineReaped := startMarked(t, RunMark("s2.1"))
	stranger, _ := startMarked(t, liveStrangerMark(t))
	var g groupWatchdog
	if err := g.ensure(); err != nil {
		t.Fatal(err)
	}
	g.in.Close()
	wantReaped(t, "the marked process of the dead server", mineReaped)
	if !Alive(stranger.Process.Pid) {
		t.Error("the watchdog killed a process another server marked")
	}
}

// TestSweepMarkedEndsTheRunsOfGoneServers: a starting server ends what a
// server killed outright left running, and nothing of a running one.
func TestSweepMarkedEndsTheRunsOfGoneServers(t *testing.T) {
	_, goneReaped := startMarked(t, "1.999999999999/s3.1")
	mine, _ := startMarked(t, RunMark("s3.1"))
	stranger, _ := startMarked(t, liveStrangerMark(t))
	SweepMarked()
	wantReaped(t, "the process of a gone server", goneReaped)
	if !Alive(mine.Process.Pid) || !Alive(stranger.Process.Pid) {
		t.Error("SweepMarked killed a process of a running server")
	}
}
