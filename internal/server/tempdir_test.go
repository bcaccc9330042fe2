package server

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/mcp-debugger/mcp-debugger/internal/proc"
)

// A starting server removes the temporary directories of servers that were
// killed before they could, and leaves those of running ones alone.
func TestServerStartRemovesTempDirsOfGoneServers(t *testing.T) {
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	dead, err := os.MkdirTemp("", fmt.Sprintf("mcp-debugger-go-%d.1-", exited.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	// This process's pid with another start time: the pid was reused.
	reused, err := os.MkdirTemp("", fmt.Sprintf("mcp-debugger-go-%d.1-", os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	live, err := proc.MkdirTemp("go")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dead); os.RemoveAll(reused); os.RemoveAll(live) })
	if err := os.WriteFile(dead+"/debug.bin", []byte("left behind"), 0o600); err != nil {
		t.Fatal(err)
	}

	newHarness(t)
	for _, dir := range []string{dead, reused} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s of a gone server should be removed at start: %v", dir, err)
		}
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("%s of a running server should stay: %v", live, err)
	}
}
